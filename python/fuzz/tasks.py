"""What an engine worker does for a campaign: one seed, or one failure's reduction. Plain data in and out.

These functions run wherever the engine puts them (a thread of the local
pool, a Dask worker on another machine) and touch no campaign file: the
driver alone writes results, so a seed is recorded once whichever worker ran
it. Each uses its thread's ``Sandbox``; a side whose compile or run killed the
child is recorded as a crash (its signal, and IREE's crash site read from the
same compile re-run through the command line) or a timeout, and the job is
run again for the other sides.
"""

from __future__ import annotations

import io
import os
import shlex
import subprocess
import sys
import tempfile
import time

import numpy as np

from . import sandbox
from .program import Program

RIGHT = ("right", "compiled")


def timeouts(config: dict) -> dict:
    return {
        "compile": config.get("compile_timeout", 300),
        "run": config.get("run_timeout", 60) + 30,
        "export": 300,
        "default": 300,
    }


# --------------------------------------------------------------------------
# Signatures: one bug, one bucket
# --------------------------------------------------------------------------


def failing(side: dict) -> bool:
    return side.get("outcome") not in RIGHT


def signature(side: dict) -> str:
    """A side's failure, normalised (``outcomes.family``) so that the same bug on another program matches."""
    from ..execution.outcomes import family

    o = side["outcome"]
    if o == "wrong":
        return "wrong"
    if o == "timeout":
        return f"timeout in {side.get('step', 'compile').split(' ')[0]}"
    if side.get("left"):  # the op the frontend did not lower, rather than the value op its conversion met
        return f"{o}: torch ops left unconverted: {', '.join(side['left'])}"
    return f"{o}: {family(side.get('error', ''))}"


# --------------------------------------------------------------------------
# One seed
# --------------------------------------------------------------------------


def run_seed(config: dict, seed: int) -> dict:
    """The seed's record: its program (as JSON), each side's outcome; ``invalid`` when no program came of it."""
    t0 = time.monotonic()
    rec = {"seed": seed, "sides": {}}
    done = rec["sides"]
    while len(done) < len(config["sides"]):
        left = [s for s in config["sides"] if s not in done]
        with tempfile.TemporaryDirectory(prefix="opt-py-fuzz-") as wd:
            job = {"do": "seed", "config": config, "seed": seed, "sides": left, "workdir": wd}
            ans = sandbox.mine().call(job, timeouts(config))
            if not _side_died(ans, config, wd, done):
                _merge(rec, ans)
                break
        if "_invalid" in done:
            rec["invalid"] = done.pop("_invalid")["error"]
            done.clear()
        if "invalid" in rec or "error" in rec:
            break
    rec["seconds"] = round(time.monotonic() - t0, 2)
    return rec


def _merge(rec: dict, ans: dict) -> None:
    if "error" in ans:
        rec["error"] = ans["error"]
        rec["traceback"] = ans.get("traceback", "")
        return
    if "invalid" in ans:
        rec["invalid"] = ans["invalid"]
    if "program" in ans:
        p = ans["program"]
        rec["kind"], rec["program"] = p["kind"], p
        rec["ops"] = [n["op"] for n in p["nodes"]]
    for side, out in ans.get("sides", {}).items():
        out.pop("observed", None)
        rec["sides"][side] = out


def _side_died(ans: dict, config: dict, workdir: str, done: dict) -> bool:
    """Record the side whose step killed the child or timed out; False when the job answered."""
    step = ans.get("died") or ans.get("timeout")
    if not step:
        return False
    words = step.split(" ")
    if len(words) != 2 or words[0] not in ("compile", "run"):  # generating, the reference, the export
        what = f"{ans.get('signal') or ans.get('status')}" if "died" in ans else "timeout"
        done.update({s: {"outcome": "invalid"} for s in config["sides"] if s not in done})
        done["_invalid"] = {"outcome": "invalid", "error": f"{what} in {step}", "log": ans.get("log", "")[-2000:]}
        return True
    kind, side = words
    if "timeout" in ans:
        done[side] = {"outcome": "timeout", "step": step, "error": f"{step} timed out after {ans['seconds']:g} s"}
        return True
    rec = {"outcome": "crash", "step": step, "signal": ans.get("signal") or f"status {ans.get('status')}"}
    rec["error"] = f"{rec['signal']} in {kind}"
    if kind == "compile":
        site = crash_site(config, side, os.path.join(workdir, "program.mlir"))
        if site:
            rec["error"] = f"{rec['signal']} in {site}"
    done[side] = rec
    return True


def crash_site(config: dict, side: str, path: str) -> str:
    """Where IREE crashed, from its stack dump: the side's compile re-run as a command."""
    if not os.path.exists(path):
        return ""
    from ..execution.outcomes import crash_site as site

    with tempfile.TemporaryDirectory() as tmp:
        cmd = compile_command(config, side, path, os.path.join(tmp, "m.vmfb"))
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeouts(config)["compile"])
        except subprocess.TimeoutExpired:
            return ""
    return site(proc.stderr)


def compile_command(config: dict, side: str, path: str, output: str) -> list[str]:
    """The command that compiles ``path`` as the side does: iree-compile for plain stock, else opt-py compile."""
    from ..execution import e2e

    flags = [*e2e.TARGETS[config["target"]].compile_flags, *config.get("flags", ())]
    plugins = [f"--load-pass-plugin={p}" for p in config.get("plugins", ())]
    if side == "stock" and not config.get("stock_inject"):
        from iree.compiler.tools.binaries import find_tool

        return [find_tool("iree-compile"), *flags, path, "-o", output]
    extra = ["--fixes"] if side == "fixes" else [f"--inject={j}" for j in config.get("stock_inject", ())]
    return [sys.executable, "-m", "opt_py", "compile", *plugins, *extra, *flags, path, "-o", output]


# --------------------------------------------------------------------------
# One failure, reduced
# --------------------------------------------------------------------------


def run_reduce(config: dict, seed: int, program_json: dict, side: str, want: str, tests: int = 60) -> dict:
    """The failure of ``side`` on the seed's program reduced to a small program with the same signature,
    every side run on it, and (for wrong numbers) the hunter's first differing dispatch."""
    from .reduce import Budget, reduce_program

    t0 = time.monotonic()
    box = sandbox.mine()
    if program_json is None:  # not recorded: every side crashed; the seed draws it again
        program_json = box.call({"do": "program", "config": config, "seed": seed}, timeouts(config))["program"]
    program = Program.from_json(program_json)
    first = check(box, config, program, list(config["sides"]), values=True)
    mine = first.get("sides", {}).get(side)
    if mine is None or not failing(mine) or signature(mine) != want:
        return {"seed": seed, "side": side, "reproduced": False, "first": _plain(first), "seconds": _since(t0)}
    reference = first["reference"]
    wrong = mine.get("wrong_outputs", [])

    def still_fails(candidate: Program) -> bool:
        out = check(box, config, candidate, [side]).get("sides", {}).get(side)
        return out is not None and failing(out) and signature(out) == want

    budget = Budget(tests)
    small = reduce_program(program, reference, still_fails, budget, first_outputs=wrong[:1])
    final = check(box, config, small, list(config["sides"]), values=True)
    rec = {
        "seed": seed,
        "side": side,
        "signature": want,
        "reproduced": True,
        "tests": budget.used,
        "from_ops": program.size(),
        "program": small.to_json(),
        "ops": small.ops(),
        "sides": {s: _plain_side(o) for s, o in final.get("sides", {}).items()},
        "arrays": _arrays(small, final),
        "text": final.get("text", ""),
    }
    if want == "wrong" and config["target"] == "cpu":
        right = next((s for s, o in final.get("sides", {}).items() if not failing(o)), None)
        rec["hunt"] = hunt(box, config, small, right, side)
    rec["seconds"] = _since(t0)
    return rec


def check(box, config: dict, program: Program, sides, values: bool = False) -> dict:
    """``execute.job_check`` in the sandbox, a crash or timeout of a side folded into that side's outcome."""
    given = {i.id: i.data for i in program.inputs if i.data is not None}
    out: dict = {"sides": {}}
    left = list(sides)
    while left:
        with tempfile.TemporaryDirectory(prefix="opt-py-fuzz-") as wd:
            job = {
                "do": "check",
                "config": config,
                "program": program.to_json(),
                "given": given,
                "sides": left,
                "workdir": wd,
                "values": values,
            }
            ans = box.call(job, timeouts(config))
            if _side_died(ans, config, wd, out["sides"]):
                if "_invalid" in out["sides"]:
                    return {"invalid": out["sides"]["_invalid"]["error"]}
                left = [s for s in sides if s not in out["sides"]]
                continue
        if "error" in ans or "invalid" in ans:
            return ans
        out["sides"].update(ans["sides"])
        for key in ("reference", "text"):
            if key in ans:
                out[key] = ans[key]
        break
    return out


def hunt(box, config: dict, program: Program, right: str | None, wrong: str) -> dict:
    """``compare --per-dispatch`` A = the right side (or the wrong one alone: its consistency), B = the wrong."""
    with tempfile.TemporaryDirectory(prefix="opt-py-fuzz-") as wd:
        given = {i.id: i.data for i in program.inputs if i.data is not None}
        job = {
            "do": "hunt",
            "config": config,
            "program": program.to_json(),
            "given": given,
            "right": right or wrong,
            "wrong": wrong,
            "workdir": wd,
        }
        ans = box.call(job, timeouts(config))
    if "lines" not in ans:
        return {"lines": [f"no hunt: {ans.get('error') or ans.get('died') or ans.get('timeout')}"], "files": {}}
    return ans


def _arrays(program: Program, final: dict) -> dict:
    """input<i>.npy, expected<k>.npy (the reference, in the output's dtype), observed<k>.npy (each wrong side)."""
    from .program import NP

    out = {}
    vals = program.values()
    data = program.input_data()
    runtime = [x for i, x in zip(program.inputs, data) if not i.value.param]
    for k, x in enumerate(runtime):
        out[f"input{k}.npy"] = _npy(x)
    reference = final.get("reference", {})
    for k, o in enumerate(program.outputs):
        if o in reference:
            out[f"expected{k}.npy"] = _npy(np.asarray(reference[o]).astype(NP.get(vals[o].dtype, np.float32)))
    for side, rec in final.get("sides", {}).items():
        for k, x in enumerate(rec.get("observed", [])):
            out[f"observed-{side}{k}.npy"] = _npy(x)
    return out


def _npy(x) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.asarray(x))
    return buf.getvalue()


def _plain_side(o: dict) -> dict:
    return {k: v for k, v in o.items() if k != "observed"}


def _plain(ans: dict) -> dict:
    return {
        k: ({s: _plain_side(o) for s, o in v.items()} if k == "sides" else v)
        for k, v in ans.items()
        if k != "reference"
    }


def _since(t0: float) -> float:
    return round(time.monotonic() - t0, 2)


def shell(cmd: list[str]) -> str:
    return shlex.join(cmd)

"""The jobs a sandbox child runs: draw a program, compute its reference, compile and run it each way.

A job is plain data (``config``, a seed or a program as JSON with its given
arrays); the answer is plain data too. Each step is announced to the parent
before it is taken (``sandbox.py``), and the program's text is written to the
job's folder before any compile, so that the parent can re-run a compile that
killed this process through the command line and read IREE's stack dump.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import numpy as np

from ..errors import OptPyError
from .program import Program

STOCK, FIXES = "stock", "fixes"


def table(kind: str):
    if kind == "torch":
        from . import torch_ops

        return torch_ops
    from . import linalg_ops

    return linalg_ops


def generate(config: dict, seed: int) -> Program:
    from .generator import Generator

    kind = config["kind"]
    if kind == "mix":
        kind = "torch" if seed % 2 else "linalg"
    t = table(kind)
    rng = np.random.default_rng([seed, 1])
    n_ops = int(rng.integers(2, config.get("max_ops", 8) + 1))
    return Generator(kind, seed, t, t.DTYPES).generate(n_ops)


# --------------------------------------------------------------------------
# One program, every side
# --------------------------------------------------------------------------


def check(program: Program, config: dict, sides, workdir: str, say, want_values: bool = False) -> dict:
    """Each side's outcome on ``program``: right, wrong (with the measure), compile-fail, run-fail, compiled."""
    t = table(program.kind)
    data = program.input_data()
    say("reference")
    reference = t.evaluate(program, data, True)
    native = t.evaluate(program, data, False)
    say("export")
    try:
        text = t.to_mlir(program)
    except Exception as e:  # noqa: BLE001 - a program its frontend will not take is not the compiler's failure
        return {"invalid": f"export: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"}
    path = os.path.join(workdir, "program.mlir")
    with open(path, "w") as f:
        f.write(text)
    inputs = [x for i, x in zip(program.inputs, data) if not i.value.param]
    out = {"sides": {}}
    for side in sides:
        out["sides"][side] = run_side(path, program, config, side, inputs, reference, native, t, say)
    if want_values:
        out["reference"] = {k: np.asarray(v) for k, v in reference.items()}
        out["text"] = text
    return out


def run_side(path, program, config, side, inputs, reference, native, t, say) -> dict:
    from ..execution import e2e
    from ..execution.outcomes import first_error
    from . import judge

    target = e2e.TARGETS[config["target"]]
    say(f"compile {side}")
    t0 = time.monotonic()
    try:
        vmfb = compile_side(path, config, side)
    except OptPyError as e:
        rec = {"outcome": "compile-fail", "error": first_error(str(e)), "seconds": _since(t0)}
        if LEFT_BEHIND.search(rec["error"]):
            rec["left"] = left_unconverted(path, config, side)
        return rec
    if config["target"] != "cpu":
        return {"outcome": "compiled", "seconds": _since(t0)}
    say(f"run {side}")
    try:
        got = e2e.run_runtime(vmfb, target, "main", inputs, timeout=config.get("run_timeout", 60))
    except e2e.ModuleMisbehaved as e:
        return {"outcome": "run-fail", "error": str(e).strip().splitlines()[0], "seconds": _since(t0)}
    except OptPyError as e:
        error = str(e).strip().splitlines()[0]
        kind = "timeout" if "timed out" in error else "run-fail"
        return {"outcome": kind, "error": error, "seconds": _since(t0)}
    verdict = judge.judge(program, got, reference, native, getattr(t, "index_view", None))
    rec = {"outcome": "right" if verdict.right else "wrong", "seconds": _since(t0)}
    if not verdict.right:
        rec["error"] = verdict.measure
        rec["wrong_outputs"] = list(verdict.wrong_outputs)
        rec["observed"] = [np.asarray(g) for g in got]
    return rec


# The frontend's finalizing conversion names the first illegal op it meets: a value op (a constant, a
# literal, a list) stands for the op that reads it and was not lowered; left_unconverted finds that op.
LEFT_BEHIND = re.compile(r"failed to legalize operation 'torch\.(constant\.\w+|vtensor\.literal|prim\.\w+)'")


def left_unconverted(path, config: dict, side: str) -> list[str]:
    """The torch ops the side's frontend left unconverted (after its ``start`` fixes, for ``--fixes``)."""
    from ..execution import e2e
    from ..iree.input_conversion import left_unconverted as left
    from ..run.api import run_pipeline

    text = Path(path).read_text()
    start = [spec.split(":", 1)[1] for spec in side_injections(config, side)[0] if spec.startswith("start:")]
    try:
        for pipeline in start:
            text = run_pipeline(text, pipeline)
    except OptPyError:
        return []
    return left(text, [*e2e.TARGETS[config["target"]].compile_flags, *config.get("flags", ())])


def _since(t0: float) -> float:
    return round(time.monotonic() - t0, 3)


def side_injections(config: dict, side: str) -> tuple[tuple, tuple]:
    """(--inject, --inject-codegen) of a side: stock's planted passes, or every fix run unconditionally."""
    if side == STOCK:
        return tuple(config.get("stock_inject", ())), ()
    from ..execution import e2e
    from ..iree import fixes

    return fixes.specs("all", e2e.TARGETS[config["target"]].compile_flags)


def compile_side(path: str, config: dict, side: str) -> bytes:
    from ..execution import e2e
    from ..pipeline.registry import load_pass_files

    load_pass_files(config.get("plugins", []))
    target = e2e.TARGETS[config["target"]]
    flags = tuple(config.get("flags", ()))
    if side == STOCK:
        return e2e.compile_program(path, target, inject=config.get("stock_inject", ()), extra_flags=flags)
    return e2e.compile_program(path, target, extra_flags=flags, fixes="all")


# --------------------------------------------------------------------------
# Jobs
# --------------------------------------------------------------------------


def job_seed(job: dict, say) -> dict:
    config = job["config"]
    say("generate")
    t0 = time.monotonic()
    program = generate(config, job["seed"])
    out = check(program, config, job["sides"], job["workdir"], say)
    out["program"] = program.to_json()
    out["seconds"] = _since(t0)
    return out


def job_check(job: dict, say) -> dict:
    program = Program.from_json(job["program"], job.get("given"))
    return check(program, job["config"], job["sides"], job["workdir"], say, job.get("values", False))


def job_hunt(job: dict, say) -> dict:
    """``compare --per-dispatch`` on the program: the right side as A, the wrong one as B, saved in the job's folder."""
    from ..execution import e2e, hunt
    from ..pipeline.registry import load_pass_files

    config = job["config"]
    load_pass_files(config.get("plugins", []))
    program = Program.from_json(job["program"], job.get("given"))
    t = table(program.kind)
    path = os.path.join(job["workdir"], "program.mlir")
    say("export")
    with open(path, "w") as f:
        f.write(t.to_mlir(program))
    inputs = [x for i, x in zip(program.inputs, program.input_data()) if not i.value.param]
    target = e2e.TARGETS[config["target"]]
    flags = tuple(config.get("flags", ()))

    def build(side):
        inject, codegen = side_injections(config, side) if side else ((), ())
        return hunt.Build(target, inject, codegen, flags)

    say("hunt")
    save = os.path.join(job["workdir"], "dispatch")
    try:
        result = hunt.hunt(path, "main", inputs, build(job["right"]), build(job["wrong"]), save=save)
    except OptPyError as e:
        return {"lines": [f"no hunt: {str(e).strip().splitlines()[0]}"], "files": {}}
    files = {}
    if os.path.isdir(save):
        for name in sorted(os.listdir(save)):
            with open(os.path.join(save, name), "rb") as f:
                files[name] = f.read()
    return {"lines": result.lines, "files": files, "found": result.finding is not None}


def job_program(job: dict, say) -> dict:
    return {"program": generate(job["config"], job["seed"]).to_json()}


JOBS = {"seed": job_seed, "check": job_check, "hunt": job_hunt, "program": job_program}


def serve(req_fd: int, res_fd: int) -> None:
    from multiprocessing.connection import Connection

    requests, answers = Connection(req_fd, writable=False), Connection(res_fd, readable=False)

    def say(step: str) -> None:
        answers.send(("step", step))

    while True:
        try:
            job = requests.recv()
        except EOFError:
            break
        try:
            answer = JOBS[job["do"]](job, say)
        except Exception as e:  # noqa: BLE001 - the fuzzer's own failure, reported as the job's answer
            import traceback

            answer = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-3000:]}
        answers.send(("done", answer))
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]))

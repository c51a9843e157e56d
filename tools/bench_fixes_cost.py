"""What ``opt-py compile --fixes`` costs, program by program, on programs the fixes were not written for.

    python tools/bench_fixes_cost.py [--corpus DIR ...] [--onnx N] [--reps N] [--calls N] [--only a,b]

Programs: every ``*/model.mlir`` under each ``--corpus`` (default: test/models and test/library_models;
a torch-mlir export folder of tools/sweep_peer_suites.py works too), and with ``--onnx N`` every K-th of
the onnx_ops cases in ../shared/peer (N of them). For each, side by side, ``--reps`` interleaved rounds
after a warm-up round, llvm-cpu:

* compile CPU time (user + system, every thread) of ``iree-compile``, of ``opt-py compile --fixes``
  served by a warm server of the benchmark's own (the worker's and the client's CPU) and cold
  (``OPT_PY_NO_SERVER=1``: the interpreter and its imports counted), wall time beside. Where stock
  fails on the export, iree-compile compiles the "front door" (the export after the fixes at ``start``,
  applied by ``opt-py -p``): IREE's own time for the program. Where that fails too, there is no baseline.
* whether the ``--fixes`` module is stock's byte for byte, and which fixes rewrote something.
* run time, for programs with inputs (manifest.json + input<i>.npy): one call of the stock and of the
  ``--fixes`` module (local-sync), median of ``--calls``, in ``--reps`` interleaved rounds; a module
  identical to stock's is stock's run time by construction and is not timed.

Prints one row per program, the worst served compile ratio first, then the totals.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from opt_py.bench.timing import environments, served_run, timed

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT.parent / "shared" / "peer" / "onnx_ops" / "onnx" / "node" / "generated"
FLAGS = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append", default=[], help="a folder of <name>/model.mlir (repeatable)")
    ap.add_argument("--onnx", type=int, default=0, help="this many onnx_ops cases, evenly spread")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--only", default="", help="comma-separated program names")
    args = ap.parse_args()
    programs = collect(args.corpus or ["test/models", "test/library_models"], args.onnx)
    if args.only:
        programs = [p for p in programs if p.name in args.only.split(",")]
    print("command: python tools/bench_fixes_cost.py " + " ".join(sys.argv[1:]), flush=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        envs = environments(Path(tmp))
        for p in programs:
            r = measure(p, Path(tmp), args.reps, args.calls, envs)
            rows.append(r)
            print(f"  {r['name']}: served {ratio(r, 'served')}, cold {ratio(r, 'cold')}", file=sys.stderr, flush=True)
    print(table(rows))
    return 0


class Program:
    def __init__(self, name: str, path: Path, folder: Path | None):
        self.name, self.path, self.folder = name, path, folder

    def inputs(self):
        """(function, inputs) when the program has a manifest and inputs, else None."""
        if self.folder is None or not (self.folder / "manifest.json").exists():
            return None
        manifest = json.loads((self.folder / "manifest.json").read_text())
        files = sorted(self.folder.glob("input*.npy"), key=lambda f: int(f.stem[5:]))
        if "function" not in manifest or not files:
            return None
        return manifest["function"], [np.load(f) for f in files]


def collect(corpora: list[str], onnx: int) -> list[Program]:
    programs = []
    for c in corpora:
        for path in sorted(Path(c).glob("*/model.mlir")):
            programs.append(Program(path.parent.name, path, path.parent))
    if onnx:
        cases = sorted(p.parent for p in PEER.glob("*/model.mlir"))
        step = max(1, len(cases) // onnx)
        for case in cases[::step][:onnx]:
            programs.append(Program("onnx/" + case.name, case / "model.mlir", None))
    return programs


def measure(p: Program, tmp: Path, reps: int, calls: int, envs: dict) -> dict:
    """Median compile CPU seconds of each way, the module comparison, and the run times."""
    from iree.compiler.tools.binaries import find_tool
    from opt_py.iree import fixes

    opt_py = str(Path(sys.executable).parent / "opt-py")
    stock_vmfb, fixes_vmfb, front = tmp / "stock.vmfb", tmp / "fixes.vmfb", tmp / "front.mlir"
    for stale in (stock_vmfb, fixes_vmfb, front):
        stale.unlink(missing_ok=True)
    served, cold = envs["served"], envs["cold"]
    fixed = [opt_py, "compile", str(p.path), "--fixes", "--fixes-report", "-o", str(fixes_vmfb), *FLAGS]
    iree = [find_tool("iree-compile"), str(p.path), "-o", str(stock_vmfb), *FLAGS]
    out = {"name": p.name, "baseline": "stock"}
    try:
        report = timed(fixed, served).stderr  # the warm-up: the server starts (or is current)
    except SystemExit as e:
        return {**out, "failed": str(e).splitlines()[0]}
    out["rewrote"] = rewrote(report)
    if not succeeds(iree, served):
        start = [j.pipeline for j in fixes.injections(fixes.select("all"), FLAGS)[0] if j.phase == "start"]
        succeeds([opt_py, str(p.path), "-p", ",".join(start), "-o", str(front)], served)
        iree[1] = str(front)
        out["baseline"] = "front door" if front.exists() and succeeds(iree, served) else None
    out["identical"] = out["baseline"] == "stock" and stock_vmfb.read_bytes() == fixes_vmfb.read_bytes()
    times = {k: [] for k in ("iree", "iree_wall", "served", "served_wall", "cold", "fixes_own")}
    for _ in range(reps):
        if out["baseline"]:
            run = timed(iree, served)
            times["iree"].append(run.cpu)
            times["iree_wall"].append(run.wall)
        run = served_run(fixed, served, envs["run"])
        times["served"].append(run.cpu)
        times["served_wall"].append(run.wall)
        times["fixes_own"].append(float(run.stderr.split("the fixes took ", 1)[1].split(" s ", 1)[0]))
        times["cold"].append(timed(fixed, cold).cpu)
    out.update({k: statistics.median(v) if v else None for k, v in times.items()})
    out["run"] = run_times(p, stock_vmfb, fixes_vmfb, out, reps, calls)
    return out


def rewrote(report: str) -> list[str]:
    """The fixes the --fixes-report says rewrote something."""
    names = []
    for line in report.splitlines():
        parts = line.split()
        if len(parts) > 3 and line.startswith("  ") and " x " in line and not parts[0].startswith("'"):
            names.append(parts[0])
    return names


def succeeds(cmd, env) -> bool:
    import subprocess

    return subprocess.run(cmd, env=env, capture_output=True, check=False).returncode == 0


def run_times(p: Program, stock: Path, fixed: Path, out: dict, reps: int, calls: int) -> dict | None:
    """Median seconds of a call of each module, rounds interleaved; None without inputs or a stock module."""
    got = p.inputs()
    if got is None or out["baseline"] != "stock" or not stock.exists():
        return None
    if out["identical"]:
        return {"identical": True}
    function, inputs = got
    fns = {k: _function(v, function) for k, v in (("stock", stock), ("fixes", fixed))}
    times = {k: [] for k in fns}
    for _ in range(reps):
        for k, fn in fns.items():
            times[k].append(_median_call(lambda fn=fn: fn(*inputs), calls))
    return {k: min(v) for k, v in times.items()}


def _function(vmfb: Path, function: str):
    import iree.runtime as rt

    config = rt.Config("local-sync")
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.copy_buffer(config.vm_instance, vmfb.read_bytes()))
    return ctx.modules.module[function]


def _median_call(call, calls: int) -> float:
    call()
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def ratio(r: dict, key: str) -> str:
    if r.get("failed") or not r.get("iree"):
        return "n/a"
    return f"{r[key] / r['iree']:.3f}x"


def table(rows: list[dict]) -> str:
    def s(x):
        return "n/a" if x is None else f"{x:.2f} s"

    def run(r):
        t = r.get("run")
        if not t:
            return "n/a | n/a"
        if t.get("identical"):
            return "stock's module | 1.00x"
        return f"{t['stock'] * 1e3:.3f} / {t['fixes'] * 1e3:.3f} ms | {t['fixes'] / t['stock']:.2f}x"

    measured = [r for r in rows if not r.get("failed") and r.get("iree")]
    measured.sort(key=lambda r: r["served"] / r["iree"], reverse=True)
    others = [r for r in rows if r not in measured]
    lines = [
        "| program | baseline | iree-compile CPU | --fixes served CPU | ratio | --fixes cold CPU | ratio "
        "| fixes' own | iree-compile wall | served wall | stock's bytes | fixes that rewrote | run stock / --fixes | ratio |",
        "| --- | --- |" + " ---: |" * 8 + " --- | --- | ---: | ---: |",
    ]
    for r in measured:
        lines.append(
            f"| {r['name']} | {r['baseline']} | {s(r['iree'])} | {s(r['served'])} | {ratio(r, 'served')} "
            f"| {s(r['cold'])} | {ratio(r, 'cold')} | {s(r['fixes_own'])} | {s(r['iree_wall'])} "
            f"| {s(r['served_wall'])} | {'yes' if r['identical'] else 'no'} | {', '.join(r['rewrote']) or '-'} "
            f"| {run(r)} |"
        )
    for r in others:
        why = r.get("failed") or "stock fails even after the front door"
        lines.append(f"| {r['name']} | none: {why} |" + " |" * 12)
    if measured:
        total = {k: sum(r[k] for r in measured) for k in ("iree", "served", "cold", "fixes_own")}
        worst = measured[0]
        lines += [
            "",
            f"{len(measured)} programs with a baseline: served {total['served'] / total['iree']:.3f}x and cold "
            f"{total['cold'] / total['iree']:.3f}x iree-compile's CPU time in total; worst served "
            f"{ratio(worst, 'served')} ({worst['name']}); "
            f"{sum(1 for r in measured if r['served'] / r['iree'] <= 1.05)} of {len(measured)} within 1.05x served, "
            f"{sum(1 for r in measured if r['cold'] / r['iree'] <= 1.05)} cold; the fixes' own time "
            f"{total['fixes_own']:.2f} s in all; {sum(1 for r in measured if r['identical'])} modules stock's byte "
            "for byte.",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

"""The library-model corpus: compile time and CPU run time of ``opt-py compile --fixes``, stock and PyTorch.

Per model of test/library_models, side by side in one run, llvm-cpu:

* compile time, ``--reps`` interleaved rounds after a warm-up round, as
  process CPU time (user + system, every thread; wall times on this shared
  2-core machine vary by a third from run to run) and wall time:
  ``iree-compile`` against ``opt-py compile --fixes`` as a user runs it,
  served by the warm server (a server of the benchmark's own, in a runtime
  folder of its own: its CPU time is what the worker that ran the compile
  used, read off the server's reaped children, plus the client's), and cold
  (``OPT_PY_NO_SERVER=1``: the interpreter and its imports counted). Stock
  cannot compile the decoders as exported (its torch input conversion stops
  at ``torch.aten.diff``), so iree-compile compiles the export after the
  frontend fixes alone (``--fixes`` at ``start``, applied ahead by ``opt-py
  --pipeline``): IREE's own time for the program, against which ``--fixes``
  is what the fixes cost: their own time (the Python passes' time, as the
  served run's ``--fixes-report`` sums it) and IREE's time on the program
  they rewrote. In the warm-up round ``opt-py compile`` also stops
  where ``--fixes`` stops, with empty pipelines, and must give iree-compile's
  module byte for byte.
* run time: one call, median of ``--calls`` after a warm-up, of that stock
  module and of the ``--fixes`` module (``local-sync``, one thread, as
  PyTorch's ``torch.set_num_threads(1)``), and of the PyTorch module eager
  where torch, transformers and diffusers import (the ``models`` extra).

    python tools/bench_library_models.py [--reps N] [--calls N] [--models a,b]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from opt_py.bench.timing import environments, served_run, timed, wall

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "library_models"
FLAGS = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--models", default="", help="comma-separated models (default: all)")
    args = ap.parse_args()
    models = sorted(p.parent.name for p in CORPUS.glob("*/manifest.json"))
    if args.models:
        models = [m for m in models if m in args.models.split(",")]
    print("command: python tools/bench_library_models.py " + " ".join(sys.argv[1:]))
    print(
        "\n| model | iree-compile CPU | --fixes served CPU | ratio | the fixes' own | --fixes cold CPU | ratio "
        "| iree-compile wall | --fixes served wall | run stock | run --fixes | ratio "
        "| PyTorch eager | --fixes / PyTorch |"
    )
    print("| --- |" + " ---: |" * 13)
    keys = ("iree", "served", "python", "cold", "iree_wall", "served_wall")
    totals = dict.fromkeys(keys, 0.0)
    with tempfile.TemporaryDirectory() as tmp:
        envs = environments(Path(tmp))
        for name in models:
            c = compile_times(name, Path(tmp), args.reps, envs)
            if c["iree"] is not None:  # the totals over the models stock compiles
                for k in keys:
                    totals[k] += c[k]
            r = run_times(name, Path(tmp), args.calls)
            print(row(name, c, r), flush=True)
    t = totals
    print(
        f"| **total** | {t['iree']:.2f} s | {t['served']:.2f} s | {t['served'] / t['iree']:.3f}x | {t['python']:.2f} s "
        f"| {t['cold']:.2f} s | {t['cold'] / t['iree']:.3f}x | {t['iree_wall']:.2f} s | {t['served_wall']:.2f} s |"
    )
    return 0


def compile_times(name: str, tmp: Path, reps: int, envs: dict) -> dict:
    """Median seconds of each compile; leaves stock.vmfb and fixes.vmfb in ``tmp``."""
    from iree.compiler.tools.binaries import find_tool
    from opt_py.iree import fixes

    src = CORPUS / name / "model.mlir"
    start = [j.pipeline for j in fixes.injections(fixes.select("all"), FLAGS)[0] if j.phase == "start"]
    front = tmp / "front.mlir"
    opt_py = str(Path(sys.executable).parent / "opt-py")
    wall([opt_py, str(src), "-p", ",".join(start), "-o", str(front)])
    phases = [spec.split(":", 1)[0] for spec in fixes.specs("all", FLAGS)[0]]
    stops = [a for p in phases for a in ("--inject", f"{p}:builtin.module()")]
    served, cold = envs["served"], envs["cold"]
    iree = [find_tool("iree-compile"), str(front), "-o", str(tmp / "stock.vmfb"), *FLAGS]
    fixed = [opt_py, "compile", str(src), "--fixes", "--fixes-report", "-o", str(tmp / "fixes.vmfb"), *FLAGS]
    for stale in ("stock.vmfb", "stops.vmfb", "fixes.vmfb"):  # the previous model's
        (tmp / stale).unlink(missing_ok=True)
    # The warm-up round: the server starts (or is current); empty stops give stock's bytes.
    wall(fixed, served)
    stock = compiles(iree, served)  # stock may fail even after the front door: then no baseline
    if stock:
        wall([opt_py, "compile", str(front), "-o", str(tmp / "stops.vmfb"), *stops, *FLAGS], served)
        if (tmp / "stops.vmfb").read_bytes() != (tmp / "stock.vmfb").read_bytes():
            raise SystemExit(f"{name}: opt-py compile with empty stops is not byte-identical to iree-compile")
    times = {k: [] for k in ("iree", "iree_wall", "served", "served_wall", "cold", "python")}
    for _ in range(reps):
        if stock:
            run = timed(iree, served)
            times["iree_wall"].append(run.wall)
            times["iree"].append(run.cpu)
        run = served_run(fixed, served, envs["run"])
        times["served_wall"].append(run.wall)
        times["served"].append(run.cpu)
        times["python"].append(float(run.stderr.split("the fixes took ", 1)[1].split(" s ", 1)[0]))
        times["cold"].append(timed(fixed, cold).cpu)
    return {k: statistics.median(v) if v else None for k, v in times.items()}


def compiles(cmd, env) -> bool:
    """Whether a stock compile succeeds (a failure is a result here, not the benchmark's end)."""
    import subprocess

    return subprocess.run(cmd, env=env, capture_output=True, check=False).returncode == 0


def run_times(name: str, tmp: Path, calls: int) -> dict:
    """Median seconds of one call of each module, and of PyTorch eager where it imports."""
    d = CORPUS / name
    import json

    manifest = json.loads((d / "manifest.json").read_text())
    inputs = [np.load(d / f"input{i}.npy") for i in range(len(manifest["inputs"]))]
    out = {
        k: _call_time(tmp / f"{k}.vmfb", manifest["function"], inputs, calls) if (tmp / f"{k}.vmfb").exists() else None
        for k in ("stock", "fixes")
    }
    out["torch"] = _torch_time(name, inputs, calls)
    return out


def _call_time(vmfb: Path, function: str, inputs, calls: int) -> float:
    import iree.runtime as rt

    config = rt.Config("local-sync")
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.copy_buffer(config.vm_instance, vmfb.read_bytes()))
    fn = ctx.modules.module[function]
    return _median_call(lambda: fn(*inputs), calls)


def _torch_time(name: str, inputs, calls: int) -> float | None:
    try:
        import opt_py.corpus.library_models as lib
        import torch
    except ImportError:
        return None
    spec = next(s for s in lib.SPECS if s.name == name)
    torch.manual_seed(spec.seed)
    torch.set_num_threads(1)
    model = spec.build()[0].eval()
    args = [torch.from_numpy(np.array(a)) for a in inputs]
    with torch.no_grad():
        return _median_call(lambda: model(*args), calls)


def _median_call(call, calls: int) -> float:
    call()
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def row(name: str, c: dict, r: dict) -> str:
    def s(x):
        return "fails" if x is None else f"{x:.2f} s"

    def ms(x):
        return "n/a" if x is None else f"{x * 1e3:.2f} ms"

    def ratio(a, b, digits=2):
        return "n/a" if a is None or b is None else f"{a / b:.{digits}f}x"

    return (
        f"| {name} | {s(c['iree'])} | {s(c['served'])} | {ratio(c['served'], c['iree'], 3)} | {s(c['python'])} "
        f"| {s(c['cold'])} | {ratio(c['cold'], c['iree'], 3)} | {s(c['iree_wall'])} | {s(c['served_wall'])} "
        f"| {ms(r['stock'])} | {ms(r['fixes'])} | {ratio(r['fixes'], r['stock'])} "
        f"| {ms(r['torch'])} | {ratio(r['fixes'], r['torch'])} |"
    )


if __name__ == "__main__":
    sys.exit(main())

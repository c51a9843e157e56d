"""Compile CPU time of ``opt-py compile --fixes`` with opt-py's const-eval against with IREE's.

Per model of test/library_models, cold (a process per compile, as a build
system runs it: the interpreter and its imports counted), llvm-cpu:
``opt-py compile MODEL --fixes -o OUT`` as shipped (opt-py's const-eval, the
fixes inside) and the same with opt-py's const-eval declined (IREE's own
const-eval JIT, the fixes not inside), ``--reps`` interleaved rounds after a
warm-up round; the median of each. CPU is user + system time of the child
process, every thread; wall beside. The warm-up round of the shipped compile
also gives how many initializers opt-py evaluated and the wall time of its
parts (plan, the nested compile, the run, IREE's cleanup after it). Models
with nothing to evaluate are listed without timings (their const-eval is the
plan alone).

    python tools/bench_const_eval.py [--reps N] [--models a,b]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "library_models"
FLAGS = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]

# The child: ``opt-py compile`` in this interpreter; in mode "iree" opt-py's const-eval declines.
CHILD = """
import json, sys
mode, report = sys.argv[1], sys.argv[2]
from opt_py.iree import fixes
shipped, seen = fixes.const_eval_takeover, []
def takeover(fixes, flags, compile_to=None):
    if mode == "iree":
        return None, list(flags), []
    ours = shipped(fixes, flags, compile_to)
    seen.append(ours[0])
    return ours
fixes.const_eval_takeover = takeover
from opt_py.tool.cli import main
rc = main(sys.argv[3:])
if seen and seen[0] is not None:
    with open(report, "w") as f:
        json.dump({"evaluated": len(seen[0].evaluated), "seconds": seen[0].seconds}, f)
sys.exit(rc)
"""


def run(mode: str, model: Path, tmp: Path) -> tuple[float, float, dict]:
    """(CPU seconds, wall seconds, const-eval's report) of one cold compile; a failure ends the benchmark."""
    report = tmp / "report.json"
    report.unlink(missing_ok=True)
    cmd = [sys.executable, "-c", CHILD, mode, str(report), "compile", str(model), "--fixes", "-o", str(tmp / "m.vmfb")]
    env = dict(os.environ, OPT_PY_NO_SERVER="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([*cmd, *FLAGS], env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{model.parent.name} ({mode}) failed:\n{proc.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, json.loads(report.read_text()) if report.exists() else {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--models", default="", help="comma-separated models (default: the library corpus)")
    args = ap.parse_args()
    models = sorted(p.parent for p in CORPUS.glob("*/model.mlir"))
    if args.models:
        models = [m for m in models if m.name in args.models.split(",")]
    print(f"command: python tools/bench_const_eval.py {' '.join(sys.argv[1:])}")
    print(
        "\n| model | evaluated | IREE's const-eval CPU | opt-py's CPU | ratio | IREE's wall | opt-py's wall "
        "| opt-py's parts: plan / nested compile / run / cleanup |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    totals = [0.0, 0.0]
    with tempfile.TemporaryDirectory() as tmp:
        for model in models:
            _, _, warm = run("opt-py", model / "model.mlir", Path(tmp))
            if not warm.get("evaluated"):
                print(f"| {model.name} | 0 | | | | | | |", flush=True)
                continue
            times = {"iree": [], "opt-py": []}
            for _ in range(args.reps):
                for mode in times:
                    times[mode].append(run(mode, model / "model.mlir", Path(tmp))[:2])
            iree_cpu, ours_cpu = (statistics.median(c for c, _ in times[m]) for m in times)
            iree_wall, ours_wall = (statistics.median(w for _, w in times[m]) for m in times)
            totals[0] += iree_cpu
            totals[1] += ours_cpu
            s = warm["seconds"]
            parts = " / ".join(f"{s.get(k, 0.0):.2f}" for k in ("plan", "compile", "run", "cleanup"))
            print(
                f"| {model.name} | {warm['evaluated']} | {iree_cpu:.2f} s | {ours_cpu:.2f} s "
                f"| {ours_cpu / iree_cpu:.3f}x | {iree_wall:.2f} s | {ours_wall:.2f} s | {parts} s |",
                flush=True,
            )
    if totals[0]:
        print(f"| **total** | | {totals[0]:.2f} s | {totals[1]:.2f} s | {totals[1] / totals[0]:.3f}x | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

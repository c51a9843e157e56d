"""Compile time of ``opt-py compile --fixes`` against ``iree-compile`` on the real-model corpus.

Each model is compiled for llvm-cpu by the native iree-compile binary and by
the ``opt-py`` command with ``--fixes`` (cold: ``OPT_PY_NO_SERVER=1``, and
warm: through the warm server), interleaved, ``--reps`` rounds after one
warm-up round; medians per model, and the corpus total.

    python tools/bench_fixes.py [--reps N] [--models a,b] [--target cpu|cuda|rocm]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from benchlib import wall

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "models"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--models", default="", help="comma-separated corpus models (default: all)")
    ap.add_argument("--target", default="cpu", choices=["cpu", "cuda", "rocm"])
    args = ap.parse_args()

    from iree.compiler.tools.binaries import find_tool

    from opt_py.iree import e2e

    flags = list(e2e.TARGETS[args.target].compile_flags)
    models = sorted(p.parent.name for p in CORPUS.glob("*/manifest.json"))
    if args.models:
        models = [m for m in models if m in args.models.split(",")]
    opt_py = str(Path(sys.executable).parent / "opt-py")
    cold = dict(os.environ, OPT_PY_NO_SERVER="1")
    warm = {k: v for k, v in os.environ.items() if k != "OPT_PY_NO_SERVER"}
    print(f"command: python tools/bench_fixes.py --reps {args.reps} --target {args.target}"
          + (f" --models {args.models}" if args.models else ""))
    print(f"\n| model ({args.target}) | iree-compile | --fixes cold | ratio | --fixes warm | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    totals = {"iree": 0.0, "cold": 0.0, "warm": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "m.vmfb")
        for name in models:
            src = str(CORPUS / name / "model.mlir")
            variants = {
                "iree": ([find_tool("iree-compile"), src, "-o", out, *flags], cold),
                "cold": ([opt_py, "compile", src, "-o", out, "--fixes", *flags], cold),
                "warm": ([opt_py, "compile", src, "-o", out, "--fixes", *flags], warm),
            }
            times = {k: [] for k in variants}
            for rep in range(args.reps + 1):
                for k, (cmd, env) in variants.items():
                    dt = wall(cmd, env)
                    if rep:
                        times[k].append(dt)
            med = {k: statistics.median(v) for k, v in times.items()}
            for k in totals:
                totals[k] += med[k]
            print(f"| {name} | {med['iree']:.2f} s | {med['cold']:.2f} s | {med['cold'] / med['iree']:.2f}x | "
                  f"{med['warm']:.2f} s | {med['warm'] / med['iree']:.2f}x |", flush=True)
    print(f"| **corpus total** | {totals['iree']:.2f} s | {totals['cold']:.2f} s | {totals['cold'] / totals['iree']:.2f}x | "
          f"{totals['warm']:.2f} s | {totals['warm'] / totals['iree']:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

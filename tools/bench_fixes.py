"""Compile time of ``opt-py compile --fixes`` against ``iree-compile`` on the real-model corpus.

Each model is compiled for llvm-cpu by the native iree-compile binary and by
the ``opt-py`` command with ``--fixes`` (cold: ``OPT_PY_NO_SERVER=1``, and
warm: through the warm server), interleaved, ``--reps`` rounds after one
warm-up round; medians per model, and the corpus total.

Two more warm variants split the warm overhead in two: ``plain`` is ``opt-py
compile`` with nothing injected (the command itself: client, server, the
compile in process), ``stops`` stops at every phase ``--fixes`` stops at and
runs an empty pipeline there (opt-py's own overhead, the program unchanged;
its output is checked to be byte-identical to iree-compile's; the GPU targets'
codegen point is not in it). What ``--fixes``
costs beyond ``stops`` is IREE compiling the program the fixes changed.

    python tools/bench_fixes.py [--reps N] [--models a,b] [--target cpu|cuda|rocm]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from opt_py.bench.timing import wall

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "models"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--models", default="", help="comma-separated corpus models (default: all)")
    ap.add_argument("--target", default="cpu", choices=["cpu", "cuda", "rocm"])
    args = ap.parse_args()

    from iree.compiler.tools.binaries import find_tool
    from opt_py.execution import e2e
    from opt_py.iree import fixes

    flags = list(e2e.TARGETS[args.target].compile_flags)
    phase_specs, _ = fixes.specs("all", flags)
    stops = [a for spec in phase_specs for a in ("--inject", spec.split(":", 1)[0] + ":builtin.module()")]
    models = sorted(p.parent.name for p in CORPUS.glob("*/manifest.json"))
    if args.models:
        models = [m for m in models if m in args.models.split(",")]
    opt_py = str(Path(sys.executable).parent / "opt-py")
    cold = dict(os.environ, OPT_PY_NO_SERVER="1")
    warm = {k: v for k, v in os.environ.items() if k != "OPT_PY_NO_SERVER"}
    print(
        f"command: python tools/bench_fixes.py --reps {args.reps} --target {args.target}"
        + (f" --models {args.models}" if args.models else "")
    )
    print(
        f"\n| model ({args.target}) | iree-compile | plain warm | stops warm | --fixes cold | ratio "
        "| --fixes warm | ratio |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    totals = {"iree": 0.0, "plain": 0.0, "stops": 0.0, "cold": 0.0, "warm": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        out = {k: os.path.join(tmp, f"{k}.vmfb") for k in totals}
        for name in models:
            src = str(CORPUS / name / "model.mlir")
            variants = {
                "iree": ([find_tool("iree-compile"), src, "-o", out["iree"], *flags], cold),
                "plain": ([opt_py, "compile", src, "-o", out["plain"], *flags], warm),
                "stops": ([opt_py, "compile", src, "-o", out["stops"], *stops, *flags], warm),
                "cold": ([opt_py, "compile", src, "-o", out["cold"], "--fixes", *flags], cold),
                "warm": ([opt_py, "compile", src, "-o", out["warm"], "--fixes", *flags], warm),
            }
            times = {k: [] for k in variants}
            for rep in range(args.reps + 1):
                for k, (cmd, env) in variants.items():
                    dt = wall(cmd, env)
                    if rep:
                        times[k].append(dt)
            for k in ("plain", "stops"):  # injecting nothing must give exactly stock's module
                if Path(out[k]).read_bytes() != Path(out["iree"]).read_bytes():
                    raise SystemExit(f"{name}: 'opt-py compile' ({k}) is not byte-identical to iree-compile")
            med = {k: statistics.median(v) for k, v in times.items()}
            for k in totals:
                totals[k] += med[k]
            print(_row(name, med), flush=True)
    print(_row("**corpus total**", totals))
    return 0


def _row(name: str, t: dict) -> str:
    def x(k):
        return f"{t[k]:.2f} s ({t[k] / t['iree']:.2f}x)"

    return (
        f"| {name} | {t['iree']:.2f} s | {x('plain')} | {x('stops')} | {t['cold']:.2f} s | "
        f"{t['cold'] / t['iree']:.2f}x | {t['warm']:.2f} s | {t['warm'] / t['iree']:.2f}x |"
    )


if __name__ == "__main__":
    sys.exit(main())

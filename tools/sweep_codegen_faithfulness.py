"""Sweep: is --inject-codegen exactly stock when what it injects computes nothing new?

For every program in test/e2e/codegen_programs (or --programs), every target
(--targets), every injection point the program's codegen offers (every
splice position of every dispatch function; see
opt_py.iree.codegen_faithfulness.codegen_points), compile with a probe pipeline
injected there and compare the executable with stock. The default probe,
``test-touch``, adds an unused constant: the function changed, so it is
replayed after the point, and the executable must still be stock's, or the
point refused. ``--pipeline test-nothing`` changes nothing: such a function
is left to IREE whole, so every point is identical by construction.
Prints, per target: points tried, identical, different, refused, failed, and
each point that was not identical.

    python tools/sweep_codegen_faithfulness.py                 # the full sweep
    python tools/sweep_codegen_faithfulness.py --sample 3      # 3 points per program and target
    python tools/sweep_codegen_faithfulness.py --targets cpu --programs softmax,matmul

GPU targets compile without a GPU.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE.parent / "test" / "e2e" / "codegen_programs"


def sample_points(points: list[str], n: int) -> list[str]:
    """``n`` points spread evenly over the list, first and last included."""
    if n >= len(points):
        return points
    if n == 1:
        return [points[len(points) // 2]]
    return [points[round(i * (len(points) - 1) / (n - 1))] for i in range(n)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--targets", default="cpu,cuda,rocm")
    ap.add_argument("--programs", default="", help="comma-separated names (file stems); default all")
    ap.add_argument("--programs-dir", default=str(PROGRAMS))
    ap.add_argument("--sample", type=int, default=0, help="try only N points per program and target")
    ap.add_argument("--points", default="", help="comma-separated points to try instead of all")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every point as it is tried")
    ap.add_argument(
        "--pipeline",
        default="test-touch",
        choices=["test-touch", "test-nothing"],
        help="the probe injected at each point (default test-touch: checks the replay)",
    )
    args = ap.parse_args(argv)

    from opt_py.execution.e2e import TARGETS
    from opt_py.iree import codegen_faithfulness as cf

    cf.register_nothing()
    files = sorted(Path(args.programs_dir).glob("*.mlir"))
    if args.programs:
        wanted = set(args.programs.split(","))
        files = [f for f in files if f.stem in wanted]
    totals: dict[str, Counter] = {}
    bad: list[str] = []
    t0 = time.time()
    for target_name in args.targets.split(","):
        target = TARGETS[target_name]
        count = totals.setdefault(target_name, Counter())
        for f in files:
            stock, msgs = cf.compile_code(str(f), target)
            if stock is None:
                bad.append(f"{target_name} {f.stem}: stock compile fails: {msgs[-1] if msgs else '?'}")
                count["stock-fails"] += 1
                continue
            try:
                points = args.points.split(",") if args.points else cf.codegen_points(str(f), target)
            except Exception as e:  # noqa: BLE001 - reported, the sweep goes on
                bad.append(f"{target_name} {f.stem}: discovery: {e}")
                count["discovery-fails"] += 1
                continue
            if args.sample:
                points = sample_points(points, args.sample)
            for point in points:
                out = cf.check_point(str(f), target, point, stock, pipeline=args.pipeline)
                count["tried"] += 1
                count[out.kind] += 1
                line = f"{target_name} {f.stem} {point}: {out.kind}" + (f": {out.detail}" if out.detail else "")
                if args.verbose:
                    print(line, flush=True)
                if out.kind != "identical":
                    bad.append(line)
            print(f"# {target_name} {f.stem}: done ({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
    print("\nnot identical:" if bad else "\nevery point identical")
    for line in bad:
        print("  " + line)
    print(f"\n{'target':8} {'tried':>6} {'identical':>9} {'different':>9} {'refused':>8} {'failed':>7}")
    for t, c in totals.items():
        print(
            f"{t:8} {c['tried']:6d} {c['identical']:9d} {c['different']:9d} {c['refused']:8d} {c['failed']:7d}"
            + (f"   (stock fails: {c['stock-fails']})" if c["stock-fails"] else "")
            + (f"   (discovery fails: {c['discovery-fails']})" if c["discovery-fails"] else "")
        )
    print(f"({time.time() - t0:.0f} s)")
    return 1 if any(c["different"] or c["failed"] for c in totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

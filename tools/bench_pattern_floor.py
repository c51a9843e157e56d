"""Every pattern pass against its floor: the cost of one trivial Python rewrite per root op.

For each of opt-py's pattern passes, the cases of its lit file (or folder) that the pass
changes are replicated into one module (aliases printed inline, symbols
renamed per copy) until it holds about ``--roots`` of the pass's root ops.
Timed, interleaved, medians of ``--reps`` (pipeline time only, a fresh parse
each run): the pass, and the floor, a pattern pass with one pattern per root
name that re-creates each root op once (``register_floor_pass`` in python/bench/timing.py).
Both run as ``builtin.module(PASS)``, so both pay the same driver: the probe
clone and the dead-op keep-alive (python/run/rewrite_driver.py). The
ratio is issue 17's figure. Cases are taken with the pass's default options
(a case that changes only under a RUN line's options is left out), and
symbols are renamed per case and copy (quoted symbol names are not). ``ops added per root``: how many more ops the
module holds after the pass, per root op (the floor adds none); a rewrite that
builds many ops costs more than one re-created op, and this column says how
many more it builds.

    python tools/bench_pattern_floor.py [--roots 2000] [--reps 5] [--passes a,b]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from opt_py.bench.timing import pipeline_medians, register_floor_pass

ROOT = Path(__file__).resolve().parent.parent
LIT = ROOT / "test" / "lit" / "passes"


def pattern_passes():
    from opt_py.authoring import PatternPass
    from opt_py.pipeline.registry import BUILTIN_PASSES, builtin_pass

    return {n: builtin_pass(n) for n in sorted(BUILTIN_PASSES) if issubclass(builtin_pass(n), PatternPass)}


def lit_chunks(name: str) -> list[str]:
    """The ``// -----`` cases of the pass's lit tests: its file, or every file of its folder."""
    files = [LIT / f"{name}.mlir"] if (LIT / f"{name}.mlir").is_file() else sorted((LIT / name).glob("*.mlir"))
    return [chunk for f in files for chunk in f.read_text().split("// -----")]


def changed_cases(name: str) -> list[str]:
    """The lit cases ``name`` rewrites, each as the text of its top-level ops with no alias definitions."""
    from iree.compiler import ir
    from opt_py import run_pipeline
    from opt_py.run.engine import make_context

    ctx = make_context()
    cases = []
    for chunk in lit_chunks(name):
        with ctx, ir.Location.unknown():
            try:
                before = ir.Module.parse(chunk)
            except ir.MLIRError:
                continue  # an invalid-input case
            text = "\n".join(op.get_asm(use_local_scope=True, assume_verified=True) for op in before.body.operations)
            after = ir.Module.parse(chunk)
            try:
                run_pipeline(after, f"builtin.module({name})")
            except Exception:  # noqa: BLE001 - a case the pass refuses with an error
                continue
            if str(after) != str(ir.Module.parse(chunk)):
                cases.append(text)
    return cases


def replicate(cases: list[str], roots: set[str], want: int) -> tuple[str, int]:
    """Copies of ``cases`` (symbols suffixed per copy) holding at least ``want`` root ops, and how many."""
    per_round = sum(len(re.findall(r"\b(?:" + "|".join(map(re.escape, roots)) + r")\b", c)) for c in cases)
    copies = max(1, -(-want // max(per_round, 1)))
    body = [re.sub(r"@([A-Za-z_][\w$.]*)", rf"@\1_c{i}_{j}", c) for i in range(copies) for j, c in enumerate(cases)]
    return "\n".join(body), copies * per_round


def measure(name: str, cls, roots_wanted: int, reps: int):
    from iree.compiler import ir
    from opt_py.run.engine import make_context

    cases = changed_cases(name)
    if not cases:
        return None
    roots = {p.root for p in cls().patterns()}
    text, n_roots = replicate(cases, roots, roots_wanted)
    floor = f"builtin.module({register_floor_pass(sorted(roots), f'bench-floor-{name}')})"
    ops = {}

    def check(variant, module):
        ops[variant] = _count_ops(module.operation)

    ctx = make_context()
    with ctx, ir.Location.unknown():
        ops["input"] = _count_ops(ir.Module.parse(text).operation)
    times = pipeline_medians(text, {name: f"builtin.module({name})", "floor": floor}, reps, check, ctx)
    return n_roots, (ops[name] - ops["input"]) / n_roots, times[name], times["floor"]


def _count_ops(op) -> int:
    from iree.compiler import ir

    n = [0]

    def count(_):
        n[0] += 1
        return ir.WalkResult.ADVANCE

    op.walk(count)
    return n[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--roots", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--passes", default="", help="comma-separated pass names (default: every pattern pass)")
    args = ap.parse_args()
    passes = pattern_passes()
    if args.passes:
        passes = {n: c for n, c in passes.items() if n in args.passes.split(",")}
    print(
        f"command: python tools/bench_pattern_floor.py --roots {args.roots} --reps {args.reps}"
        + (f" --passes {args.passes}" if args.passes else "")
    )
    print("\n| pass | root ops | ops added per root | pass | floor | pass / floor |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, cls in passes.items():
        got = measure(name, cls, args.roots, args.reps)
        if got is None:
            print(f"| {name} | (no lit case it changes parses alone) | | | | |")
            continue
        n, added, t, f = got
        print(f"| {name} | {n} | {added:+.1f} | {t * 1e3:.1f} ms | {f * 1e3:.1f} ms | {t / f:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

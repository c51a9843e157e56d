"""Issue-29 figures: modules that write their own constants, stock IREE against opt-py's fixes.

``--cases N``: N random modules (python/cases/copy_tied_operand_through_barrier.py:
constants, globals and values reaching scatters, sorts, accumulating matmuls,
in-place generics and insert_slices through util/stablehlo optimization
barriers, unfoldable constants or nothing; several functions sharing equal
constants) compiled for llvm-cpu by stock IREE 3.13 and by ``opt-py compile
--fixes``, run by opt-py's worker (``opt_py.execution.worker``: loaded read-only
in a child process), every function called in turn three times in one
context, compared with numpy bit for bit. Each case's line is printed as it
finishes, the table at the end. ``--log FILE`` keeps each finished case (one
JSON line) and skips the cases it already holds: a run that was stopped goes
on where it was. IREE's own check files read-only: ``opt-py check [--fixes]
FILE.mlir``.

    nice -n 10 python tools/bench_copy_tied_operand_through_barrier.py --cases 500 [--seed S] [--jobs J] [--log FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor


def _pair(seed: int) -> tuple[int, str, str]:
    from opt_py.cases import copy_tied_operand_through_barrier as g

    case = g.random_case(seed)
    return seed, g.run(case, False), g.run(case, "fixes")


def table(rows: list[tuple[int, str, str]], jobs: int, seconds: float) -> int:
    """Print the stock vs --fixes table of ``rows`` and the cases not ok; 1 when --fixes is not
    ok somewhere stock compiles, or stock is ok and --fixes not."""
    from opt_py.cases import copy_tied_operand_through_barrier as g

    n = len(rows)
    stock = Counter(g.outcome_kind(r[1]) for r in rows)
    ours = Counter(g.outcome_kind(r[2]) for r in rows)
    barrier = sum(g.crosses_barrier(g.random_case(s)) for s, _, _ in rows)
    print(f"\n| {n} random modules, llvm-cpu, loaded read-only, 3 rounds | " + " | ".join(g.OUTCOMES) + " |")
    print("| --- | " + " | ".join(["---:"] * len(g.OUTCOMES)) + " |")
    print("| stock iree-compile 3.13 | " + " | ".join(str(stock[k]) for k in g.OUTCOMES) + " |")
    print("| opt-py compile --fixes | " + " | ".join(str(ours[k]) for k in g.OUTCOMES) + " |")
    print(f"\n({barrier} of {n} write a constant or shared value through a barrier; {seconds:.0f} s, {jobs} jobs)")
    for s, _, o in rows:
        if o != "ok":
            print(f"OPT-PY --FIXES NOT OK: {o}: {g.random_case(s).describe()}")
    regressions = sum(g.outcome_kind(st) == "ok" and o != "ok" for _, st, o in rows)
    print(f"(regressions, stock ok and --fixes not: {regressions})")
    return 1 if regressions or ours["wrong"] or ours["fault"] or ours["run error"] else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--log", help="a JSON-lines file of finished cases: kept, and read back to resume")
    args = ap.parse_args()
    print(f"command: python tools/bench_copy_tied_operand_through_barrier.py --cases {args.cases} --seed {args.seed}")
    seeds = range(args.seed, args.seed + args.cases)
    done = {r["seed"]: (r["seed"], r["stock"], r["fixes"]) for r in _logged(args.log) if r["seed"] in seeds}
    t0 = time.time()
    with ProcessPoolExecutor(args.jobs) as pool:
        for seed, stock, ours in pool.map(_pair, [s for s in seeds if s not in done]):
            done[seed] = (seed, stock, ours)
            print(f"seed {seed}: stock {stock[:160]} | --fixes {ours[:160]}", flush=True)
            if args.log:
                with open(args.log, "a") as f:
                    f.write(json.dumps({"seed": seed, "stock": stock, "fixes": ours}) + "\n")
    return table([done[s] for s in seeds], args.jobs, time.time() - t0)


def _logged(path: str | None) -> list[dict]:
    if not path or not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


if __name__ == "__main__":
    sys.exit(main())

"""Issue-14 figures: stock IREE against opt-py's fixes on random scatter programs.

N random scatter programs (python/cases/scatter.py: one_hot, index_put and
index_add into zero fills, splats, arguments and earlier results, static,
dynamic and mixed dims, some returning a destination beside its scatter)
compiled for llvm-cpu by stock iree-compile 3.13 and by ``opt-py compile
--fixes`` (every fix; for these programs clone-splat-dispatch-per-tied-use and
copy-shared-tied-operand at the end of the flow phase), run through
iree-run-module and compared with numpy, bit for bit.

    python tools/bench_scatter.py [--cases N] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter


def _outcome(s: str) -> str:
    return "error" if s.startswith("error") else s


def main() -> int:
    from opt_py.cases import scatter as sc

    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"command: python tools/bench_scatter.py --cases {args.cases} --seed {args.seed}\n")
    rows = []
    t0 = time.time()
    for case in sc.cases(args.seed, args.cases):
        rows.append((case, sc.run(case, False), sc.run(case, "fixes")))
    stock = Counter(_outcome(r[1]) for r in rows)
    ours = Counter(_outcome(r[2]) for r in rows)
    print(f"| {args.cases} random scatter programs, llvm-cpu | numbers equal numpy | wrong numbers | error |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| stock iree-compile 3.13 | {stock['ok']} | {stock['wrong']} | {stock['error']} |")
    print(f"| opt-py compile --fixes | {ours['ok']} | {ours['wrong']} | {ours['error']} |")
    print(f"\n({time.time() - t0:.0f} s)")
    for case, s, o in rows:
        if s != "ok":
            print(f"stock {s}, opt-py --fixes {o}: {case.describe()}")
    for case, _s, o in rows:
        if o != "ok":
            print(f"OPT-PY --FIXES NOT OK: {o}: {case.describe()}")
    return 0 if ours["ok"] == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())

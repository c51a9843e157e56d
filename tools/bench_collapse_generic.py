"""The figures docs/passes/fold-collapse-shape-into-generic.md gives for its random cases.

1. The 48 random generics (each followed by a collapse_shape): how many the
   pass folds and how many it refuses, and among the folded how many
   delinearize a linalg.index, have dynamic dims, fold partially or fold the
   expand mirror.
2. The 24 matmul -> expand_shape -> generic cases, against IREE's C++
   iree-dispatch-creation-sink-reshapes: which each folds.

Counts on the IR only (the pass run on each case alone); that the folded
programs compute the same numbers is test/passes/test_fold_collapse_shape_into_generic.py,
which asserts these same counts.

    python tools/bench_collapse_generic.py
"""

from __future__ import annotations

import sys


def main() -> int:
    from opt_py.cases import fold_collapse_shape_into_generic as cg

    stats = cg.fold_stats(cg.random_cases())
    print(
        f"{cg.N_RANDOM} random generics (seed {cg.RANDOM_SEED}): {stats['folded']} fold, {stats['kept']} are refused; "
        f"of the folded: linalg.index {stats['index']}, dynamic {stats['dynamic']}, "
        f"partial {stats['partial']}, expand mirror {stats['mirror']}"
    )
    counts = cg.mirror_counts(cg.mirror_table(cg.mirror_cases()))
    print(
        f"{cg.N_MIRROR} matmul -> expand -> generic cases (seed {cg.MIRROR_SEED}) against {cg.CXX}: "
        f"both fold {counts['both']}, only opt-py {len(counts['only opt-py'])} {counts['only opt-py']}, "
        f"only C++ {len(counts['only C++'])} {counts['only C++']}, neither {counts['neither']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

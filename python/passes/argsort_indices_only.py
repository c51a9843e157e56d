"""argsort-indices-only: an argsort keeping only the indices sorts them alone (no copy of the values)."""

from dataclasses import dataclass

from ..authoring import STACK, Fix, PatternPass
from ..patterns.argsort_indices_only import sort_indices_only


@dataclass(frozen=True)
class ArgsortIndicesOnly(PatternPass):
    name = "argsort-indices-only"
    anchor = "any"
    summary = (
        "Sort only the indices of an iree_linalg_ext.sort of values and an iota whose values are unused, "
        "the comparator reading the values through them (no private copy of the values on the CPU stack)"
    )
    # CPU only, and held back: on static rows stock compiles it is 0.39x-1.56x stock's time (its page). After
    # sort-slice-to-topk (its top-k forms beat a sort where they apply; this takes what it leaves), before
    # dispatch creation puts the values in a read-only binding. GPUs: sort-drop-unused-results.
    fix = Fix(
        "an argsort keeping only the indices (torch.sort(x)[1]) over a dynamic or long row: "
        "IREE copies the values to the stack, unbounded or over its limit",
        phase="global-optimization",
        targets=("cpu",),
        ops=("iree_linalg_ext.sort",),
        failure=STACK,
        after="sort-slice-to-topk",
    )

    def patterns(self):
        return [sort_indices_only]

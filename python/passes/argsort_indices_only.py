"""argsort-indices-only: an argsort keeping only the indices sorts them alone (no copy of the values)."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.argsort_indices_only import sort_indices_only


@dataclass(frozen=True)
class ArgsortIndicesOnly(PatternPass):
    name = "argsort-indices-only"
    anchor = "any"
    summary = (
        "Sort only the indices of an iree_linalg_ext.sort of values and an iota whose values are unused, "
        "the comparator reading the values through them (no private copy of the values on the CPU stack)"
    )

    def patterns(self):
        return [sort_indices_only]

"""arg-compare-dynamic-as-generic: an arg_compare over a dynamic dim is written as its linalg.generic reduction."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.arg_compare_dynamic_as_generic import arg_compare_as_generic


@dataclass(frozen=True)
class ArgCompareDynamicAsGeneric(PatternPass):
    name = "arg-compare-dynamic-as-generic"
    anchor = "any"
    summary = (
        "Write an iree_linalg_ext.arg_compare (torch.argmax / argmin) over a dynamic dim as a linalg.generic "
        "reduction of value and index (IREE's GPU partial-reduction tiling of arg_compare mis-sizes a dynamic tile)"
    )

    def patterns(self):
        return [arg_compare_as_generic]

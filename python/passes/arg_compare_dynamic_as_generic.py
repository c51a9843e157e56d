"""arg-compare-dynamic-as-generic: an arg_compare over a dynamic dim is written as its linalg.generic reduction."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.arg_compare_dynamic_as_generic import arg_compare_as_generic


@dataclass(frozen=True)
class ArgCompareDynamicAsGeneric(PatternPass):
    name = "arg-compare-dynamic-as-generic"
    anchor = "any"
    summary = (
        "Write an iree_linalg_ext.arg_compare (torch.argmax / argmin) over a dynamic dim as a linalg.generic "
        "reduction of value and index (IREE's GPU partial-reduction tiling of arg_compare mis-sizes a dynamic tile)"
    )
    # GPU only: on the CPU stock tiles the arg_compare right; before dispatch creation, where IREE's torch frontend
    # has made the arg_compare and no codegen has tiled it.
    fix = Fix(
        "torch.argmax / argmin over a dynamic dim (CLIP's text pooling) fails for GPUs: IREE's partial-reduction "
        "tiling of arg_compare mis-sizes the last tile ('size mismatch'); the same reduction as a linalg.generic",
        phase="global-optimization",
        targets=("cuda", "rocm"),
        ops=("iree_linalg_ext.arg_compare",),
    )

    def patterns(self):
        return [arg_compare_as_generic]

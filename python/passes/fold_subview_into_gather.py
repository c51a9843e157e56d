"""fold-subview-into-gather: memref.subview bases of vector.gather fold into the gather."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.fold_subview_into_gather import fold_subview_into_gather

# What IREE's vectorizer makes a vector.gather of, as a dispatch has it before its code generation: a
# tensor.extract in a generic's body, a gather op; vector.gather itself, should a dispatch carry one.
GATHER_SOURCES = ("tensor.extract", "tensor.gather", "iree_linalg_ext.gather", "vector.gather")


@dataclass(frozen=True)
class FoldSubviewIntoGather(PatternPass):
    name = "fold-subview-into-gather"
    anchor = "any"
    summary = "Fold a memref.subview base into vector.gather (offsets and strides composed with affine.apply)"
    fix = Fix(
        "subviews fold-memref-alias-ops cannot fold into a gather (wrong reads on CUDA)",
        codegen={
            "cuda": "before:iree-codegen-fold-memref-alias-ops",
            "rocm": "before:iree-codegen-fold-memref-alias-ops",
        },
        ops=GATHER_SOURCES,
    )

    def patterns(self):
        return [fold_subview_into_gather]

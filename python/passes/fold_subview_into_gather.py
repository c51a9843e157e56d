"""fold-subview-into-gather: memref.subview bases of vector.gather fold into the gather."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.fold_subview_into_gather import fold_subview_into_gather


@dataclass(frozen=True)
class FoldSubviewIntoGather(PatternPass):
    name = "fold-subview-into-gather"
    anchor = "any"
    summary = "Fold a memref.subview base into vector.gather (offsets and strides composed with affine.apply)"

    def patterns(self):
        return [fold_subview_into_gather]

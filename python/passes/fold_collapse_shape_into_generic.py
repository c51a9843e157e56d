"""fold-collapse-shape-into-generic: reshapes folded into linalg.generic by collapsing its loops."""

from dataclasses import dataclass

from ..authoring import PatternPass, option
from ..patterns.fold_collapse_shape_into_generic import fold_collapse_shape_into_generic, fold_expand_shape_into_generic


@dataclass(frozen=True)
class FoldCollapseShapeIntoGeneric(PatternPass):
    name = "fold-collapse-shape-into-generic"
    anchor = "any"
    summary = (
        "Fold tensor.collapse_shape of a linalg.generic result (and tensor.expand_shape of a generic "
        "input) into the generic by collapsing its iteration space"
    )
    expand: bool = option(True, "also fold tensor.expand_shape feeding a generic input")
    partial: bool = option(True, "fold the groups that qualify when others do not (a smaller reshape stays)")

    def patterns(self):
        pats = [fold_collapse_shape_into_generic.bind(partial=self.partial)]
        if self.expand:
            pats.append(fold_expand_shape_into_generic.bind(partial=self.partial))
        return pats

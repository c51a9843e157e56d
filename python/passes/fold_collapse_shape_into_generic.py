"""fold-collapse-shape-into-generic: reshapes folded into linalg.generic by collapsing its loops."""

from dataclasses import dataclass

from ..authoring import WORKGROUP_MEMORY, Fix, PatternPass, option
from ..patterns.fold_collapse_shape_into_generic import fold_collapse_shape_into_generic, fold_expand_shape_into_generic


@dataclass(frozen=True)
class FoldCollapseShapeIntoGeneric(PatternPass):
    name = "fold-collapse-shape-into-generic"
    anchor = "any"
    summary = (
        "Fold tensor.collapse_shape of a linalg.generic result (and tensor.expand_shape of a generic "
        "input) into the generic by collapsing its iteration space"
    )
    # GPU only, and held back: the fusion it unblocks keeps a dispatch within a GPU's workgroup memory, where
    # the program overflows it; elsewhere it rewrites what stock compiles and runs well (a BERT ran slower on an
    # H200). On the CPU no faster, and IREE compiles the rewritten program slower (its page has the figures).
    fix = Fix(
        "reshapes between generics that block fusion, where a dispatch overflows workgroup memory",
        phase="global-optimization",
        targets=("cuda", "rocm"),
        ops=("linalg.generic", "tensor.collapse_shape"),
        failure=WORKGROUP_MEMORY,
    )
    expand: bool = option(True, "also fold tensor.expand_shape feeding a generic input")
    partial: bool = option(True, "fold the groups that qualify when others do not (a smaller reshape stays)")

    def patterns(self):
        pats = [fold_collapse_shape_into_generic.bind(partial=self.partial)]
        if self.expand:
            pats.append(fold_expand_shape_into_generic.bind(partial=self.partial))
        return pats

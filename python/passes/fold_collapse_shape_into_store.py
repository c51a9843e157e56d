"""fold-collapse-shape-into-store: reshapes folded into IREE dispatch bindings."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass, option
from ..patterns.fold_collapse_shape_into_store import (
    copy_unfoldable_collapse_before_store,
    fold_collapse_shape_into_store,
    fold_expand_shape_into_load,
)


@dataclass(frozen=True)
class FoldCollapseShapeIntoStore(PatternPass):
    name = "fold-collapse-shape-into-store"
    anchor = "any"
    summary = (
        "Fold tensor.collapse_shape into the dispatch.tensor.store that writes it (and expand_shape "
        "of a whole-binding load into the load) by retyping the binding"
    )
    fix = Fix(
        "IREE's reshape-into-store fold writes to wrong addresses",
        phase="executable-sources",
        ops=("iree_tensor_ext.dispatch.tensor.store", "tensor.expand_shape"),
    )
    loads: bool = option(True, "also fold expand_shape of a whole-binding dispatch.tensor.load")
    guard: bool = option(True, "copy a collapse whose fold cannot be proven, hiding it from IREE's C++ fold")

    def patterns(self):
        pats = [fold_collapse_shape_into_store]
        if self.guard:
            pats.append(copy_unfoldable_collapse_before_store)
        if self.loads:
            pats.append(fold_expand_shape_into_load)
        return pats

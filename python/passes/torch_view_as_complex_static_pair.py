"""torch-view-as-complex-static-pair: torch.view_as_complex of a tensor whose last dim is dynamic, typed with
that dim 2 (IREE's bitcast lowering mis-sizes the dynamic form)."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.torch_view_as_complex_static_pair import view_as_complex_static_pair


@dataclass(frozen=True)
class TorchViewAsComplexStaticPair(PatternPass):
    name = "torch-view-as-complex-static-pair"
    anchor = "func.func"
    summary = (
        "Type the last dim of torch.view_as_complex's input as 2 (the only size torch takes) where it is "
        "dynamic: IREE's bitcast lowering gives the dynamic form one result size too many"
    )

    def patterns(self):
        return [view_as_complex_static_pair]

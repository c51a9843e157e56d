"""torch-view-as-complex-static-pair: torch.view_as_complex of a tensor whose last dim is dynamic, typed with
that dim 2 (IREE's bitcast lowering mis-sizes the dynamic form)."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_view_as_complex_static_pair import view_as_complex_static_pair


@dataclass(frozen=True)
class TorchViewAsComplexStaticPair(PatternPass):
    name = "torch-view-as-complex-static-pair"
    anchor = "func.func"
    summary = (
        "Type the last dim of torch.view_as_complex's input as 2 (the only size torch takes) where it is "
        "dynamic: IREE's bitcast lowering gives the dynamic form one result size too many"
    )
    # On the module as parsed: IREE's torch frontend lowers view_as_complex (torch-iree-bitcast-tensor) before
    # any pass of its own could type the pair.
    fix = Fix(
        "torch.view_as_complex of a tensor whose last dim is dynamic (every dim of an export dynamic) fails "
        "IREE's bitcast lowering (one result size too many): the last dim typed 2, the only size torch takes",
        phase="start",
        ops=("torch.aten.view_as_complex",),
    )

    def patterns(self):
        return [view_as_complex_static_pair]

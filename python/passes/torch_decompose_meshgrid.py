"""torch-decompose-meshgrid: an unpacked torch.aten.meshgrid, which IREE's torch frontend types as non-value
tensors, as views expanded."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_meshgrid import decompose_meshgrid, decompose_meshgrid_indexing


@dataclass(frozen=True)
class TorchDecomposeMeshgrid(PatternPass):
    name = "torch-decompose-meshgrid"
    anchor = "func.func"
    summary = (
        "Write an unpacked torch.aten.meshgrid (IREE's frontend recomposes it into untyped !torch.tensor ops) "
        "as each input viewed along its dim and expanded, typed as value tensors"
    )
    # On the module as parsed: IREE's frontend recomposes an unpacked meshgrid into untyped !torch.tensor ops
    # (torch-recompose-complex-ops, its first torch pass).
    fix = Fix(
        "torch.meshgrid fails IREE's torch frontend (untyped !torch.tensor results; vision models' coordinate "
        "grids): each grid a view of its input expanded",
        phase="start",
        ops=("torch.aten.meshgrid", "torch.aten.meshgrid.indexing"),
    )

    def patterns(self):
        return [decompose_meshgrid, decompose_meshgrid_indexing]

"""torch-prims-prod-as-prod-dim: torch.prims.prod, which torch-mlir cannot lower, as torch.aten.prod.dim_int."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_prims_prod_as_prod_dim import prims_prod_as_prod_dim


@dataclass(frozen=True)
class TorchPrimsProdAsProdDim(PatternPass):
    name = "torch-prims-prod-as-prod-dim"
    anchor = "func.func"
    summary = (
        "Write torch.prims.prod over constant dims (no torch-mlir lowering) as a chain of "
        "torch.aten.prod.dim_int, one per dim, in the input's float dtype"
    )
    fix = Fix(
        "torch.prims.prod has no lowering (failed to legalize): a chain of torch.aten.prod.dim_int over "
        "its dims, the same float dtype",
        phase="start",
        ops=("torch.prims.prod",),
    )

    def patterns(self):
        return [prims_prod_as_prod_dim]

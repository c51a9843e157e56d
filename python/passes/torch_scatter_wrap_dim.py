"""torch-scatter-wrap-dim: scatters with a negative dim, on which torch-mlir's lowering crashes, given dim + rank."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_scatter_wrap_dim import PATTERNS


@dataclass(frozen=True)
class TorchScatterWrapDim(PatternPass):
    name = "torch-scatter-wrap-dim"
    anchor = "func.func"
    summary = (
        "Give torch.aten.scatter*, scatter_add and scatter_reduce with a negative constant dim the wrapped "
        "dim + rank, as torch wraps it (torch-mlir's scatter lowering indexes with dim as given and crashes)"
    )
    fix = Fix(
        "a scatter with a negative dim crashes torch-mlir's lowering (PhiMoE's router): dim + rank, as torch wraps it",
        phase="start",
        ops=(
            "torch.aten.scatter.reduce",
            "torch.aten.scatter.src",
            "torch.aten.scatter.value",
            "torch.aten.scatter.value_reduce",
            "torch.aten.scatter_add",
            "torch.aten.scatter_reduce.two",
        ),
    )

    def patterns(self):
        return PATTERNS

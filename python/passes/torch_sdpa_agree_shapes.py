"""torch-sdpa-agree-shapes: scaled_dot_product_attention's operand and result types made to agree for its lowering."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_sdpa_agree_shapes import agree_shapes


@dataclass(frozen=True)
class TorchSdpaAgreeShapes(PatternPass):
    name = "torch-sdpa-agree-shapes"
    anchor = "func.func"
    summary = (
        "Give scaled_dot_product_attention's query, key, value, mask and result the static sizes one of them "
        "proves, and a lower-rank mask the query's rank: torch-mlir's lowering takes them to agree"
    )
    fix = Fix(
        "scaled_dot_product_attention whose q, k, v, mask and result differ in which sizes are static, or whose "
        "mask has a lower rank, fails torch-mlir's lowering: the static sizes one proves, the mask unsqueezed",
        phase="start",
        ops=("torch.aten.scaled_dot_product_attention",),
    )

    def patterns(self):
        return [agree_shapes]

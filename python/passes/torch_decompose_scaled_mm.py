"""torch-decompose-scaled-mm: torch.aten._scaled_mm with tensor-wise or row-wise scales, which torch-mlir cannot
lower to linalg, as PyTorch's CPU kernel computes it in f32."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_scaled_mm import decompose_scaled_mm


@dataclass(frozen=True)
class TorchDecomposeScaledMM(PatternPass):
    name = "torch-decompose-scaled-mm"
    anchor = "func.func"
    summary = (
        "Write torch.aten._scaled_mm (no linalg lowering) with tensor-wise or row-wise f32 scales as "
        "PyTorch's CPU kernel computes it: operands in f32 times their scales, an f32 matmul, out_dtype"
    )
    fix = Fix(
        "torch.aten._scaled_mm has no linalg lowering (fp8 inference): operands in f32 times their "
        "tensor-wise or row-wise scales, an f32 matmul, as PyTorch's CPU kernel",
        phase="start",
        ops=("torch.aten._scaled_mm",),
    )

    def patterns(self):
        return [decompose_scaled_mm]

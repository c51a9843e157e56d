"""torch-decompose-rms-norm: torch.aten.rms_norm with a weight of dynamic shape, which torch-mlir leaves
undecomposed, written as ATen's composite computes it."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_rms_norm import decompose_rms_norm


@dataclass(frozen=True)
class TorchDecomposeRmsNorm(PatternPass):
    name = "torch-decompose-rms-norm"
    anchor = "func.func"
    summary = (
        "Write torch.aten.rms_norm whose weight has a dynamic size (left undecomposed by torch-mlir) as "
        "x * rsqrt(mean(x^2) + eps) in the op-math dtype, rounded, times the weight"
    )
    fix = Fix(
        "torch.aten.rms_norm (torch.nn.RMSNorm, F.rms_norm) with a weight of dynamic shape is left undecomposed "
        "by torch-mlir and fails ('torch.constant.int'): x * rsqrt(mean(x^2) + eps) * weight, as ATen computes it",
        phase="start",
        ops=("torch.aten.rms_norm",),
    )

    def patterns(self):
        return [decompose_rms_norm]

"""torch-instance-norm-half-as-f32: an f16/bf16 torch.aten.instance_norm, whose statistics IREE's frontend
accumulates in the input's dtype, computed in f32 and rounded once, as PyTorch computes it."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_instance_norm_half_as_f32 import instance_norm_half_as_f32


@dataclass(frozen=True)
class TorchInstanceNormHalfAsF32(PatternPass):
    name = "torch-instance-norm-half-as-f32"
    anchor = "func.func"
    summary = (
        "Write an f16/bf16 torch.aten.instance_norm (statistics from the input) as the same norm of the "
        "input, weight and bias converted to f32, the result rounded once to the dtype"
    )
    fix = Fix(
        "f16/bf16 instance_norm is wrong in IREE (its decomposition accumulates the mean and variance in the "
        "dtype; PyTorch computes in f32): computed in f32 and rounded once",
        phase="start",
        ops=("torch.aten.instance_norm",),
    )

    def patterns(self):
        return [instance_norm_half_as_f32]

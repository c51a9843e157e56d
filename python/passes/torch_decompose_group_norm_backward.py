"""torch-decompose-group-norm-backward: torch.aten.native_group_norm_backward, which IREE's frontend has no
lowering for, as reshapes, sums and broadcasting arithmetic, as PyTorch defines its three gradients."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_group_norm_backward import decompose_group_norm_backward


@dataclass(frozen=True)
class TorchDecomposeGroupNormBackward(PatternPass):
    name = "torch-decompose-group-norm-backward"
    anchor = "func.func"
    summary = (
        "Write torch.aten.native_group_norm_backward (f32/f64, constant N, C, HxW, group and output_mask) as "
        "sums over [N, group, C/group, HxW] and broadcasting arithmetic: grad_input, grad_weight, grad_bias"
    )
    fix = Fix(
        "torch.aten.native_group_norm_backward (group norm's gradients) has no lowering in IREE's frontend and "
        "fails ('torch.constant.bool'): reshapes, sums and broadcasting arithmetic, as PyTorch defines it",
        phase="start",
        ops=("torch.aten.native_group_norm_backward",),
    )

    def patterns(self):
        return [decompose_group_norm_backward]

"""torch-decompose-reflection-pad3d: torch.aten.reflection_pad3d (and aten.pad "reflect" over three dims),
which torch-mlir cannot lower to linalg, as flipped slices concatenated."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_reflection_pad3d import decompose_pad_reflect, decompose_reflection_pad3d


@dataclass(frozen=True)
class TorchDecomposeReflectionPad3d(PatternPass):
    name = "torch-decompose-reflection-pad3d"
    anchor = "func.func"
    summary = (
        "Write torch.aten.reflection_pad3d and aten.pad(mode='reflect') with six constant pads (no linalg "
        "lowering) as flipped slices concatenated, one dim at a time"
    )
    # On the module as parsed: IREE's frontend turns aten.pad "reflect" with six pads into reflection_pad3d.
    fix = Fix(
        "torch.aten.reflection_pad3d has no linalg lowering (F.pad 'reflect' on 5-d tensors, Conv3d with "
        "padding_mode='reflect': video autoencoders): flipped slices concatenated",
        phase="start",
        ops=("torch.aten.reflection_pad3d", "torch.aten.pad"),
    )

    def patterns(self):
        return [decompose_reflection_pad3d, decompose_pad_reflect]

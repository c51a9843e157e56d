"""torch-decompose-reflection-pad3d: torch.aten.reflection_pad3d (and aten.pad "reflect" over three dims),
which torch-mlir cannot lower to linalg, as flipped slices concatenated."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.torch_decompose_reflection_pad3d import decompose_pad_reflect, decompose_reflection_pad3d


@dataclass(frozen=True)
class TorchDecomposeReflectionPad3d(PatternPass):
    name = "torch-decompose-reflection-pad3d"
    anchor = "func.func"
    summary = (
        "Write torch.aten.reflection_pad3d and aten.pad(mode='reflect') with six constant pads (no linalg "
        "lowering) as flipped slices concatenated, one dim at a time"
    )

    def patterns(self):
        return [decompose_reflection_pad3d, decompose_pad_reflect]

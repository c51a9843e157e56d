"""torch-clip-as-clamp: torch.aten.clip and clip.Tensor, which torch-mlir does not know, as the clamp they alias."""

from dataclasses import dataclass

from ..authoring import TORCH_OPERATOR, Fix, PatternPass
from ..patterns.torch_clip_as_clamp import clip_as_clamp


@dataclass(frozen=True)
class TorchClipAsClamp(PatternPass):
    name = "torch-clip-as-clamp"
    anchor = "func.func"
    summary = (
        "Write torch.aten.clip and clip.Tensor (aliases of clamp that torch-mlir does not know) as "
        "torch.aten.clamp and clamp.Tensor with the same operands"
    )
    fix = Fix(
        "torch.clip is unknown to torch-mlir (torch-mlir's IouOfModule_basic): the clamp it aliases",
        phase="start",
        ops=TORCH_OPERATOR,
    )

    def patterns(self):
        return [clip_as_clamp]

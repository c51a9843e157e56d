"""torch-clamp-convert-input: clamps whose input has another dtype than the result (an integer clamped by a
float), which torch-mlir's lowering compares unconverted, on the input converted first, as torch does."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_clamp_convert_input import (
    convert_clamp_input,
    convert_clamp_max_input,
    convert_clamp_min_input,
    convert_clamp_min_tensor_input,
    convert_clamp_tensor_input,
)


@dataclass(frozen=True)
class TorchClampConvertInput(PatternPass):
    name = "torch-clamp-convert-input"
    anchor = "func.func"
    summary = (
        "Convert the input of torch.aten.clamp, clamp_min, clamp_max, clamp.Tensor and clamp_min.Tensor to the "
        "result's dtype where torch promotes it (an integer clamped by a float), as torch computes"
    )
    # After torch-clip-as-clamp: a clip of an integer by a float becomes a clamp this pass then converts
    # (the ops are read again after a fix ran).
    fix = Fix(
        "torch.clamp of an integer or bool tensor by float bounds (or of mixed dtypes) fails IREE's torch "
        "lowering, which compares the input unconverted: the input converted to the result's dtype first",
        phase="start",
        ops=(
            "torch.aten.clamp",
            "torch.aten.clamp_min",
            "torch.aten.clamp_max",
            "torch.aten.clamp.Tensor",
            "torch.aten.clamp_min.Tensor",
        ),
        after="torch-clip-as-clamp",
    )

    def patterns(self):
        return [
            convert_clamp_input,
            convert_clamp_min_input,
            convert_clamp_max_input,
            convert_clamp_tensor_input,
            convert_clamp_min_tensor_input,
        ]

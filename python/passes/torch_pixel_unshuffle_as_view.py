"""torch-pixel-unshuffle-as-view: torch.aten.pixel_unshuffle with dynamic spatial sizes as view, permute, reshape."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_pixel_unshuffle_as_view import pixel_unshuffle_as_view


@dataclass(frozen=True)
class TorchPixelUnshuffleAsView(PatternPass):
    name = "torch-pixel-unshuffle-as-view"
    anchor = "func.func"
    summary = (
        "Write torch.aten.pixel_unshuffle as PyTorch defines it, a view [..., C, H/r, r, W/r, r], a permute "
        "and a reshape, sizes from aten.size.int where dynamic"
    )
    fix = Fix(
        "torch.aten.pixel_unshuffle with dynamic spatial sizes fails to lower (tensor.collapse_shape expected "
        "a static dimension): view, permute and reshape as PyTorch defines it",
        phase="start",
        ops=("torch.aten.pixel_unshuffle",),
    )

    def patterns(self):
        return [pixel_unshuffle_as_view]

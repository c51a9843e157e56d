"""torch-index-put-bool-mask: torch.aten.index_put with a bool mask index, which IREE fails on where the
selected count has a static length or a None precedes the mask, as a select or as integer indices."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_index_put_bool_mask import mask_as_positions, mask_put_as_where


@dataclass(frozen=True)
class TorchIndexPutBoolMask(PatternPass):
    name = "torch-index-put-bool-mask"
    anchor = "func.func"
    summary = (
        "Write torch.aten.index_put with a bool mask as where(mask, values, x) where the values broadcast over "
        "the selection, or with the mask as the integer indices of its first L true elements where the count "
        "has a static length L"
    )
    # On the module as parsed: IREE's frontend turns the mask into nonzero and a scatter.
    fix = Fix(
        "index_put with a bool mask fails IREE where the selected count has a static length (x[mask] = feats, "
        "a mask beside an integer index) or a None precedes the mask: a select, or the mask's positions",
        phase="start",
        ops=("torch.aten.index_put",),
    )

    def patterns(self):
        return [mask_put_as_where, mask_as_positions]

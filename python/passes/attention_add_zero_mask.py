"""attention-add-zero-mask: attention over a dynamic key length, given a mask so that IREE pads it right."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.attention_add_zero_mask import add_zero_mask


@dataclass(frozen=True)
class AttentionAddZeroMask(PatternPass):
    name = "attention-add-zero-mask"
    anchor = "any"
    summary = (
        "Give an iree_linalg_ext.attention without a mask over a dynamic key length a mask of zeros "
        "(IREE's GPU code pads the keys and masks the padding only through a mask)"
    )
    # GPU only: on the CPU stock is right without a mask, and the mask would cost a little.
    fix = Fix(
        "attention over a dynamic key length without a mask (nn.MultiheadAttention, "
        "a TransformerEncoder): wrong numbers on GPUs, the padded keys unmasked",
        phase="global-optimization",
        targets=("cuda", "rocm"),
        ops=("iree_linalg_ext.attention",),
    )

    def patterns(self):
        return [add_zero_mask]

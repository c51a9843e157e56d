"""torch-sdpa-masked-rows-zero: attention rows a mask hides from every key are 0, as in PyTorch, not NaN."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_sdpa_masked_rows_zero import fully_masked_rows_zero


@dataclass(frozen=True)
class TorchSdpaMaskedRowsZero(PatternPass):
    name = "torch-sdpa-masked-rows-zero"
    anchor = "func.func"
    summary = (
        "Compute scaled_dot_product_attention with fully masked rows unmasked and give those rows 0 times "
        "their output (0, or NaN where torch's is NaN): IREE's attention gives them NaN, torch 0"
    )
    # On the module as parsed: the mask is still the one torch passed (IREE's frontend folds it into the
    # attention op's own i1 mask).
    fix = Fix(
        "scaled_dot_product_attention rows a mask hides from every key: NaN from IREE's attention, 0 in torch; "
        "computed unmasked and given 0 times their output",
        phase="start",
        ops=("torch.aten.scaled_dot_product_attention",),
        after="torch-sdpa-agree-shapes",  # which makes the operand types agree first
    )

    def patterns(self):
        return [fully_masked_rows_zero]

"""torch-decompose-histc: torch.aten.histc, which torch-mlir cannot lower, as comparisons and a sum."""

from dataclasses import dataclass

from ..authoring import TORCH_OPERATOR, Fix, PatternPass
from ..patterns.torch_decompose_histc import decompose_histc


@dataclass(frozen=True)
class TorchDecomposeHistc(PatternPass):
    name = "torch-decompose-histc"
    anchor = "func.func"
    summary = (
        "Write torch.aten.histc (no torch-mlir lowering) with constant bins and bounds as its CPU kernel "
        "bins each element, in the dtype, then one-hot comparisons summed"
    )
    fix = Fix(
        "torch.aten.histc has no lowering (transformers' default MoE experts count tokens per expert): "
        "comparisons and a sum, binned as torch's CPU kernel",
        phase="start",
        ops=TORCH_OPERATOR,
    )

    def patterns(self):
        return [decompose_histc]

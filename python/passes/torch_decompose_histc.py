"""torch-decompose-histc: torch.aten.histc, which torch-mlir cannot lower, as comparisons and a sum."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.torch_decompose_histc import decompose_histc


@dataclass(frozen=True)
class TorchDecomposeHistc(PatternPass):
    name = "torch-decompose-histc"
    anchor = "func.func"
    summary = (
        "Write torch.aten.histc (no torch-mlir lowering) with constant bins and bounds as its CPU kernel "
        "bins each element, in the dtype, then one-hot comparisons summed"
    )

    def patterns(self):
        return [decompose_histc]

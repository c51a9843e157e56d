"""torch-decompose-conv-tbc: torch.aten.conv_tbc, whose torch-mlir decomposition types its result (O, T', B),
as a convolution between permutes."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_conv_tbc import decompose_conv_tbc


@dataclass(frozen=True)
class TorchDecomposeConvTbc(PatternPass):
    name = "torch-decompose-conv-tbc"
    anchor = "func.func"
    summary = (
        "Write torch.aten.conv_tbc as the input permuted to (B, C, T), the weight to (O, C, K), "
        "aten.convolution with padding pad and the bias, and the result permuted back to (T', B, O)"
    )
    # On the module as parsed: IREE's torch frontend decomposes conv_tbc itself (typing its convolution with the
    # op's (T', B, O) type) before any pass of its own could.
    fix = Fix(
        "torch.aten.conv_tbc fails IREE's frontend where its result's sizes differ (torch-mlir's decomposition "
        "types the result (O, T', B)): a convolution between permutes",
        phase="start",
        ops=("torch.aten.conv_tbc",),
    )

    def patterns(self):
        return [decompose_conv_tbc]

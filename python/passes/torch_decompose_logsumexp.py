"""torch-decompose-logsumexp: torch.aten.logsumexp, which neither torch-mlir nor IREE lowers, as PyTorch decomposes it."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_logsumexp import decompose_logsumexp


@dataclass(frozen=True)
class TorchDecomposeLogsumexp(PatternPass):
    name = "torch-decompose-logsumexp"
    anchor = "func.func"
    summary = (
        "Write torch.aten.logsumexp (no torch-mlir lowering) as torch._refs.logsumexp computes it: "
        "log(sum(exp(x - m))) + m, m the max where finite, in the input's dtype"
    )
    fix = Fix(
        "torch.aten.logsumexp has no lowering (its constants fail IREE's input conversion): "
        "written as torch._refs.logsumexp decomposes it",
        phase="start",
        ops=("torch.aten.logsumexp",),
    )

    def patterns(self):
        return [decompose_logsumexp]

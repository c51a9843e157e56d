"""torch-decompose-cross-entropy-loss: torch.aten.cross_entropy_loss with class-index targets, which IREE's
frontend fails on, as log_softmax, a gather, a mask and the reduction."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_cross_entropy_loss import decompose_cross_entropy_loss


@dataclass(frozen=True)
class TorchDecomposeCrossEntropyLoss(PatternPass):
    name = "torch-decompose-cross-entropy-loss"
    anchor = "func.func"
    summary = (
        "Write torch.aten.cross_entropy_loss (si64 class indices, no weights, no label smoothing) as "
        "log_softmax, the targets' log-probabilities gathered, ignore_index masked, then none, sum or mean"
    )
    # On the module as parsed: IREE's torch frontend decomposes cross_entropy_loss itself, into a
    # torch.prim.NumToTensor.Scalar it then fails to legalize, before any pass of its own could.
    fix = Fix(
        "torch.aten.cross_entropy_loss fails IREE's frontend (torch.prim.NumToTensor.Scalar left by its "
        "decomposition): log_softmax, a gather and the reduction, with ignore_index masked, as PyTorch",
        phase="start",
        ops=("torch.aten.cross_entropy_loss",),
    )

    def patterns(self):
        return [decompose_cross_entropy_loss]

"""torch-decompose-xlogy: torch.aten.xlogy.Tensor, which torch-mlir cannot lower, as PyTorch defines it."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_xlogy import decompose_xlogy


@dataclass(frozen=True)
class TorchDecomposeXlogy(PatternPass):
    name = "torch-decompose-xlogy"
    anchor = "func.func"
    summary = (
        "Write torch.aten.xlogy.Tensor (no torch-mlir lowering) as PyTorch defines it: NaN where y is, "
        "0 where x == 0, else x * log(y), in the promoted dtype"
    )
    fix = Fix(
        "torch.aten.xlogy.Tensor has no lowering (wav2vec2-style codebook perplexity, entropies): NaN where y "
        "is, 0 where x == 0, else x * log(y), as PyTorch defines it",
        phase="start",
        ops=("torch.aten.xlogy.Tensor",),
    )

    def patterns(self):
        return [decompose_xlogy]

"""torch-decompose-weight-norm: torch.aten._weight_norm, which torch-mlir has no op for, as PyTorch defines it."""

from dataclasses import dataclass

from ..authoring import TORCH_OPERATOR, Fix, PatternPass
from ..patterns.torch_decompose_weight_norm import decompose_weight_norm, decompose_weight_norm_interface


@dataclass(frozen=True)
class TorchDecomposeWeightNorm(PatternPass):
    name = "torch-decompose-weight-norm"
    anchor = "func.func"
    summary = (
        "Write torch.aten._weight_norm (no torch-mlir op; weight-normalized convolutions of speech encoders) and "
        "_weight_norm_interface "
        "as v * (g / the 2-norm of v over every dim but dim)"
    )
    fix = Fix(
        "torch.aten._weight_norm has no torch-mlir op (wav2vec2, HuBERT, WavLM: their weight-normalized "
        "positional convolution; aten._weight_norm_interface decomposes mistyped): v * (g / norm_except_dim(v, 2, "
        "dim)), as PyTorch defines it",
        phase="start",
        ops=(*TORCH_OPERATOR, "torch.aten._weight_norm_interface"),
    )

    def patterns(self):
        return [decompose_weight_norm, decompose_weight_norm_interface]

"""torch-decompose-gelu-tanh: torch.aten.gelu(approximate="tanh"), which torch-mlir lowers with a wrong
constant, written out with PyTorch's."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_gelu_tanh import decompose_gelu_tanh


@dataclass(frozen=True)
class TorchDecomposeGeluTanh(PatternPass):
    name = "torch-decompose-gelu-tanh"
    anchor = "func.func"
    summary = (
        'Write torch.aten.gelu(approximate="tanh") (torch-mlir lowers it with 0.7977240 for sqrt(2/pi)) '
        "as PyTorch computes it, 0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))), for f32 and f64"
    )
    # On the module as parsed: torch-mlir's TorchToLinalg writes gelu(tanh) with its own constant.
    fix = Fix(
        'torch.aten.gelu(approximate="tanh") lowered with 0.7977240 for sqrt(2/pi) (Gemma\'s gelu_pytorch_tanh): '
        "wrong numbers; written out as PyTorch computes it",
        phase="start",
        ops=("torch.aten.gelu",),
    )

    def patterns(self):
        return [decompose_gelu_tanh]

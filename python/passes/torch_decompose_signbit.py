"""torch-decompose-signbit: torch.aten.signbit and copysign.Tensor of floats, whose decomposition IREE's torch
frontend makes after its bitcast lowering ran, decomposed before it."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.torch_decompose_signbit import decompose_copysign, decompose_signbit


@dataclass(frozen=True)
class TorchDecomposeSignbit(PatternPass):
    name = "torch-decompose-signbit"
    anchor = "func.func"
    summary = (
        "Write torch.aten.signbit and copysign.Tensor of floats as view.dtype to the signed int of the "
        "width < 0 on the module as parsed, where IREE's bitcast lowering still sees the view.dtype"
    )

    def patterns(self):
        return [decompose_signbit, decompose_copysign]

"""torch-decompose-signbit: torch.aten.signbit and copysign.Tensor of floats, whose decomposition IREE's torch
frontend makes after its bitcast lowering ran, decomposed before it."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_signbit import decompose_copysign, decompose_signbit


@dataclass(frozen=True)
class TorchDecomposeSignbit(PatternPass):
    name = "torch-decompose-signbit"
    anchor = "func.func"
    summary = (
        "Write torch.aten.signbit and copysign.Tensor of floats as view.dtype to the signed int of the "
        "width < 0 on the module as parsed, where IREE's bitcast lowering still sees the view.dtype"
    )
    # On the module as parsed: IREE lowers view.dtype in torch-iree-bitcast-tensor, which runs before
    # torch-mlir's decomposition of signbit makes one.
    fix = Fix(
        "torch.signbit and torch.copysign of floats fail IREE's torch frontend (their view.dtype is made after "
        "IREE's bitcast lowering ran): the same decomposition, made first",
        phase="start",
        ops=("torch.aten.signbit", "torch.aten.copysign.Tensor"),
    )

    def patterns(self):
        return [decompose_signbit, decompose_copysign]

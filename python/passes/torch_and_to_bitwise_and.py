"""torch-and-to-bitwise-and: torch.aten.__and__.Tensor, which torch-mlir cannot lower, as bitwise_and.Tensor."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_and_to_bitwise_and import and_to_bitwise_and


@dataclass(frozen=True)
class TorchAndToBitwiseAnd(PatternPass):
    name = "torch-and-to-bitwise-and"
    anchor = "func.func"
    summary = (
        "Write torch.aten.__and__.Tensor (no torch-mlir lowering) as torch.aten.bitwise_and.Tensor, "
        "its operands converted to the result's dtype as torch does"
    )
    fix = Fix(
        "torch.aten.__and__.Tensor has no linalg lowering (transformers' masks): bitwise_and.Tensor",
        phase="start",
        ops=("torch.aten.__and__.Tensor",),
    )

    def patterns(self):
        return [and_to_bitwise_and]

"""torch-xor-to-bitwise-xor: torch.aten.__xor__.Tensor, which torch-mlir does not define, as bitwise_xor.Tensor."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.torch_xor_to_bitwise_xor import xor_to_bitwise_xor


@dataclass(frozen=True)
class TorchXorToBitwiseXor(PatternPass):
    name = "torch-xor-to-bitwise-xor"
    anchor = "func.func"
    summary = (
        "Write torch.aten.__xor__.Tensor (a torch.operator: torch-mlir has no such op) as "
        "torch.aten.bitwise_xor.Tensor, its operands converted to the result's dtype as torch does"
    )

    def patterns(self):
        return [xor_to_bitwise_xor]

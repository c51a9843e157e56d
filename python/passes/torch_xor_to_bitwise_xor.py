"""torch-xor-to-bitwise-xor: torch.aten.__xor__.Tensor, which torch-mlir does not define, as bitwise_xor.Tensor."""

from dataclasses import dataclass

from ..authoring import TORCH_OPERATOR, Fix, PatternPass
from ..patterns.torch_xor_to_bitwise_xor import xor_to_bitwise_xor


@dataclass(frozen=True)
class TorchXorToBitwiseXor(PatternPass):
    name = "torch-xor-to-bitwise-xor"
    anchor = "func.func"
    summary = (
        "Write torch.aten.__xor__.Tensor (a torch.operator: torch-mlir has no such op) as "
        "torch.aten.bitwise_xor.Tensor, its operands converted to the result's dtype as torch does"
    )
    fix = Fix(
        "torch.aten.__xor__.Tensor is not a torch-mlir op (a ^ b on tensors, a torch.operator): bitwise_xor.Tensor",
        phase="start",
        ops=TORCH_OPERATOR,
    )

    def patterns(self):
        return [xor_to_bitwise_xor]

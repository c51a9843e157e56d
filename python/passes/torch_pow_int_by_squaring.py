"""torch-pow-int-by-squaring: integer torch.aten.pow.Tensor_Tensor, which torch-mlir cannot lower, by squaring."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_pow_int_by_squaring import pow_int_by_squaring


@dataclass(frozen=True)
class TorchPowIntBySquaring(PatternPass):
    name = "torch-pow-int-by-squaring"
    anchor = "func.func"
    summary = (
        "Write torch.aten.pow.Tensor_Tensor on signed integers (no torch-mlir lowering) as exponentiation by "
        "squaring over the exponent's bits, wrapping as torch's kernel; negative exponents as torch"
    )
    fix = Fix(
        "torch.aten.pow.Tensor_Tensor on integer tensors has no lowering (non-floating point dtype): "
        "exponentiation by squaring in the dtype, exact as PyTorch's integer kernel",
        phase="start",
        ops=("torch.aten.pow.Tensor_Tensor",),
    )

    def patterns(self):
        return [pow_int_by_squaring]

"""torch-bitwise-convert-operands: a ui8 operand of a wider bitwise op zero-extended first, as torch does."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_bitwise_convert_operands import (
    convert_and_operands,
    convert_or_dunder_operands,
    convert_or_operands,
    convert_xor_operands,
)


@dataclass(frozen=True)
class TorchBitwiseConvertOperands(PatternPass):
    name = "torch-bitwise-convert-operands"
    anchor = "func.func"
    summary = (
        "Convert the operands of a mixed-dtype bitwise_or/and/xor (or __or__) to the result's dtype first "
        "(torch.prims.convert_element_type): torch-mlir's lowering sign-extends a ui8 operand and refuses an "
        "8-bit result from another dtype"
    )
    # After the & and ^ fixes, which make the bitwise ops it converts the operands of.
    fix = Fix(
        "a bitwise or/and/xor of a ui8 and a wider integer sign-extends the ui8 (ui8 | si32: -56 for 200), and "
        "bool | ui8 aborts the compile: the operands converted to the result's dtype first",
        phase="start",
        ops=(
            "torch.aten.__or__.Tensor",
            "torch.aten.bitwise_or.Tensor",
            "torch.aten.bitwise_and.Tensor",
            "torch.aten.bitwise_xor.Tensor",
        ),
        after="torch-xor-to-bitwise-xor",
    )

    def patterns(self):
        return [convert_or_dunder_operands, convert_or_operands, convert_and_operands, convert_xor_operands]

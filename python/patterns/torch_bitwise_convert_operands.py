"""Bitwise ops on mixed integer dtypes: the operands converted to the result's dtype first, as torch does.

Root cause. torch-mlir's linalg lowering of ``bitwise_or/and/xor.Tensor``
(``__or__.Tensor`` canonicalizes into ``bitwise_or``) converts each operand
to the result's element type inside the body with ``convertScalarToDtype``
and no source dtype: a ui8 operand is sign-extended (``ui8 | si32`` is -56
where torch gives 200, silently), and an 8-bit result from another dtype
(``bool | ui8``) is refused, aborting IREE's compile.

``convert_operands`` converts such an operand first with
``torch.prims.convert_element_type`` (what ``.to`` exports; its lowering
carries the source's signedness) and writes the op on operands of the
result's dtype: torch's own ``bitwise_*`` (both operands converted to
``torch.result_type``, then combined); ``as_bitwise`` (torch-and-to-bitwise-and)
does the rewrite and its checks. Left alone, with the reason: no operand the
lowering converts wrongly (a signed or bool operand widened is right); an
unranked operand or result; a result that is not bool or an integer of
``torch_ir``'s table; a result dtype that is not torch's promotion.
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_and_to_bitwise_and import as_bitwise
from .torch_ir import ranked_refusal, vtensor

# The op as written -> the ATen op torch calls (``__or__`` is ``bitwise_or``).
BITWISE = {
    "torch.aten.__or__.Tensor": "torch.aten.bitwise_or.Tensor",
    "torch.aten.bitwise_or.Tensor": "torch.aten.bitwise_or.Tensor",
    "torch.aten.bitwise_and.Tensor": "torch.aten.bitwise_and.Tensor",
    "torch.aten.bitwise_xor.Tensor": "torch.aten.bitwise_xor.Tensor",
}


def miscast(dtype: str, result: str) -> bool:
    """Whether torch-mlir's conversion of an operand of ``dtype`` into ``result`` inside the op is wrong
    (a ui8 sign-extended) or refused (an 8-bit result from another dtype)."""
    return dtype != result and (dtype == "ui8" or result in ("ui8", "si8"))


def convert_operands(op, rewriter):
    """``op`` with an operand its lowering would convert wrongly converted first (one function, four roots)."""
    op = op.operation
    types = [vtensor(v.type) for v in (*op.operands, op.results[0])]
    refusal = ranked_refusal("an operand or the result", types)
    if refusal is not None:
        return rewriter.fail(refusal)
    at, bt, rt = types
    if not (miscast(at.dtype, rt.dtype) or miscast(bt.dtype, rt.dtype)):
        return rewriter.fail(
            f"{at.dtype}, {bt.dtype} -> {rt.dtype}: no ui8 operand widened, no 8-bit result converted into"
        )
    return as_bitwise(op, rewriter, BITWISE[op.name])


convert_or_dunder_operands = pattern("torch.aten.__or__.Tensor", name="convert_or_dunder_operands")(convert_operands)
convert_or_operands = pattern("torch.aten.bitwise_or.Tensor", name="convert_or_operands")(convert_operands)
convert_and_operands = pattern("torch.aten.bitwise_and.Tensor", name="convert_and_operands")(convert_operands)
convert_xor_operands = pattern("torch.aten.bitwise_xor.Tensor", name="convert_xor_operands")(convert_operands)

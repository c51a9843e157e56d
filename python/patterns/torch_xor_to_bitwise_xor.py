"""Patterns on ``torch.aten.__xor__.Tensor``: the same op spelled ``bitwise_xor.Tensor``, which has a lowering.

``a ^ b`` on tensors exports as ``aten.__xor__.Tensor``, an op torch-mlir
does not define: it imports as ``torch.operator "torch.aten.__xor__.Tensor"``
and fails IREE's input conversion (``failed to legalize operation
'torch.operator'``; opt-py's fuzz campaign, bool masks combined with ``^``).
``__or__.Tensor`` is defined and canonicalized into ``bitwise_or``, so only
``^`` (and ``&``: torch-and-to-bitwise-and) fails.

In PyTorch ``__xor__(a, b)`` is ``bitwise_xor(a, b)``: both operands
converted to ``torch.result_type(a, b)``, then xor-ed, with broadcasting.
``xor_to_bitwise_xor`` writes ``bitwise_xor.Tensor`` with the same result
type, an operand of another dtype converted first, exactly as
torch-and-to-bitwise-and does for ``&`` (``as_bitwise``, shared).

Left alone, with the reason: another ``torch.operator``; not two operands
and one result; an unranked operand or result; a result that is neither bool
nor an integer of ``torch_ir``'s table (torch raises for floats); a result
dtype that is not torch's promotion of the operands'.
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .torch_and_to_bitwise_and import as_bitwise

XOR = "torch.aten.__xor__.Tensor"


@pattern("torch.operator")
def xor_to_bitwise_xor(op, rewriter):
    op = op.operation
    if ir.StringAttr(op.attributes["name"]).value != XOR:
        return rewriter.fail(f"not {XOR}")
    if len(op.operands) != 2 or len(op.results) != 1:
        return rewriter.fail("not (tensor, tensor) -> tensor")
    return as_bitwise(op, rewriter, "torch.aten.bitwise_xor.Tensor")

"""Patterns on ``torch.aten.__and__.Tensor``: the same op spelled ``bitwise_and.Tensor``, which has a lowering.

``a & b`` on tensors exports as ``aten.__and__.Tensor``; torch-mlir lowers
``aten.bitwise_and.Tensor`` but not ``__and__`` (it canonicalizes ``__or__``
into ``bitwise_or`` and has no twin for ``__and__``), so IREE's input
conversion fails on every transformers decoder's mask.

In PyTorch the two are one function: both operands converted to
``torch.result_type(a, b)`` (0-d operands count only from a higher
category), then and-ed. ``and_to_bitwise_and`` converts an operand of
another dtype first (``torch_ir.convert``: torch-mlir's own conversion inside
``bitwise_and`` sign-extends ui8 and refuses si8/ui8 results), then writes
``bitwise_and.Tensor`` with the same result type.

Left alone, with the reason: an unranked operand or result, a result that is
neither bool nor an integer of ``torch_ir``'s table (torch raises for floats;
ui16 and wider unsigned are not in it), and a result dtype that is not
torch's promotion of the operands'.
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import INTEGERS, convert, create, ranked_refusal, result_type, vtensor


@pattern("torch.aten.__and__.Tensor")
def and_to_bitwise_and(op, rewriter):
    return as_bitwise(op.operation, rewriter, "torch.aten.bitwise_and.Tensor")


def as_bitwise(op, rewriter, name: str):
    """``op(a, b)``, torch's ``a & b`` or ``a ^ b``, written as the ATen op ``name`` it calls (shared with
    torch-xor-to-bitwise-xor): the operands converted to the result's dtype, which must be torch's promotion."""
    a, b = op.operands
    at, bt, rt = vtensor(a.type), vtensor(b.type), vtensor(op.results[0].type)
    refusal = ranked_refusal("an operand or the result", (at, bt, rt))
    if refusal is not None:
        return rewriter.fail(refusal)
    if rt.dtype not in ("i1", *INTEGERS):
        return rewriter.fail(f"a {rt.dtype} result: not bool nor an integer of the promotion table (torch_ir)")
    if result_type([at, bt]) != rt.dtype:
        return rewriter.fail(f"the result's dtype {rt.dtype} is not torch's promotion of {at.dtype} and {bt.dtype}")
    with rewriter.ip, op.location:
        operands = [convert(a, at, rt.dtype), convert(b, bt, rt.dtype)]
        new = create(name, [op.results[0].type], operands)
    rewriter.replace_op(op, new)
    return True

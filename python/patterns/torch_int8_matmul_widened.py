"""Patterns on ``torch.aten.mm``, ``bmm`` and ``matmul`` of 8-bit integers: the same product computed in si32 and
converted back, which torch-mlir lowers.

torch-mlir's ``ConvertTorchToLinalg`` crashes (SIGSEGV) on a matrix product
whose operands and result are ``si8`` or ``ui8`` (torch-mlir's e2e
``AtenMmInt8Types_basic``, ``AtenMmInt8ZeroK_basic``; ``bmm`` and ``matmul``
alike), where it lowers ``si16``, ``si32`` and ``si64``.

``matmul_widened`` converts both operands to ``si32``, multiplies there and
converts the result back to the 8-bit dtype. Exact: torch's integer product
wraps modulo 2^8 (its kernel accumulates in the operand type), and modulo 2^8
a sum of products does not depend on how the operands were extended nor on
the wider accumulator, so truncating the si32 product gives torch's bits.

Left alone, with the reason: an operand or result that is not a ranked value
tensor; operands and result not all of one 8-bit integer dtype (mixed or
quantized products go other ways).
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import convert, create, ranked_refusal, vtensor

NARROW = ("si8", "ui8")
WIDE = "si32"


def _widened(op, rewriter):
    op = op.operation
    a, b = op.operands
    ta, tb, tr = vtensor(a.type), vtensor(b.type), vtensor(op.results[0].type)
    refusal = ranked_refusal("an operand or the result", [ta, tb, tr])
    if refusal is not None:
        return rewriter.fail(refusal)
    if not (ta.dtype == tb.dtype == tr.dtype and tr.dtype in NARROW):
        return rewriter.fail(f"not an 8-bit integer product ({ta.dtype} x {tb.dtype} -> {tr.dtype})")
    with rewriter.ip, op.location:
        wide = create(op.name, [tr.with_dtype(WIDE).ir_type()], [convert(a, ta, WIDE), convert(b, tb, WIDE)])
        out = convert(wide.result, tr.with_dtype(WIDE), tr.dtype)
    rewriter.replace_op(op, [out])
    return True


@pattern("torch.aten.mm")
def mm_widened(op, rewriter):
    return _widened(op, rewriter)


@pattern("torch.aten.bmm")
def bmm_widened(op, rewriter):
    return _widened(op, rewriter)


@pattern("torch.aten.matmul")
def matmul_widened(op, rewriter):
    return _widened(op, rewriter)

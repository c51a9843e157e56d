"""Integer floor division computed in integers, as torch does, not through f32.

Root cause. torch-mlir lowers ``torch.aten.div.Tensor_mode(a, b, "floor")`` on
integer tensors (what ``a // b``, ``torch.floor_divide`` and
``torch.div(..., rounding_mode="floor")`` export as, or decompose into) as
``fptosi(floor(sitofp(a) / sitofp(b)))`` in f32: exact only while the operands
fit f32's 24-bit significand. Beyond it the quotient is rounded before the
floor (``(2^63 - 2) // 2^30`` gives 2^33, torch 2^33 - 1). Wrong numbers, no
diagnostic; its "trunc" mode lowers to ``arith.divsi`` and is right.

``floor_divide_in_integers`` converts both operands to the result's dtype
(torch's common dtype) and writes torch's own definition: q = a / b
truncated (``div.Tensor_mode "trunc"``), r = a - q * b (exact, |q * b| <=
|a|), and q - 1 where r != 0 and r, b differ in sign. The ``.Scalar`` forms
take the scalar as a 0-d si64 tensor. Left alone: results of 8 or 16 bits
(f32 holds every such quotient exactly), float or unknown dtypes, modes other
than "floor", unranked tensors. Division by zero, which torch refuses, and
INT_MIN / -1, which torch's CPU kernel traps on, give what IREE's ``divsi``
gives instead of trapping.
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .torch_ir import (
    VTensor,
    constant_str,
    convert,
    create,
    int_constant,
    ranked_refusal,
    result_type,
    vtensor,
)

# Integer results f32 cannot hold exactly: torch-mlir's float lowering is wrong for some of their values.
WIDE = ("si32", "si64")


def _refusal(op, operand_types, mode: str | None) -> str | None:
    rt = vtensor(op.results[0].type)
    refusal = ranked_refusal("an operand or the result", (*operand_types, rt))
    if refusal is not None:
        return refusal
    if mode != "floor":
        return f"rounding mode {mode!r}: only 'floor' goes through f32"
    if rt.dtype not in WIDE:
        return f"a {rt.dtype} result: f32 holds every such quotient exactly (only si32, si64 are rewritten)"
    if result_type(list(operand_types)) != rt.dtype:
        names = " and ".join(t.dtype for t in operand_types)
        return f"the result's dtype {rt.dtype} is not torch's promotion of {names}"
    return None


def _scalar_tensor(value):
    """A ``!torch.int`` as a 0-d si64 tensor (``torch.prim.NumToTensor.Scalar``)."""
    return create("torch.prim.NumToTensor.Scalar", [VTensor((), "si64").ir_type()], [value]).result


def _floor_divide(a, at: VTensor, b, bt: VTensor, rt: VTensor):
    """torch's integer floor division of a by b (both converted to ``rt``'s dtype), typed ``rt``."""
    a, b = convert(a, at, rt.dtype), convert(b, bt, rt.dtype)
    bt = bt.with_dtype(rt.dtype)
    full, flags = rt.ir_type(), rt.with_dtype("i1").ir_type()
    one, zero = int_constant(1), int_constant(0)
    trunc = create("torch.constant.str", [ir.Type.parse("!torch.str")], [], {"value": ir.StringAttr.get("trunc")})
    q = create("torch.aten.div.Tensor_mode", [full], [a, b, trunc.result]).result
    qb = create("torch.aten.mul.Tensor", [full], [q, b]).result
    r = create("torch.aten.sub.Tensor", [full], [a, qb, one]).result
    inexact = create("torch.aten.ne.Scalar", [flags], [r, zero]).result
    r_negative = create("torch.aten.lt.Scalar", [flags], [r, zero]).result
    b_negative = create("torch.aten.lt.Scalar", [bt.with_dtype("i1").ir_type()], [b, zero]).result
    signs_differ = create("torch.aten.ne.Tensor", [flags], [r_negative, b_negative]).result
    down = create("torch.aten.logical_and", [flags], [inexact, signs_differ]).result
    q_minus_one = create("torch.aten.sub.Scalar", [full], [q, one, one]).result
    return create("torch.aten.where.self", [full], [down, q_minus_one, q])


@pattern("torch.aten.div.Tensor_mode")
def div_floor_in_integers(op, rewriter):
    op = op.operation
    a, b, mode = op.operands
    at, bt = vtensor(a.type), vtensor(b.type)
    refusal = _refusal(op, (at, bt), constant_str(mode))
    if refusal is not None:
        return rewriter.fail(refusal)
    with rewriter.ip, op.location:
        new = _floor_divide(a, at, b, bt, vtensor(op.results[0].type))
    rewriter.replace_op(op, new)
    return True


@pattern("torch.aten.div.Scalar_mode")
def div_scalar_floor_in_integers(op, rewriter):
    op = op.operation
    a, b, mode = op.operands
    at = vtensor(a.type)
    if str(b.type) != "!torch.int":
        return rewriter.fail(f"a {b.type} divisor: only an integer scalar keeps the division integral")
    refusal = _refusal(op, (at, VTensor((), "si64")), constant_str(mode))
    if refusal is not None:
        return rewriter.fail(refusal)
    with rewriter.ip, op.location:
        new = _floor_divide(a, at, _scalar_tensor(b), VTensor((), "si64"), vtensor(op.results[0].type))
    rewriter.replace_op(op, new)
    return True


@pattern("torch.aten.floor_divide")
def floor_divide_in_integers(op, rewriter):
    op = op.operation
    a, b = op.operands
    at, bt = vtensor(a.type), vtensor(b.type)
    refusal = _refusal(op, (at, bt), "floor")
    if refusal is not None:
        return rewriter.fail(refusal)
    with rewriter.ip, op.location:
        new = _floor_divide(a, at, b, bt, vtensor(op.results[0].type))
    rewriter.replace_op(op, new)
    return True


@pattern("torch.aten.floor_divide.Scalar")
def floor_divide_scalar_in_integers(op, rewriter):
    op = op.operation
    a, b = op.operands
    at = vtensor(a.type)
    if str(b.type) != "!torch.int":
        return rewriter.fail(f"a {b.type} divisor: only an integer scalar keeps the division integral")
    refusal = _refusal(op, (at, VTensor((), "si64")), "floor")
    if refusal is not None:
        return rewriter.fail(refusal)
    with rewriter.ip, op.location:
        new = _floor_divide(a, at, _scalar_tensor(b), VTensor((), "si64"), vtensor(op.results[0].type))
    rewriter.replace_op(op, new)
    return True

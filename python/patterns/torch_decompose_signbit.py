"""Patterns on ``torch.aten.signbit`` and ``torch.aten.copysign.Tensor``: the sign bit read through a bitcast
that IREE's torch frontend still lowers.

torch-mlir decomposes ``signbit(x)`` of a float into ``view.dtype(x, int of its
width) < 0`` and ``copysign`` through ``signbit``, inside
``torch-decompose-complex-ops``; IREE lowers ``aten.view.dtype`` in its own
``torch-iree-bitcast-tensor``, which runs before that decomposition, so the
``view.dtype`` it makes is never lowered: ``failed to legalize operation
'torch.constant.int'``, on every float input.

``decompose_signbit`` and ``decompose_copysign`` write the same decompositions
on the module as parsed, before IREE's bitcast pass runs: the sign bit of a
float is the sign of its bits read as a signed integer of its width (zeros,
infinities and NaN alike); copysign negates ``abs(a)`` where ``b``'s is set.

Left alone, with the reason: an operand or result that is not a ranked value
tensor, or is 0-d (IREE's bitcast reads a last dim); an input that is not
f16, bf16, f32 or f64 (integers already lower); a result of another dtype than
torch gives (bool for signbit; for copysign, ``a`` and ``b`` both of the
result's float dtype, so no promotion is left to do).
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import SCALAR_TYPE, VTensor, create, int_constant, ranked_refusal, vtensor

BITS = {"f16": "si16", "bf16": "si16", "f32": "si32", "f64": "si64"}  # each float as the int of its width


def refusal(types) -> str | None:
    """Why ops on ``types`` (input first) are left alone, or None."""
    why = ranked_refusal("an operand or the result", types)
    if why is not None:
        return why
    if any(t.rank == 0 for t in types):
        return "a 0-d operand or result (IREE's bitcast of view.dtype reads a last dim)"
    if types[0].dtype not in BITS:
        return f"a {types[0].dtype} input: not f16, bf16, f32 nor f64"
    return None


def bits_as_int(x, t: VTensor):
    """``x`` (a float tensor of type ``t``) viewed as the signed integer of its width (``aten.view.dtype``)."""
    ints = t.with_dtype(BITS[t.dtype])
    return create("torch.aten.view.dtype", [ints.ir_type()], [x, int_constant(SCALAR_TYPE[ints.dtype])]).result


def sign_bit(x, t: VTensor):
    """``x`` (a float tensor of type ``t``) < 0 read as the signed integer of its width: its sign bit, as i1."""
    return create("torch.aten.lt.Scalar", [t.with_dtype("i1").ir_type()], [bits_as_int(x, t), int_constant(0)]).result


@pattern("torch.aten.signbit")
def decompose_signbit(op, rewriter):
    op = op.operation
    xt, rt = vtensor(op.operands[0].type), vtensor(op.results[0].type)
    why = refusal((xt, rt))
    if why is not None:
        return rewriter.fail(why)
    if rt.dtype != "i1":
        return rewriter.fail(f"a {rt.dtype} result: torch's signbit is bool")
    with rewriter.ip, op.location:
        value = sign_bit(op.operands[0], xt)
    rewriter.replace_op(op, [value])
    return True


@pattern("torch.aten.copysign.Tensor")
def decompose_copysign(op, rewriter):
    op = op.operation
    a, b = op.operands
    at, bt, rt = vtensor(a.type), vtensor(b.type), vtensor(op.results[0].type)
    why = ranked_refusal("an operand or the result", (at, bt, rt))
    if why is not None:
        return rewriter.fail(why)
    if not at.dtype == bt.dtype == rt.dtype:
        return rewriter.fail(f"operands {at.dtype} and {bt.dtype} to {rt.dtype}: not one float dtype")
    why = refusal((at, bt, rt))
    if why is not None:
        return rewriter.fail(why)
    with rewriter.ip, op.location:
        negative = sign_bit(b, bt)
        magnitude = create("torch.aten.abs", [at.ir_type()], [a]).result
        negated = create("torch.aten.neg", [at.ir_type()], [magnitude]).result
        value = create("torch.aten.where.self", [rt.ir_type()], [negative, negated, magnitude]).result
    rewriter.replace_op(op, [value])
    return True

"""Patterns on ``torch.aten.pow.Tensor_Tensor`` over integers: exponentiation by squaring, exact as torch's.

torch-mlir lowers ``pow`` on floats only: integer tensors fail with
``unimplemented: non-floating point dtype``. PyTorch's integer kernel
(``powi`` in ATen) multiplies in the dtype, wrapping; a negative exponent
gives 1 for a base of 1, +-1 for -1 (by the exponent's parity), else 0.

``pow_int_by_squaring`` multiplies ``a`` by its squares where a bit of ``b``
is set, over every bit of the dtype (the sign bit by ``b < 0``): products
modulo 2**width are those of torch's loop, and for ``b < 0`` the bits are
those of ``b + 2**width``, which has ``b``'s parity, right for a base of
+-1; other bases with ``b < 0`` are set to 0. Broadcasting is the ops' own.

Left alone, with the reason: an operand or the result that is not a ranked
value tensor; operands and result not of one signed integer dtype (mixed
dtypes promote first; ui8 and bool are not handled).
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import VTensor, create, int_constant, ranked_refusal, vtensor

WIDTH = {"si8": 8, "si16": 16, "si32": 32, "si64": 64}


def bits_of(b, bt: VTensor, width: int) -> list:
    """The ``width`` bits of ``b`` as i1 tensors, lowest first; the sign bit is ``b < 0``."""
    flag = bt.with_dtype("i1").ir_type()
    zero = int_constant(0)
    bits = []
    for i in range(width - 1):
        masked = create("torch.aten.bitwise_and.Scalar", [bt.ir_type()], [b, int_constant(1 << i)]).result
        bits.append(create("torch.aten.ne.Scalar", [flag], [masked, zero]).result)
    bits.append(create("torch.aten.lt.Scalar", [flag], [b, zero]).result)
    return bits


def build_pow(a, at: VTensor, b, bt: VTensor, rt: VTensor):
    """``a ** b`` typed ``rt``: square-and-multiply over ``b``'s bits, 0 where ``b < 0`` and ``a`` is not +-1."""
    bits = bits_of(b, bt, WIDTH[rt.dtype])
    out, square = rt.ir_type(), at.ir_type()
    value = create("torch.aten.where.ScalarOther", [out], [bits[0], a, int_constant(1)]).result
    base = a
    for bit in bits[1:]:
        base = create("torch.aten.mul.Tensor", [square], [base, base]).result
        product = create("torch.aten.mul.Tensor", [out], [value, base]).result
        value = create("torch.aten.where.self", [out], [bit, product, value]).result
    flag = at.with_dtype("i1").ir_type()
    not_one = create("torch.aten.ne.Scalar", [flag], [a, int_constant(1)]).result
    not_minus_one = create("torch.aten.ne.Scalar", [flag], [a, int_constant(-1)]).result
    other_base = create("torch.aten.logical_and", [flag], [not_one, not_minus_one]).result
    zero_out = create("torch.aten.logical_and", [rt.with_dtype("i1").ir_type()], [bits[-1], other_base]).result
    return create("torch.aten.where.ScalarSelf", [out], [zero_out, int_constant(0), value]).result


@pattern("torch.aten.pow.Tensor_Tensor")
def pow_int_by_squaring(op, rewriter):
    op = op.operation
    a, b = op.operands
    at, bt, rt = vtensor(a.type), vtensor(b.type), vtensor(op.results[0].type)
    why = ranked_refusal("an operand or the result", (at, bt, rt))
    if why is not None:
        return rewriter.fail(why)
    if not (at.dtype == bt.dtype == rt.dtype and rt.dtype in WIDTH):
        return rewriter.fail(f"dtypes {at.dtype}, {bt.dtype} -> {rt.dtype}: not one signed integer dtype")
    with rewriter.ip, op.location:
        value = build_pow(a, at, b, bt, rt)
    rewriter.replace_op(op, [value])
    return True

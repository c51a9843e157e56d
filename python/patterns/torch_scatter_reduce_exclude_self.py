"""Patterns on ``torch.aten.scatter_reduce.two`` with ``include_self=False``: its targets first set by a data-fed scatter.

torch-mlir lowers ``include_self=False`` by scattering the reduction's
identity into ``self`` first, from a splat ``linalg.fill`` of the index's
length; IREE 3.13 fuses that fill into the scatter's dispatch, and a dynamic
index length then fails llvm-cpu's code generation (``'memref.alloca' op
expected no unbounded stack allocations``). torch-mlir's ``include_self=True``
lowering, whose updates are the source itself, compiles.

``exclude_self_as_init_scatter`` writes out what torch computes
(``scatter_reduce_two``): ``self.scatter_(dim, index, init)`` with ``init``
the identity (0, 1, the dtype's lowest or highest, -inf or +inf where it
has them; 0 for mean), then the reduction with ``include_self=True``; for
``mean``, a sum divided by the count of sources (``scatter_add`` of ones, a
zero count read as 1), floor-divided for integers. The scattered ``init``
(and the ones) are ``where(index >= 0, v, w)``, equal to ``v`` at every
index torch accepts (it raises for a negative one), so no splat reaches the
scatter. Left alone, with the reason: ``include_self`` not the constant
false; ``reduce`` or ``dim`` not constants, ``dim`` out of range; an
unranked operand; a dtype other than ints and floats; a result not self's type.
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .torch_ir import (
    FLOATS,
    INTEGERS,
    VTensor,
    bool_constant,
    constant_bool,
    constant_int,
    constant_str,
    create,
    float_constant,
    int_constant,
    none_constant,
    ranked_refusal,
    vtensor,
)

REDUCES = ("sum", "prod", "amax", "amin", "mean")
_INT_RANGE = {"ui8": (0, 255), "si8": (-(2**7), 2**7 - 1), "si16": (-(2**15), 2**15 - 1)}
_INT_RANGE |= {"si32": (-(2**31), 2**31 - 1), "si64": (-(2**63), 2**63 - 1)}


def identity(reduce: str, dtype: str) -> float | int:
    """The value torch scatters into ``self`` before a ``reduce`` without ``self`` (``scatter_reduce_two``)."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype in FLOATS:
        return float("-inf") if reduce == "amax" else float("inf")
    low, high = _INT_RANGE[dtype]
    return low if reduce == "amax" else high


def plan_exclude_self(op) -> tuple[int, str, VTensor, VTensor, VTensor] | str:
    """``(dim, reduce, self, index, src)`` types of a ``scatter_reduce.two`` without ``self``, or why it is left alone."""
    if len(op.operands) != 6 or len(op.results) != 1:
        return "not scatter_reduce.two(self, dim, index, src, reduce, include_self) -> tensor"
    include_self = constant_bool(op.operands[5])
    if include_self is None:
        return "include_self is not a torch.constant.bool"
    if include_self:
        return "include_self is true (torch-mlir's lowering compiles)"
    reduce, dim = constant_str(op.operands[4]), constant_int(op.operands[1])
    if reduce not in REDUCES:
        return f"reduce is not a torch.constant.str among {', '.join(REDUCES)}"
    if dim is None:
        return "dim is not a torch.constant.int"
    xt, it, st, rt = (vtensor(v.type) for v in (*op.operands[0:1], *op.operands[2:4], op.results[0]))
    refusal = ranked_refusal("self, index, src or the result", (xt, it, st, rt), dim)
    if refusal is not None:
        return refusal
    if xt.dtype not in FLOATS + INTEGERS or st.dtype != xt.dtype or it.dtype != "si64":
        return "self and src not of one int or float dtype, or index not si64"
    if rt != xt:
        return f"the result {rt.ir_type()} is not self's type"
    return (dim % xt.rank, reduce, xt, it, st)


def _scalar(x, dtype: str):
    return float_constant(float(x)) if dtype in FLOATS else int_constant(int(x))


def _str(text: str):
    return create("torch.constant.str", [ir.Type.parse("!torch.str")], [], {"value": ir.StringAttr.get(text)}).result


def _filled(valid, it: VTensor, dtype: str, value):
    """``value`` at every valid (non-negative) index, an ``index``-shaped tensor of ``dtype`` fed by the index."""
    other = 1 if value == 0 else 0
    t = it.with_dtype(dtype).ir_type()
    return create("torch.aten.where.Scalar", [t], [valid, _scalar(value, dtype), _scalar(other, dtype)]).result


def build_exclude_self(x, index, src, dim: int, reduce: str, xt: VTensor, it: VTensor):
    """``scatter_reduce(x, dim, index, src, reduce, include_self=False)`` as torch computes it."""
    d = int_constant(dim)
    valid = create("torch.aten.ge.Scalar", [it.with_dtype("i1").ir_type()], [index, int_constant(0)]).result
    init = _filled(valid, it, xt.dtype, identity(reduce, xt.dtype))
    cleared = create("torch.aten.scatter.src", [xt.ir_type()], [x, d, index, init]).result
    how = _str("sum" if reduce == "mean" else reduce)
    reduced = create(
        "torch.aten.scatter_reduce.two", [xt.ir_type()], [cleared, d, index, src, how, bool_constant(True)]
    )
    reduced = reduced.result
    if reduce != "mean":
        return reduced
    none = none_constant()
    zeros = create("torch.aten.zeros_like", [xt.ir_type()], [x, none, none, none, none, none]).result
    ones = _filled(valid, it, xt.dtype, 1)
    count = create("torch.aten.scatter_add", [xt.ir_type()], [zeros, d, index, ones]).result
    empty = create("torch.aten.eq.Scalar", [xt.with_dtype("i1").ir_type()], [count, int_constant(0)]).result
    count = create("torch.aten.masked_fill.Scalar", [xt.ir_type()], [count, empty, int_constant(1)]).result
    if xt.dtype in FLOATS:
        return create("torch.aten.div.Tensor", [xt.ir_type()], [reduced, count]).result
    return create("torch.aten.div.Tensor_mode", [xt.ir_type()], [reduced, count, _str("floor")]).result


@pattern("torch.aten.scatter_reduce.two")
def exclude_self_as_init_scatter(op, rewriter):
    op = op.operation
    plan = plan_exclude_self(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    dim, reduce, xt, it, _ = plan
    with rewriter.ip, op.location:
        value = build_exclude_self(op.operands[0], op.operands[2], op.operands[3], dim, reduce, xt, it)
    rewriter.replace_op(op, [value])
    return True

"""Patterns on ``torch.aten.var.correction`` and ``torch.aten.std.correction`` over several dims: the mean
and the sum of squares taken one reduced dim at a time, which keeps IREE's f32 accumulation accurate.

IREE 3.13 reduces all the dims at once, into f32 accumulators one per vector lane: over
millions of elements with a large mean they outgrow their addends, the mean comes out wrong
and the variance (the mean of squared deviations) far off.

``var_nested_sums`` and ``std_nested_sums`` write torch's definition, ``sum((x - mean)^2) / max(0, N - correction)``
(``std`` its square root), with each sum taken as nested sums, one per reduced dim from the
last to the first (dims kept), then the reduced dims squeezed unless ``keepdim``; ``N`` is the
product of the reduced sizes (``torch.aten.size.int`` where dynamic). Reassociating a sum changes
only its rounding; each stage adds as many terms as one dim has.

Left alone, with the reason: an input or result that is not a ranked f32 value tensor; dims
that are not a constant list of at least two distinct dims in range (one dim has nothing to
nest; ``None`` and ``[]`` are left to stock); static reduced sizes of fewer than ``LONG``
elements in all; a correction that is not a constant int (or None,
meaning 1); a keepdim that is not a constant.
"""

from __future__ import annotations

import math

from iree.compiler import ir

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import (
    bool_constant,
    compatible,
    constant_bool,
    constant_int,
    create,
    dim_size,
    int_constant,
    int_list,
    is_none,
    none_constant,
    ranked_refusal,
    static_info_cast,
    vtensor,
)

LONG = 1 << 16  # static reductions shorter than this are left to stock: one f32 accumulator is accurate there


def constant_dims(value, rank: int) -> list[int] | None:
    """The dims of a ``torch.prim.ListConstruct`` of constant ints, made non-negative, if all are in range."""
    listed = defining_op(value)
    if listed is None or listed.name != "torch.prim.ListConstruct":
        return None
    ints = [constant_int(v) for v in listed.operands]
    if None in ints or any(not -rank <= d < rank for d in ints):
        return None
    return [d % rank for d in ints]


def nested_sum(value, t, dims, keep):
    """``value`` (of VTensor type ``t``) summed along each of ``dims``, the last first, dims kept."""
    for d in sorted(dims, reverse=True):
        t = t.with_sizes(tuple(1 if i == d else s for i, s in enumerate(t.sizes)))
        value = create(
            "torch.aten.sum.dim_IntList", [t.ir_type()], [value, int_list([d]), keep, none_constant()]
        ).result
    return value, t


@pattern("torch.aten.var.correction")
def var_nested_sums(op, rewriter):
    return nested_sums(op.operation, rewriter)


@pattern("torch.aten.std.correction")
def std_nested_sums(op, rewriter):
    return nested_sums(op.operation, rewriter)


def nested_sums(op, rewriter):
    """``op`` (a var or std) written as its definition with nested sums, or the reason it is left alone."""
    x, dims_value, correction_value, keepdim_value = op.operands
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    why = ranked_refusal("the input or the result", (xt, rt))
    if why is not None:
        return rewriter.fail(why)
    if xt.dtype != "f32" or rt.dtype != "f32":
        return rewriter.fail(f"a {xt.dtype} input and {rt.dtype} result, not f32")
    dims = None if is_none(dims_value) else constant_dims(dims_value, xt.rank)
    if dims is None or len(set(dims)) != len(dims) or len(dims) < 2:
        return rewriter.fail("dims that are not a constant list of two or more distinct dims in range")
    sizes = [xt.sizes[d] for d in dims]
    if None not in sizes and math.prod(sizes) < LONG:
        return rewriter.fail(f"{math.prod(sizes)} elements reduced, under {LONG}: one accumulator is accurate")
    correction = 1 if is_none(correction_value) else constant_int(correction_value)
    if correction is None:
        return rewriter.fail("a correction that is not a constant int or None")
    keepdim = constant_bool(keepdim_value)
    if keepdim is None:
        return rewriter.fail("a keepdim that is not a constant")
    kept = xt.with_sizes(tuple(1 if i in dims else size for i, size in enumerate(xt.sizes)))
    yt = kept if keepdim else xt.with_sizes(tuple(size for i, size in enumerate(xt.sizes) if i not in dims))
    if not compatible(yt, rt):
        return rewriter.fail(f"a result of type {rt.ir_type()}, not the reduction's {yt.ir_type()}")
    int_t = ir.Type.parse("!torch.int")
    with rewriter.ip, op.location:
        keep, one = bool_constant(True), int_constant(1)
        n = dim_size(x, xt, dims[0])
        for d in dims[1:]:
            n = create("torch.aten.mul.int", [int_t], [n, dim_size(x, xt, d)]).result
        total, st = nested_sum(x, xt, dims, keep)
        mean = create("torch.aten.div.Scalar", [st.ir_type()], [total, n]).result
        centred = create("torch.aten.sub.Tensor", [xt.ir_type()], [x, mean, one]).result
        squares = create("torch.aten.mul.Tensor", [xt.ir_type()], [centred, centred]).result
        squared, _ = nested_sum(squares, xt, dims, keep)
        less = create("torch.aten.sub.int", [int_t], [n, int_constant(correction)]).result
        denominator = create("torch.prim.max.int", [int_t], [less, int_constant(0)]).result
        y = create("torch.aten.div.Scalar", [st.ir_type()], [squared, denominator]).result
        if op.name == "torch.aten.std.correction":
            y = create("torch.aten.sqrt", [st.ir_type()], [y]).result
        if not keepdim:
            for d in sorted(dims, reverse=True):
                st = st.with_sizes(st.sizes[:d] + st.sizes[d + 1 :])
                y = create("torch.aten.squeeze.dim", [st.ir_type()], [y, int_constant(d)]).result
        y = static_info_cast(y, yt, rt)
    rewriter.replace_op(op, [y])
    return True

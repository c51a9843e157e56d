"""Patterns on ``torch.aten.instance_norm`` over a long spatial size: its mean and variance summed in blocks,
which keeps IREE's f32 accumulation accurate.

IREE 3.13 sums each channel's elements into one f32 accumulator per vector lane (f16 and bf16
upcast): over millions of elements it outgrows the addends and the variance comes out low.

``instance_norm_blocked_stats`` writes the norm as torch defines it, with
each sum taken in two stages: the channel viewed as ``(blocks, L / blocks)``,
summed along the block and then across the blocks, ``blocks`` the largest
divisor of ``L`` up to ``sqrt(L)``. The mean is the sum over ``L``, the
variance the biased one of ``x - mean``, ``(x - mean) * rsqrt(var + eps)``
times the weight plus the bias, in f32 (f16 and bf16 rounded once at the end).

Left alone, with the reason: an input or result that is not a ranked value
tensor or not of one dtype among f16, bf16 and f32; non-static sizes; a
spatial size under ``LONG`` (one accumulator is accurate) or without a divisor
between ``L / LONG`` and ``sqrt(L)``; a weight or bias that is not a ``[C]``
tensor of the dtype; statistics not computed from the input alone.
"""

from __future__ import annotations

import math

from ..authoring import pattern
from .torch_ir import (
    bool_constant,
    constant_bool,
    convert,
    create,
    int_constant,
    int_list,
    is_none,
    none_constant,
    ranked_refusal,
    vtensor,
)

DTYPES = ("f16", "bf16", "f32")
LONG = 1 << 16  # the longest sum one f32 accumulator keeps here; a block's length is at most this


def blocks(length: int) -> int | None:
    """The largest divisor of ``length`` up to its square root, if the blocks it makes are at most ``LONG``."""
    best = max(d for d in range(1, math.isqrt(length) + 1) if length % d == 0)
    return best if length // best <= LONG else None


def two_stage_sum(value, t, keep):
    """``value`` (of VTensor type ``t``, rank 4) summed along dim 3, then dim 2, dims kept."""
    one = create(
        "torch.aten.sum.dim_IntList",
        [t.with_sizes((*t.sizes[:3], 1)).ir_type()],
        [value, int_list([3]), keep, none_constant()],
    ).result
    return create(
        "torch.aten.sum.dim_IntList",
        [t.with_sizes((*t.sizes[:2], 1, 1)).ir_type()],
        [one, int_list([2]), keep, none_constant()],
    ).result


@pattern("torch.aten.instance_norm")
def instance_norm_blocked_stats(op, rewriter):
    op = op.operation
    x, weight, bias, running_mean, running_var, use_input_stats, _, eps, _ = op.operands
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    why = ranked_refusal("the input or the result", (xt, rt))
    if why is not None:
        return rewriter.fail(why)
    if xt.dtype not in DTYPES or rt != xt:
        return rewriter.fail(f"a {xt.dtype} input and {rt.dtype} result: not one of f16, bf16, f32 alike")
    if None in xt.sizes or xt.rank < 3:
        return rewriter.fail("non-static sizes or a rank under 3")
    n, c, spatial = xt.sizes[0], xt.sizes[1], xt.sizes[2:]
    length = math.prod(spatial)
    if length < LONG:
        return rewriter.fail(f"a spatial size of {length}, under {LONG}: one accumulator is accurate")
    block = blocks(length)
    if block is None:
        return rewriter.fail(f"a spatial size of {length} without a divisor making blocks of at most {LONG}")
    affine = [v for v in (weight, bias) if not is_none(v)]
    if any(vtensor(v.type) != xt.with_sizes((c,)) for v in affine):
        return rewriter.fail(f"a weight or bias that is not a [{c}] {xt.dtype} tensor")
    if constant_bool(use_input_stats) is not True or not (is_none(running_mean) and is_none(running_var)):
        return rewriter.fail("statistics not computed from the input alone (use_input_stats, running stats)")
    f32 = xt.with_dtype("f32")
    shaped = f32.with_sizes((n, c, block, length // block))
    stat = f32.with_sizes((n, c, 1, 1))
    with rewriter.ip, op.location:
        keep, one = bool_constant(True), int_constant(1)
        wide = convert(x, xt, "f32")
        blocked = create("torch.aten.view", [shaped.ir_type()], [wide, int_list(shaped.sizes)]).result
        mean = create(
            "torch.aten.div.Scalar", [stat.ir_type()], [two_stage_sum(blocked, shaped, keep), int_constant(length)]
        ).result
        centred = create("torch.aten.sub.Tensor", [shaped.ir_type()], [blocked, mean, one]).result
        squares = create("torch.aten.mul.Tensor", [shaped.ir_type()], [centred, centred]).result
        var = create(
            "torch.aten.div.Scalar", [stat.ir_type()], [two_stage_sum(squares, shaped, keep), int_constant(length)]
        ).result
        shifted = create("torch.aten.add.Scalar", [stat.ir_type()], [var, eps, one]).result
        inv = create("torch.aten.rsqrt", [stat.ir_type()], [shifted]).result
        normed = create("torch.aten.mul.Tensor", [shaped.ir_type()], [centred, inv]).result
        y = create("torch.aten.view", [f32.ir_type()], [normed, int_list(xt.sizes)]).result
        per_channel = f32.with_sizes((c, *[1] * len(spatial)))
        for v, name in ((weight, "torch.aten.mul.Tensor"), (bias, "torch.aten.add.Tensor")):
            if is_none(v):
                continue
            v = convert(v, xt.with_sizes((c,)), "f32")
            v = create("torch.aten.view", [per_channel.ir_type()], [v, int_list(per_channel.sizes)]).result
            y = create(name, [f32.ir_type()], [y, v] + ([one] if name.endswith("add.Tensor") else [])).result
        result = convert(y, f32, xt.dtype)
    rewriter.replace_op(op, [result])
    return True

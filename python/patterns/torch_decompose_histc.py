"""Patterns on ``torch.aten.histc``: a histogram as torch's CPU kernel bins it, counted by comparison.

torch-mlir has no op for ``aten.histc`` (it imports as ``torch.operator
"torch.aten.histc"``) and no lowering for it, so every transformers 5.x MoE
decoder with the default (grouped) experts fails IREE's input conversion: it
counts the tokens per expert with ``torch.histc``.

``decompose_histc`` writes out what torch's CPU kernel computes, in the
input's dtype, rounding at each step as it does: an element ``x`` counts where
``l <= x <= h`` (``min`` and ``max`` rounded to the dtype; NaN never), in bin
``trunc(((x - l) * bins) / (h - l))``, the last bin where that is ``bins``.
Elements outside are replaced by ``l`` before the arithmetic, then masked out;
counts are one-hot comparisons against ``arange(bins)`` summed in the dtype.

Left alone, with the reason (its page, docs/passes/torch-decompose-histc.md,
says why for each): ``bins``, ``min`` or ``max`` not constants; bounds torch
raises for, ``min == max``, bounds that meet or overflow once rounded; a dtype
other than f32 and f64; a result that is not ``[bins]`` of the input's dtype.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from iree.compiler import ir

from ..authoring import pattern
from .torch_ir import (
    INTEGERS,
    SCALAR_TYPE,
    VTensor,
    bool_constant,
    compatible,
    constant_int,
    constant_number,
    convert,
    create,
    float_constant,
    int_constant,
    int_list,
    none_constant,
    ranked_refusal,
    static_info_cast,
    vtensor,
)

FLOAT = ("f32", "f64")  # the dtypes torch's CPU and CUDA kernels bin alike


@dataclass(frozen=True)
class HistcPlan:
    """What to build: ``bins`` bins over ``[low, high]`` (the bounds as the dtype rounds them),
    the bin of ``x`` being ``trunc(((x - low) * scale) / width)``; the result typed as ``result``."""

    bins: int
    low: float
    high: float
    scale: float  # bins, as the dtype rounds it (torch multiplies by it in the dtype)
    width: float  # high - low, computed in the dtype
    input: VTensor
    result: VTensor


def unsupported_dtype(dtype: str) -> str | None:
    """Why an input of ``dtype`` is left alone, or None for f32 and f64."""
    if dtype in INTEGERS:
        return f"a {dtype} input: torch's CPU kernel raises for integers (its CUDA kernel's arithmetic is not checked)"
    if dtype in ("f16", "bf16"):
        return (
            f"a {dtype} input: torch's CPU kernel rounds each step and counts in {dtype} (inexact past "
            "2048 or 256 a thread), its CUDA kernel computes in f32"
        )
    return None if dtype in FLOAT else f"a {dtype} input (f32 and f64 only)"


def plan_histc(op) -> HistcPlan | str:
    """The decomposition of ``histc(self, bins, min, max)``, or why it is left alone."""
    if len(op.operands) != 4 or len(op.results) != 1:
        return "not histc(self, bins, min, max) -> tensor"
    x, bins_value, min_value, max_value = op.operands
    bins, lo, hi = constant_int(bins_value), constant_number(min_value), constant_number(max_value)
    if bins is None:
        return "bins is not a torch.constant.int"
    if lo is None or hi is None:
        return "min or max is not a torch.constant.int or torch.constant.float"
    if bins <= 0:
        return f"bins = {bins} (torch raises)"
    lo, hi = float(lo), float(hi)
    if lo == hi:
        return "min == max: torch bins between the data's own minimum and maximum"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "a bound that is not finite (torch raises)"
    if lo > hi:
        return "min > max (torch raises)"
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    refusal = ranked_refusal("the input or the result", (xt, rt)) or unsupported_dtype(xt.dtype)
    if refusal is not None:
        return refusal
    if not compatible(VTensor((bins,), xt.dtype), rt):
        return f"the result {rt.ir_type()} is not [{bins}] of the input's dtype"
    import numpy as np  # here, not at import: the pass module is loaded wherever histc is

    dtype = {"f32": np.float32, "f64": np.float64}[xt.dtype]
    with np.errstate(over="ignore", invalid="ignore"):
        low, high = dtype(lo), dtype(hi)
        width, scale = dtype(high - low), dtype(bins)
        top = dtype(width * scale)
    if not low < high:
        return f"min and max meet once rounded to {xt.dtype} (torch divides by zero)"
    if not (np.isfinite(width) and np.isfinite(top)):
        return f"(max - min) * bins overflows {xt.dtype} (torch's own arithmetic does)"
    return HistcPlan(bins, float(low), float(high), float(scale), float(width), xt, rt)


def bin_of(x, t: VTensor, plan: HistcPlan, low):
    """Each element's bin as si64, ``trunc(((x - low) * scale) / width)`` in the dtype, at most ``bins - 1``
    (``x`` must lie in ``[low, high]``; ``low`` is its ``torch.constant.float``)."""
    shifted = create("torch.aten.sub.Scalar", [t.ir_type()], [x, low, int_constant(1)]).result
    scaled = create("torch.aten.mul.Scalar", [t.ir_type()], [shifted, float_constant(plan.scale)]).result
    ratio = create("torch.aten.div.Scalar", [t.ir_type()], [scaled, float_constant(plan.width)]).result
    index = convert(ratio, t, "si64")  # fptosi truncates toward zero; the ratio is never negative
    si64 = t.with_dtype("si64")
    return create("torch.aten.clamp", [si64.ir_type()], [index, none_constant(), int_constant(plan.bins - 1)]).result


def build_histc(x, plan: HistcPlan):
    """The histogram ``plan`` describes, of ``x``, built at the current insertion point."""
    t = plan.input
    flags = t.with_dtype("i1")
    low = float_constant(plan.low)
    at_least = create("torch.aten.ge.Scalar", [flags.ir_type()], [x, low]).result
    at_most = create("torch.aten.le.Scalar", [flags.ir_type()], [x, float_constant(plan.high)]).result
    inside = create("torch.aten.bitwise_and.Tensor", [flags.ir_type()], [at_least, at_most]).result
    clean = create("torch.aten.where.ScalarOther", [t.ir_type()], [inside, x, low]).result
    # One-hot against arange(bins) along a new last axis ([*sizes, bins]), masked by `inside`.
    column, last = VTensor((*t.sizes, 1), "si64"), int_constant(-1)
    bins = create("torch.aten.unsqueeze", [column.ir_type()], [bin_of(clean, t, plan, low), last]).result
    inside = create("torch.aten.unsqueeze", [column.with_dtype("i1").ir_type()], [inside, last]).result
    none = none_constant()
    arange = create(
        "torch.aten.arange",
        [VTensor((plan.bins,), "si64").ir_type()],
        [int_constant(plan.bins), int_constant(SCALAR_TYPE["si64"]), none, none, none],
    ).result
    hot = VTensor((*t.sizes, plan.bins), "i1")
    equal = create("torch.aten.eq.Tensor", [hot.ir_type()], [bins, arange]).result
    counted = create("torch.aten.bitwise_and.Tensor", [hot.ir_type()], [equal, inside]).result
    # Summed in the dtype, as torch counts: exact while a count fits its mantissa (2^24 for f32), whatever
    # the order. An si64 sum over a dynamic length fails CUDA's code generation (IREE 3.13, sm_80).
    ones = convert(counted, hot, plan.result.dtype)
    if t.rank == 0:  # one element: its one-hot row is the histogram (sum.dim_IntList of no dims sums them all)
        return static_info_cast(ones, hot.with_dtype(plan.result.dtype), plan.result)
    counts = VTensor((plan.bins,), plan.result.dtype)
    dims = int_list(range(t.rank))
    summed = create("torch.aten.sum.dim_IntList", [counts.ir_type()], [ones, dims, bool_constant(False), none])
    return static_info_cast(summed.result, counts, plan.result)


@pattern("torch.operator")
def decompose_histc(op, rewriter):
    op = op.operation
    if ir.StringAttr(op.attributes["name"]).value != "torch.aten.histc":
        return rewriter.fail("not torch.aten.histc")
    plan = plan_histc(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    with rewriter.ip, op.location:
        value = build_histc(op.operands[0], plan)
    rewriter.replace_op(op, [value])
    return True

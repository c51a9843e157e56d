"""Patterns on ``torch.aten.conv_tbc``: a 1-d convolution over time-batch-channel tensors, as a convolution
between permutes.

torch-mlir's decomposition of ``aten.conv_tbc`` (in IREE 3.13) computes the
right values but types its convolution with the op's own ``(T', B, O)`` result
type where the convolution gives ``(B, O, T')``; permuted back, the result is
typed ``(O, T', B)``: "type of return operand 0 doesn't match function result
type" wherever the result's sizes are not all alike.

``decompose_conv_tbc`` writes what ``torch.conv_tbc`` computes (``out[t, b,
o] = bias[o] + sum_{k,c} input[t + k - pad, b, c] * weight[k, c, o]``, zero
outside the input): the input permuted to ``(B, C, T)``, the weight to ``(O,
C, K)``, ``aten.convolution`` with stride 1, padding ``pad``, dilation 1 and
the bias, and the ``(B, O, T')`` result permuted back to ``(T', B, O)``.

Left alone, with the reason: a result whose sizes are all alike (all dynamic,
or equal: stock is right there); an operand or the result not a ranked value
tensor; ranks other than 3, 3, 1; ``pad`` not a constant or negative; dtypes
that differ or are not float; static sizes that contradict each other or the
result type ``(T + 2 pad - K + 1, B, O)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..authoring import pattern
from .torch_ir import (
    FLOATS,
    VTensor,
    bool_constant,
    constant_int,
    create,
    int_constant,
    int_list,
    ranked_refusal,
    static_info_cast,
    vtensor,
)


def meet(*sizes) -> int | None | str:
    """The one static size among ``sizes`` (None where all are dynamic), or "conflict" where two differ."""
    known = {s for s in sizes if s is not None}
    if len(known) > 1:
        return "conflict"
    return known.pop() if known else None


@dataclass(frozen=True)
class ConvTbcPlan:
    pad: int
    conv: VTensor  # the convolution's (B, O, T') result
    result: VTensor  # the op's (T', B, O)


def plan_conv_tbc(op) -> ConvTbcPlan | str:
    """The decomposition of ``conv_tbc(input, weight, bias, pad)``, or why it is left alone."""
    if len(op.operands) != 4 or len(op.results) != 1:
        return "not conv_tbc(input, weight, bias, pad) -> tensor"
    x, w, b, pad_value = op.operands
    xt, wt, bt, rt = (vtensor(v.type) for v in (x, w, b, op.results[0]))
    why = ranked_refusal("an operand or the result", (xt, wt, bt, rt))
    if why is not None:
        return why
    if (xt.rank, wt.rank, bt.rank, rt.rank) != (3, 3, 1, 3):
        return (
            f"ranks {xt.rank}, {wt.rank}, {bt.rank} -> {rt.rank}: not (T, B, C), (K, C, O), (O) -> (T', B, O) "
            "(torch raises)"
        )
    if len(set(rt.sizes)) == 1:
        return f"the result {rt.ir_type()}: sizes all alike, which IREE's own decomposition types right"
    pad = constant_int(pad_value)
    if pad is None:
        return "pad is not a torch.constant.int"
    if pad < 0:
        return f"pad = {pad} (negative)"
    dtypes = {xt.dtype, wt.dtype, bt.dtype, rt.dtype}
    if len(dtypes) != 1 or xt.dtype not in FLOATS:
        return f"dtypes {xt.dtype}, {wt.dtype}, {bt.dtype} -> {rt.dtype}: not one float dtype"
    (t, batch, c), (k, c_w, o_w) = xt.sizes, wt.sizes
    if meet(c, c_w) == "conflict":
        return f"the input's {c} channels are not the weight's {c_w} (torch raises)"
    if meet(bt.sizes[0], o_w) == "conflict":
        return f"the bias's {bt.sizes[0]} are not the weight's {o_w} output channels (torch raises)"
    computed = None if t is None or k is None else t + 2 * pad - k + 1
    sizes = (meet(rt.sizes[1], batch), meet(rt.sizes[2], o_w, bt.sizes[0]), meet(rt.sizes[0], computed))
    if "conflict" in sizes:
        return f"the result {rt.ir_type()} contradicts the operands' sizes (T + 2 pad - K + 1, B, O)"
    if sizes[2] is not None and sizes[2] <= 0:
        return f"an output length of {sizes[2]} (torch raises)"
    return ConvTbcPlan(pad, VTensor(sizes, rt.dtype), rt)


def permute(value, t: VTensor, dims):
    """``value`` (of type ``t``) with its dims in the order ``dims``; returns it with its type."""
    out = t.with_sizes(t.sizes[d] for d in dims)
    return create("torch.aten.permute", [out.ir_type()], [value, int_list(dims)]).result, out


def build_conv_tbc(x, w, b, plan: ConvTbcPlan):
    """``conv_tbc(x, w, b, pad)`` as ``plan`` types it, built at the current insertion point."""
    xt, wt = vtensor(x.type), vtensor(w.type)
    bct, _ = permute(x, xt, (1, 2, 0))
    ock, _ = permute(w, wt, (2, 1, 0))
    conv = create(
        "torch.aten.convolution",
        [plan.conv.ir_type()],
        [
            bct,
            ock,
            b,
            int_list([1]),
            int_list([plan.pad]),
            int_list([1]),
            bool_constant(False),
            int_list([0]),
            int_constant(1),
        ],
    ).result
    value, t = permute(conv, plan.conv, (2, 0, 1))
    return static_info_cast(value, t, plan.result)


@pattern("torch.aten.conv_tbc")
def decompose_conv_tbc(op, rewriter):
    op = op.operation
    plan = plan_conv_tbc(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    x, w, b, _ = op.operands
    with rewriter.ip, op.location:
        value = build_conv_tbc(x, w, b, plan)
    rewriter.replace_op(op, [value])
    return True

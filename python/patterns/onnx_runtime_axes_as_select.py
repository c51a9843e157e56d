"""An ONNX reduction or CumSum whose axes come at run time: one copy per axes the types allow, selected.

Root cause. torch-mlir's ONNX-to-torch conversion turns a runtime ``axes``
operand (ReduceSum/Mean/Max/..., CumSum's ``axis``) into values read at run
time, and no torch-to-linalg pattern lowers a reduction or a cumsum over
dimensions unknown at compile time: stock IREE refuses the program. The same
ops with a constant operand compile.

The rewrite. Where the axes tensor has a static length m, the types leave few
axes sets possible (for a reduction with static types, the m-subsets whose
reduced shape is the result's; for CumSum, every axis). The op is emitted once
per candidate with that constant operand (an ``onnx.Constant``), and
``torch.aten.where.self`` picks the copy whose candidate the runtime axes name
(as ``a`` or ``a + rank``). Sound because ONNX requires distinct axes in
[-rank, rank): a valid axes tensor names exactly one candidate. The proof, the
forms left alone (dynamic sizes, more than ``MAX_CANDIDATES``, the keepdims
forms IREE aborts on) and an example are on its page,
docs/passes/onnx-runtime-axes-as-select.md.
"""

from __future__ import annotations

from itertools import combinations

from iree.compiler import ir

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import VTensor, create, int_constant, vtensor

REDUCTIONS = frozenset(
    f"onnx.{name}"
    for name in (
        "ReduceL1",
        "ReduceL2",
        "ReduceLogSum",
        "ReduceLogSumExp",
        "ReduceMax",
        "ReduceMean",
        "ReduceMin",
        "ReduceProd",
        "ReduceSum",
        "ReduceSumSquare",
    )
)
CUMSUM = "onnx.CumSum"
# With keepdims, over size-1 dims only (the result type is the input's), IREE 3.13 aborts on these with a
# constant axes ("dialect conversion attempted to replace a root operation that has no parent block").
ABORT_OVER_UNIT_DIMS = frozenset({"onnx.ReduceL2", "onnx.ReduceLogSum", "onnx.ReduceLogSumExp"})
MAX_CANDIDATES = 8


def onnx_name(op) -> str | None:
    """The ONNX op a ``torch.operator`` stands for (``onnx.ReduceSum``), or None."""
    if op.name != "torch.operator" or "name" not in op.attributes:
        return None
    return ir.StringAttr(op.attributes["name"]).value


def _onnx_int(op, key: str, default: int) -> int:
    attr = op.attributes[f"torch.onnx.{key}"] if f"torch.onnx.{key}" in op.attributes else None
    return ir.IntegerAttr(attr).value if attr is not None else default


def is_constant(value) -> bool:
    """Whether ``value`` is known at compile time: a ``torch.vtensor.literal`` or an ``onnx.Constant``."""
    op = defining_op(value)
    return op is not None and (op.name == "torch.vtensor.literal" or onnx_name(op) == "onnx.Constant")


def reduced_sizes(sizes, axes, keepdims: bool) -> tuple:
    """The sizes of a reduction of ``sizes`` over ``axes`` (non-negative)."""
    if keepdims:
        return tuple(1 if d in axes else s for d, s in enumerate(sizes))
    return tuple(s for d, s in enumerate(sizes) if d not in axes)


def reduction_candidates(sizes, m: int, result, keepdims: bool) -> list[tuple]:
    """The m-subsets of the dims whose reduced shape is ``result``'s (m > 0)."""
    return [c for c in combinations(range(len(sizes)), m) if reduced_sizes(sizes, c, keepdims) == tuple(result)]


def _plan(op):
    """(kind, data, axes type, candidates) for a rewrite, or the reason there is none."""
    name = onnx_name(op)
    if name not in REDUCTIONS and name != CUMSUM:
        return "not an ONNX reduction or CumSum"
    if len(op.operands) != 2 or len(op.results) != 1:
        return "not data and an axes operand to one result"
    data, axes = op.operands
    if is_constant(axes):
        return "the axes are a constant already"
    x, r, a = vtensor(data.type), vtensor(op.results[0].type), vtensor(axes.type)
    if x is None or r is None:
        return "the data or result type is unknown"
    if name != CUMSUM and (None in x.sizes or None in r.sizes):
        return "a reduction whose data or result type has a dynamic size (the static sizes bound its axes)"
    if a is None or None in a.sizes or a.rank > 1 or (name in REDUCTIONS and a.rank != 1):
        return "the axes tensor has no static length"
    if name == CUMSUM:
        candidates = [(d,) for d in range(x.rank)] if x.sizes == r.sizes and a.sizes in ((), (1,)) else []
    elif a.sizes == (0,):
        return "reduction", data, a, [()]
    else:
        keepdims = bool(_onnx_int(op, "keepdims", 1))
        candidates = reduction_candidates(x.sizes, a.sizes[0], r.sizes, keepdims)
        if name in ABORT_OVER_UNIT_DIMS and keepdims and any(all(x.sizes[d] == 1 for d in c) for c in candidates):
            return "a reduction over size-1 dims only, which IREE aborts on: left to stock's error"
    if not candidates:
        return "no axes the static types allow"
    if len(candidates) > MAX_CANDIDATES:
        return f"{len(candidates)} possible axes sets, more than {MAX_CANDIDATES}"
    return ("cumsum" if name == CUMSUM else "reduction"), data, a, candidates


def _axes_constant(a: VTensor, axes: tuple):
    """``onnx.Constant`` of type ``a`` holding ``axes``."""
    builtin = "tensor<" + "".join(f"{s}x" for s in a.sizes) + f"{a.dtype}>"
    values = str(axes[0]) if not a.sizes else "[" + ", ".join(map(str, axes)) + "]"
    value = ir.Attribute.parse(f"dense<{values}> : {builtin}")
    attrs = {"name": ir.StringAttr.get("onnx.Constant"), "torch.onnx.value": value}
    return create("torch.operator", [a.ir_type()], [], attrs).result


def _copy(op, operands):
    """``op`` again, on ``operands``, with its attributes."""
    attrs = {op.attributes[i].name: op.attributes[i].attr for i in range(len(op.attributes))}
    return create("torch.operator", [op.results[0].type], operands, attrs).result


def _picks(axes, a: VTensor, rank: int, candidate: tuple):
    """A 0-d i1 tensor: whether every axis of ``candidate`` is among the runtime ``axes`` (mod rank)."""
    flags = a.with_dtype("i1").ir_type()
    scalar = ir.Type.parse("!torch.vtensor<[],i1>")
    picked = None
    for c in candidate:
        eq = [create("torch.aten.eq.Scalar", [flags], [axes, int_constant(v)]).result for v in (c, c - rank)]
        hit = create("torch.aten.logical_or", [flags], eq).result
        if a.rank:
            hit = create("torch.aten.any", [scalar], [hit]).result
        picked = hit if picked is None else create("torch.aten.logical_and", [scalar], [picked, hit]).result
    return picked


@pattern("torch.operator")
def runtime_axes_as_select(op, rewriter):
    op = op.operation
    plan = _plan(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    _, data, a, candidates = plan
    rank = vtensor(data.type).rank
    with rewriter.ip, op.location:
        if candidates == [()]:
            rewriter.replace_op(op, [_copy(op, [data])])
            return True
        copies = [_copy(op, [data, _axes_constant(a, c)]) for c in candidates]
        out = copies[-1]
        for c, copy in zip(reversed(candidates[:-1]), reversed(copies[:-1])):
            cond = _picks(op.operands[1], a, rank, c)
            out = create("torch.aten.where.self", [op.results[0].type], [cond, copy, out]).result
    rewriter.replace_op(op, [out])
    return True

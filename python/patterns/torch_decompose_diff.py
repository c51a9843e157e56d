"""Patterns on ``torch.aten.diff``: the n-th forward difference as concatenation, slices and subtractions.

torch-mlir has no op for ``aten.diff`` (it imports as ``torch.operator
"torch.aten.diff"``) and no lowering for it, so every Hugging Face decoder
fails IREE's input conversion: transformers' masking code calls
``torch.diff(position_ids, prepend=position_ids[:, :1] - 1, dim=-1)``.

``decompose_diff`` writes out what ``at::diff`` does: the input itself where
``n`` is 0; otherwise prepend, input and append concatenated along ``dim``
(a statically empty one left out), each converted to the result's dtype,
then ``n`` times ``x[1:] - x[:-1]`` along ``dim`` (``logical_xor`` for bool,
as torch). A static length ``s`` becomes ``s - 1`` at each step, never below
0: at most ``s`` steps are written out.

Left alone, with the reason: ``n`` or ``dim`` not a constant, a negative
``n``, an unranked or 0-d input, ``dim`` out of range, a prepend or append of
another rank or other sizes off ``dim``, a dtype outside the promotion table
(``torch_ir``), a result whose dtype or static sizes are not torch's, and more
than ``MAX_DYNAMIC_ORDER`` steps over a dynamic length.
"""

from __future__ import annotations

from dataclasses import dataclass

from iree.compiler import ir

from ..authoring import pattern
from .torch_ir import (
    INT64_MAX,
    VTensor,
    compatible,
    constant_int,
    convert,
    create,
    int_constant,
    is_none,
    promote_all,
    ranked_refusal,
    static_info_cast,
    vtensor,
)

MAX_DYNAMIC_ORDER = 16  # steps written out over a dynamic length (a static one needs at most its size)


@dataclass(frozen=True)
class DiffPlan:
    """What to build: the parts to concatenate (value, type) in order, along ``dim``, in ``dtype``,
    then ``steps`` differences, typed as ``result`` at the end."""

    parts: tuple
    dim: int
    dtype: str
    steps: int
    result: VTensor


def concat_type(parts: list[VTensor], dim: int, dtype: str) -> VTensor | None:
    """The type of ``parts`` concatenated along ``dim`` as ``dtype``; None where their sizes off ``dim`` disagree."""
    sizes = []
    for axis in range(parts[0].rank):
        column = [p.sizes[axis] for p in parts]
        if axis == dim:
            sizes.append(None if None in column else sum(column))
            continue
        static = {s for s in column if s is not None}
        if len(static) > 1:
            return None
        sizes.append(static.pop() if static else None)
    return VTensor(tuple(sizes), dtype)


def differenced(t: VTensor, dim: int, steps: int) -> VTensor:
    """``t`` after ``steps`` differences along ``dim``: a static size shrinks by one each, to 0 at least."""
    sizes = list(t.sizes)
    sizes[dim] = None if sizes[dim] is None else max(sizes[dim] - steps, 0)
    return t.with_sizes(sizes)


def plan_diff(op) -> DiffPlan | str:
    """The decomposition of ``diff(self, n, dim, prepend, append)``, or why it is left alone."""
    if len(op.operands) != 5 or len(op.results) != 1:
        return "not diff(self, n, dim, prepend, append) -> tensor"
    x, n_value, dim_value, prepend, append = op.operands
    n, dim = constant_int(n_value), constant_int(dim_value)
    if n is None:
        return "n is not a torch.constant.int"
    if dim is None:
        return "dim is not a torch.constant.int"
    if n < 0:
        return "n is negative (torch raises)"
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    refusal = ranked_refusal("the input or the result", (xt, rt), dim)
    if refusal is not None:
        return refusal
    dim %= xt.rank
    parts = [(v, vtensor(v.type)) for v in (prepend, x, append) if not is_none(v)]
    if any(t is None or t.rank != xt.rank for _, t in parts):
        return "a prepend or append that is not a ranked !torch.vtensor of the input's rank (torch raises)"
    if n == 0:  # at::diff returns the input: prepend and append are not even concatenated
        if not compatible(xt, rt):
            return "n is 0 but the result's type is not the input's"
        return DiffPlan(((x, xt),), dim, xt.dtype, 0, rt)
    dtype = promote_all(t.dtype for _, t in parts)
    if dtype is None:
        return f"a dtype outside the promotion table (torch_ir): {[t.dtype for _, t in parts]}"
    if dtype != rt.dtype:
        return f"the result's dtype {rt.dtype} is not torch's promotion of the parts' ({dtype})"
    whole = concat_type([t for _, t in parts], dim, dtype)
    if whole is None:
        return "prepend or append sizes off dim disagree with the input's (torch raises)"
    length = whole.sizes[dim]
    if length is None and n > MAX_DYNAMIC_ORDER:
        return f"n = {n} over a dynamic length: more than {MAX_DYNAMIC_ORDER} differences to write out"
    steps = n if length is None else min(n, length)
    if not compatible(differenced(whole, dim, steps), rt):
        return "the result's static sizes are not the ones torch gives"
    # A statically empty prepend or append adds nothing (and torch-mlir's cat fails when all parts are empty).
    kept = tuple((v, t) for v, t in parts if t.sizes[dim] != 0 or v == x)
    return DiffPlan(kept, dim, dtype, steps, rt)


def difference(x, t: VTensor, dim: int):
    """``x[1:] - x[:-1]`` along ``dim`` (``logical_xor`` for bool, as torch) and its type."""
    out = differenced(t, dim, 1)
    d, one = int_constant(dim), int_constant(1)
    hi = create("torch.aten.slice.Tensor", [out.ir_type()], [x, d, one, int_constant(INT64_MAX), one]).result
    lo = create("torch.aten.slice.Tensor", [out.ir_type()], [x, d, int_constant(0), int_constant(-1), one]).result
    if t.dtype == "i1":
        return create("torch.aten.logical_xor", [out.ir_type()], [hi, lo]).result, out
    return create("torch.aten.sub.Tensor", [out.ir_type()], [hi, lo, one]).result, out


def build_diff(plan: DiffPlan):
    """The value ``plan`` describes, built at the current insertion point."""
    values = [convert(v, t, plan.dtype) for v, t in plan.parts]
    types = [t.with_dtype(plan.dtype) for _, t in plan.parts]
    x, t = values[0], types[0]
    if len(values) > 1:
        parts = create("torch.prim.ListConstruct", [ir.Type.parse("!torch.list<vtensor>")], values).result
        t = concat_type(types, plan.dim, plan.dtype)
        x = create("torch.aten.cat", [t.ir_type()], [parts, int_constant(plan.dim)]).result
    for _ in range(plan.steps):
        x, t = difference(x, t, plan.dim)
    return static_info_cast(x, t, plan.result)


@pattern("torch.operator")
def decompose_diff(op, rewriter):
    op = op.operation
    if ir.StringAttr(op.attributes["name"]).value != "torch.aten.diff":
        return rewriter.fail("not torch.aten.diff")
    plan = plan_diff(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    with rewriter.ip, op.location:
        value = build_diff(plan)
    rewriter.replace_op(op, [value])
    return True

"""Patterns on grouped matmuls: each row times its group's matrix, as a gather of matrices and a batched matmul.

transformers 5.x's default MoE experts multiply the rows, sorted by expert, by
their expert's weights through transformers' custom op
``transformers::grouped_mm_fallback`` (f32/f16 weights under export) or
``torch.aten._grouped_mm`` (bf16), both imported as ``torch.operator``;
torch-mlir lowers neither.

Both compute, for ``input [S, K]``, ``weight [E, K, M]`` and ``offs [E]``, an
``[S, M]`` result whose rows ``offs[e-1]:offs[e]`` (bounded as Python bounds
slices, a later group overwriting an earlier one) are those rows of the input
times ``weight[e]``, the other rows zeros. ``decompose_grouped_mm`` writes
that out: each row's group as the last ``e`` whose bounds hold it (``[S, E]``
comparisons and a max), ``weight[group]`` gathered per row and ``aten.bmm``
of the row with it, rows of no group set to 0 by ``aten.where``.

Left alone, with the reason (its page, docs/passes/torch-decompose-grouped-mm.md,
lists each): operands unranked or of sizes that do not agree; dtypes or
offsets torch would reject; for ``_grouped_mm``, a bias, an ``out_dtype``
other than the input's, and 3-d inputs or 2-d weights (not what MoE layers call).
"""

from __future__ import annotations

from dataclasses import dataclass

from iree.compiler import ir

from ..authoring import pattern
from .torch_ir import (
    FLOATS,
    SCALAR_TYPE,
    VTensor,
    bool_constant,
    compatible,
    constant_int,
    convert,
    create,
    float_constant,
    int_constant,
    int_list,
    is_none,
    none_constant,
    ranked_refusal,
    static_info_cast,
    vtensor,
)


@dataclass(frozen=True)
class GroupedOp:
    """What torch accepts of one grouped-matmul op: its operand dtypes, its offsets' dtypes, and whether
    ``(bias, out_dtype)`` follow the offsets."""

    dtypes: tuple[str, ...]
    offsets: tuple[str, ...]
    extras: bool


GROUPED_MM = {
    # transformers' custom op: torch.zeros, then torch.mm (any float dtype) per group; offsets int32 or int64.
    "torch.transformers.grouped_mm_fallback": GroupedOp(FLOATS, ("si32", "si64"), extras=False),
    # aten._grouped_mm(self, mat2, offs, bias, out_dtype): f32, bf16 or f16, int32 offsets (its checks).
    "torch.aten._grouped_mm": GroupedOp(("f32", "bf16", "f16"), ("si32",), extras=True),
}


@dataclass(frozen=True)
class GroupedMMPlan:
    """What to build: ``input [S, K]`` rows times ``weight [E, K, M]`` by the groups ``offs [E]`` bound,
    typed as ``result [S, M]``."""

    input: VTensor
    weight: VTensor
    offs: VTensor
    result: VTensor


def shape(t: VTensor) -> str:
    """``t``'s sizes as torch-mlir spells them: ``[?,8]``."""
    return "[" + ",".join("?" if s is None else str(s) for s in t.sizes) + "]"


def plan_grouped_mm(op, name: str) -> GroupedMMPlan | str:
    """The decomposition of ``name(input, weight, offs[, bias, out_dtype])``, or why it is left alone."""
    accepted = GROUPED_MM[name]
    if len(op.operands) != (5 if accepted.extras else 3) or len(op.results) != 1:
        return "not (input, weight, offs" + (", bias, out_dtype" if accepted.extras else "") + ") -> tensor"
    x, w, offs = op.operands[:3]
    xt, wt, ot, rt = (vtensor(v.type) for v in (x, w, offs, op.results[0]))
    refusal = ranked_refusal("an operand or the result", (xt, wt, ot, rt))
    if refusal is not None:
        return refusal
    if accepted.extras:
        bias, out_dtype = op.operands[3:]
        if not is_none(bias):
            return "a bias (torch raises: not supported)"
        if not is_none(out_dtype) and constant_int(out_dtype) != SCALAR_TYPE.get(xt.dtype):
            return "an out_dtype that is not a constant equal to the input's dtype (torch raises)"
    if (xt.rank, wt.rank, ot.rank, rt.rank) != (2, 3, 1, 2):
        return f"ranks {xt.rank}, {wt.rank}, {ot.rank} -> {rt.rank}: only [S, K] x [E, K, M] by [E] -> [S, M]"
    if xt.dtype not in accepted.dtypes or wt.dtype != xt.dtype or rt.dtype != xt.dtype:
        return f"input {xt.dtype}, weight {wt.dtype}, result {rt.dtype}: not one of {', '.join(accepted.dtypes)}"
    if ot.dtype not in accepted.offsets:
        return f"{ot.dtype} offsets (torch takes {' or '.join(accepted.offsets)})"
    if not compatible(VTensor(xt.sizes[1:], "k"), VTensor(wt.sizes[1:2], "k")):
        return f"input {shape(xt)} and weight {shape(wt)} disagree on K"
    if not compatible(VTensor(ot.sizes, "e"), VTensor(wt.sizes[:1], "e")):
        return f"offsets {shape(ot)} and weight {shape(wt)} disagree on the number of groups"
    if not compatible(VTensor((xt.sizes[0], wt.sizes[2]), rt.dtype), rt):
        return f"the result {shape(rt)} is not [S, M] of input {shape(xt)} and weight {shape(wt)}"
    return GroupedMMPlan(xt, wt, ot, rt)


def size(value, t: VTensor, dim: int):
    """The size of ``value`` (of type ``t``) along ``dim``: a constant where static, else ``aten.size.int``."""
    if t.sizes[dim] is not None:
        return int_constant(t.sizes[dim])
    return create("torch.aten.size.int", [ir.Type.parse("!torch.int")], [value, int_constant(dim)]).result


def group_count_plus_one(offs, t: VTensor):
    """``E + 1`` as a ``!torch.int``: the end of ``arange(1, E + 1)``."""
    if t.sizes[0] is not None:
        return int_constant(t.sizes[0] + 1)
    return create("torch.aten.add.int", [ir.Type.parse("!torch.int")], [size(offs, t, 0), int_constant(1)]).result


def group_bounds(offs, length, t: VTensor):
    """Each group's rows ``[start, end)`` as the loop slices them (si64 ``[E]`` each): the offsets as Python
    bounds a slice (a negative one counts from ``length``, then clamped to ``[0, length]``), a group starting
    where the one before it ends, the first at 0."""
    groups = VTensor(t.sizes, "si64")
    ends = convert(offs, t, "si64")
    negative = create("torch.aten.lt.Scalar", [groups.with_dtype("i1").ir_type()], [ends, int_constant(0)]).result
    wrapped = create("torch.aten.add.Scalar", [groups.ir_type()], [ends, length, int_constant(1)]).result
    ends = create("torch.aten.where.self", [groups.ir_type()], [negative, wrapped, ends]).result
    ends = create("torch.aten.clamp", [groups.ir_type()], [ends, int_constant(0), length]).result
    e = t.sizes[0]
    before = VTensor((None if e is None else e - 1,), "si64")
    head = create(
        "torch.aten.slice.Tensor",
        [before.ir_type()],
        [ends, int_constant(0), int_constant(0), int_constant(-1), int_constant(1)],
    ).result
    starts = create("torch.aten.constant_pad_nd", [groups.ir_type()], [head, int_list([1, 0]), int_constant(0)]).result
    return starts, ends


def row_groups(x, offs, plan: GroupedMMPlan):
    """Per row of ``x``: 1 + the last group whose bounds hold it (a later group overwrites an earlier one),
    0 where none does (si64 ``[S]``): the ``[S, E]`` table of ``start <= row < end`` times ``1 .. E``, its max."""
    s, e = plan.input.sizes[0], plan.offs.sizes[0]
    length = size(x, plan.input, 0)
    starts, ends = group_bounds(offs, length, plan.offs)
    none, code = none_constant(), int_constant(SCALAR_TYPE["si64"])
    rows = create("torch.aten.arange", [VTensor((s,), "si64").ir_type()], [length, code, none, none, none]).result
    rows = create("torch.aten.unsqueeze", [VTensor((s, 1), "si64").ir_type()], [rows, int_constant(1)]).result
    table = VTensor((s, e), "i1")
    after_start = create("torch.aten.ge.Tensor", [table.ir_type()], [rows, starts]).result
    before_end = create("torch.aten.lt.Tensor", [table.ir_type()], [rows, ends]).result
    inside = create("torch.aten.bitwise_and.Tensor", [table.ir_type()], [after_start, before_end]).result
    numbers = create(
        "torch.aten.arange.start",
        [VTensor((e,), "si64").ir_type()],
        [int_constant(1), group_count_plus_one(offs, plan.offs), code, none, none, none],
    ).result
    tags = table.with_dtype("si64")
    tagged = create("torch.aten.mul.Tensor", [tags.ir_type()], [convert(inside, table, "si64"), numbers]).result
    return create(
        "torch.aten.amax", [VTensor((s,), "si64").ir_type()], [tagged, int_list([1]), bool_constant(False)]
    ).result


def build_grouped_mm(x, w, offs, plan: GroupedMMPlan):
    """The grouped product ``plan`` describes, built at the current insertion point."""
    s, k, m = plan.input.sizes[0], plan.weight.sizes[1], plan.weight.sizes[2]
    dtype = plan.input.dtype
    tag = row_groups(x, offs, plan)
    rows = VTensor((s,), "si64")
    some = create("torch.aten.gt.Scalar", [rows.with_dtype("i1").ir_type()], [tag, int_constant(0)]).result
    group = create("torch.aten.sub.Scalar", [rows.ir_type()], [tag, int_constant(1), int_constant(1)]).result
    group = create("torch.aten.clamp", [rows.ir_type()], [group, int_constant(0), none_constant()]).result
    indices = create("torch.prim.ListConstruct", [ir.Type.parse("!torch.list<optional<vtensor>>")], [group]).result
    per_row = VTensor((s, k, m), dtype)
    weights = create("torch.aten.index.Tensor", [per_row.ir_type()], [w, indices]).result
    row = create("torch.aten.unsqueeze", [VTensor((s, 1, k), dtype).ir_type()], [x, int_constant(1)]).result
    product = create("torch.aten.bmm", [VTensor((s, 1, m), dtype).ir_type()], [row, weights]).result
    out = VTensor((s, m), dtype)
    product = create("torch.aten.squeeze.dim", [out.ir_type()], [product, int_constant(1)]).result
    some = create("torch.aten.unsqueeze", [VTensor((s, 1), "i1").ir_type()], [some, int_constant(1)]).result
    value = create("torch.aten.where.ScalarOther", [out.ir_type()], [some, product, float_constant(0.0)]).result
    return static_info_cast(value, out, plan.result)


@pattern("torch.operator")
def decompose_grouped_mm(op, rewriter):
    op = op.operation
    name = ir.StringAttr(op.attributes["name"]).value
    if name not in GROUPED_MM:
        return rewriter.fail(f"not {' nor '.join(GROUPED_MM)}")
    plan = plan_grouped_mm(op, name)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    with rewriter.ip, op.location:
        value = build_grouped_mm(*op.operands[:3], plan)
    rewriter.replace_op(op, [value])
    return True

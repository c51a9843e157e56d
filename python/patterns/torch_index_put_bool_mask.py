"""Patterns on ``torch.aten.index_put`` with a bool mask among its indices: forms whose shapes do not depend on
how many elements the mask selects.

torch-mlir turns the mask into ``nonzero(mask)`` (a data-dependent length) and a
scatter, which IREE's ``iree_linalg_ext.scatter`` refuses where the values have
a static length for that count (``x[mask] = feats``, a mask beside an integer
index). A mask after a ``None`` (``x[:, mask] = v``) is not decomposed at all.

``mask_put_as_where``: the mask the only tensor index, the values without a
count dim (or one of 1): ``where(mask, values, x)`` (``x + values`` where
accumulating), both viewed to ``x``'s rank. ``mask_as_positions``: a static
count ``L`` (an integer index's size, or the values' count dim): the mask
becomes the indices of its first ``L`` true elements, the k-th at flat position
``#{j : cumsum(mask)_j <= min(k, count - 1)}`` (one true element broadcasts, as
in torch), unravelled over the mask's dims; every position is in bounds.

Left alone, with the reason (its page lists each): indices, mask or values
that torch would reject or that are not ranked value tensors; more than one
mask; other indices not si64/si32 of rank <= 1; no static count for the
positions form (a dynamic one lowers stock); a bool ``x`` accumulated.
"""

from __future__ import annotations

from dataclasses import dataclass

from iree.compiler import ir

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import (
    SCALAR_TYPE,
    VTensor,
    bool_constant,
    compatible,
    constant_bool,
    create,
    dim_size,
    int_constant,
    int_list,
    is_none,
    none_constant,
    ranked_refusal,
    vtensor,
)

INDEX_DTYPES = ("si64", "si32")


@dataclass(frozen=True)
class MaskPut:
    """An ``index_put(x, indices, values, accumulate)`` whose indices hold one bool mask."""

    x: VTensor
    values: VTensor
    entries: tuple  # per index: None, or (value, VTensor)
    mask_entry: int  # the mask's place in the index list
    mask_offset: int  # the dim of x where the mask's dims start
    first: int  # the dim of x where the tensor indices start
    span: int  # how many dims of x the tensor indices cover
    adjacent: bool  # the tensor indices are one run (their broadcast dim stays in place)
    accumulate: bool

    @property
    def mask(self) -> VTensor:
        return self.entries[self.mask_entry][1]

    def count_dim(self) -> int | None:
        """The values' dim aligned with the indices' broadcast dim, or None where they do not reach it."""
        indexed_rank = self.x.rank - self.span + 1
        at = self.values.rank - (indexed_rank - (self.first if self.adjacent else 0))
        return at if at >= 0 else None


def plan_mask_put(op) -> MaskPut | str:
    """What ``op`` is, or why it is left alone."""
    if len(op.operands) != 4 or len(op.results) != 1:
        return "not index_put(self, indices, values, accumulate)"
    x, indices, values, accumulate = op.operands
    listed = defining_op(indices)
    if listed is None or listed.name != "torch.prim.ListConstruct":
        return "the indices are not a torch.prim.ListConstruct"
    acc = constant_bool(accumulate)
    if acc is None:
        return "accumulate is not a torch.constant.bool"
    xt, vt, rt = vtensor(x.type), vtensor(values.type), vtensor(op.results[0].type)
    why = ranked_refusal("self, the values or the result", (xt, vt, rt))
    if why is not None:
        return why
    entries = tuple(None if is_none(v) else (v, vtensor(v.type)) for v in listed.operands)
    if any(e is not None and e[1] is None for e in entries):
        return "an index is neither None nor a ranked !torch.vtensor"
    masks = [i for i, e in enumerate(entries) if e is not None and e[1].dtype == "i1"]
    if len(masks) != 1:
        return f"{len(masks)} bool masks among the indices (one handled)"
    if any(e is not None and i not in masks and e[1].dtype not in INDEX_DTYPES for i, e in enumerate(entries)):
        return "an index that is neither a bool mask nor si64/si32"
    if any(e is not None and i not in masks and e[1].rank > 1 for i, e in enumerate(entries)):
        return "an integer index of rank > 1 (the indexed shape would have more than one broadcast dim)"
    if vt.dtype != xt.dtype or rt != xt:
        return "values or result of another type than self (torch raises on a dtype mismatch)"
    if acc and xt.dtype == "i1":
        return "a bool self accumulated"
    # Which dims of x each index covers: a None or an integer index one, the mask its rank.
    dims, covered = 0, []
    for e in entries:
        width = e[1].rank if e is not None and e[1].dtype == "i1" else 1
        covered.append((dims, width))
        dims += width
    if dims > xt.rank:
        return f"the indices cover {dims} dims of a rank-{xt.rank} self (torch raises)"
    mask = entries[masks[0]][1]
    offset = covered[masks[0]][0]
    if mask.rank == 0:
        return "a 0-d mask"
    if not compatible(mask.with_dtype(xt.dtype), VTensor(xt.sizes[offset : offset + mask.rank], xt.dtype)):
        return f"the mask {mask.ir_type()} is not sized as the dims of self it covers (torch raises)"
    tensors = [i for i, e in enumerate(entries) if e is not None]
    adjacent = tensors == list(range(tensors[0], tensors[-1] + 1))
    first = covered[tensors[0]][0]
    span = sum(covered[i][1] for i in tensors)
    plan = MaskPut(xt, vt, entries, masks[0], offset, first, span, adjacent, acc)
    if vt.rank > xt.rank - span + 1:
        return "values of more dims than the indexed shape"
    return plan


# --------------------------------------------------------------------------
# where(mask, values, x)
# --------------------------------------------------------------------------


def view_as(value, t: VTensor, sizes: list, shape: VTensor):
    """``value`` (type ``t``) viewed as ``sizes`` (ints or ``!torch.int``), typed ``shape``; itself if equal."""
    if t == shape:
        return value
    return create("torch.aten.view", [shape.ir_type()], [value, int_list(sizes)]).result


def values_over_x(values, plan: MaskPut):
    """The values broadcastable against ``x``: the indexed shape's count dim replaced by the mask's rank of
    unit dims, missing leading dims as 1."""
    vt, x, r, p = plan.values, plan.x, plan.mask.rank, plan.first
    lead = (x.rank - r + 1) - vt.rank  # leading dims of the indexed shape the values lack
    sizes, static = [], []
    for d in range(x.rank):
        at = (d if d < p else 0 if d < p + r else d - r + 1) - lead
        if p <= d < p + r or at < 0:
            sizes.append(1)
            static.append(1)
        else:
            sizes.append(dim_size(values, vt, at))
            static.append(vt.sizes[at])
    return view_as(values, vt, sizes, VTensor(tuple(static), vt.dtype))


def mask_over_x(mask, plan: MaskPut):
    """The mask viewed at its dims of ``x``, unit dims elsewhere."""
    mt, x, p = plan.mask, plan.x, plan.mask_offset
    sizes = [dim_size(mask, mt, d - p) if p <= d < p + mt.rank else 1 for d in range(x.rank)]
    static = tuple(mt.sizes[d - p] if p <= d < p + mt.rank else 1 for d in range(x.rank))
    return view_as(mask, mt, sizes, VTensor(static, "i1"))


@pattern("torch.aten.index_put")
def mask_put_as_where(op, rewriter):
    op = op.operation
    plan = plan_mask_put(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    if sum(e is not None for e in plan.entries) != 1:
        return rewriter.fail("indices besides the mask (the positions form takes them)")
    at = plan.count_dim()
    if at is not None and plan.values.sizes[at] != 1:
        return rewriter.fail("the values carry the count dim (the positions form takes a static one)")
    x, _, values, _ = op.operands
    with rewriter.ip, op.location:
        mask = mask_over_x(plan.entries[plan.mask_entry][0], plan)
        put = values_over_x(values, plan)
        if plan.accumulate:
            put = create("torch.aten.add.Tensor", [plan.x.ir_type()], [x, put, int_constant(1)]).result
        new = create("torch.aten.where.self", [plan.x.ir_type()], [mask, put, x])
    rewriter.replace_op(op, new)
    return True


# --------------------------------------------------------------------------
# the mask as integer indices of a static count
# --------------------------------------------------------------------------


def static_count(plan: MaskPut) -> int | str:
    """``L``, the number of selected elements a valid program has, or why it is not static."""
    lengths = {
        e[1].sizes[0] for i, e in enumerate(plan.entries) if e is not None and i != plan.mask_entry and e[1].rank
    }
    if None in lengths:
        return "an integer index of dynamic size"
    lengths -= {1}
    at = plan.count_dim()
    count = plan.values.sizes[at] if at is not None else None
    if len(lengths) > 1 or (lengths and count not in (None, 1, *lengths)):
        return "indices and values that do not broadcast (torch raises)"
    if lengths:
        return lengths.pop()
    if count is not None and count > 1:
        return count
    return "no static length for the count (stock lowers a dynamic one; the where form takes a broadcast)"


def positions(mask, mt: VTensor, length: int):
    """The flat positions of the mask's first ``length`` true elements (the last repeated where it has one
    true element), as ``[length]`` si64: ``#{j : cumsum_j <= min(k, count - 1)}``."""
    m = 1
    for s in mt.sizes:
        m = None if m is None or s is None else m * s
    flat = VTensor((m,), "i1")
    if mt.rank != 1:
        mask = create("torch.aten.view", [flat.ir_type()], [mask, int_list([-1])]).result
    ones = create("torch.prims.convert_element_type", [flat.with_dtype("si64").ir_type()], [mask, int_constant(4)])
    cumsum = create(
        "torch.aten.cumsum", [flat.with_dtype("si64").ir_type()], [ones.result, int_constant(0), none_constant()]
    )
    count = create("torch.aten.sum", [VTensor((), "si64").ir_type()], [ones.result, none_constant()]).result
    line = VTensor((length,), "si64")
    none = none_constant()
    ks = create(
        "torch.aten.arange",
        [line.ir_type()],
        [int_constant(length), int_constant(SCALAR_TYPE["si64"]), none, none, none],
    ).result
    last = create("torch.aten.sub.Scalar", [VTensor((), "si64").ir_type()], [count, int_constant(1), int_constant(1)])
    ks = create("torch.aten.minimum", [line.ir_type()], [ks, last.result]).result
    column = create("torch.aten.unsqueeze", [VTensor((length, 1), "si64").ir_type()], [ks, int_constant(1)]).result
    before = create("torch.aten.le.Tensor", [VTensor((length, m), "i1").ir_type()], [cumsum.result, column]).result
    return create(
        "torch.aten.sum.dim_IntList",
        [line.ir_type()],
        [before, int_list([1]), bool_constant(False), int_constant(SCALAR_TYPE["si64"])],
    ).result


def unravel(flat, mt: VTensor, length: int) -> list:
    """The mask-dim coordinates of flat positions ``flat`` (``[length]`` si64); the mask's sizes static."""
    line = VTensor((length,), "si64").ir_type()
    coords, stride = [], 1
    for size in reversed(mt.sizes):
        c = (
            flat
            if stride == 1
            else create("torch.aten.floor_divide.Scalar", [line], [flat, int_constant(stride)]).result
        )
        if len(coords) < mt.rank - 1:
            c = create("torch.aten.remainder.Scalar", [line], [c, int_constant(size)]).result
        coords.insert(0, c)
        stride *= size
    return coords


@pattern("torch.aten.index_put")
def mask_as_positions(op, rewriter):
    op = op.operation
    plan = plan_mask_put(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    length = static_count(plan)
    if isinstance(length, str):
        return rewriter.fail(length)
    mt = plan.mask
    if mt.rank > 1 and None in mt.sizes:
        return rewriter.fail("a mask of rank > 1 with a dynamic size")
    x, _, values, accumulate = op.operands
    with rewriter.ip, op.location:
        flat = positions(plan.entries[plan.mask_entry][0], mt, length)
        coords = [flat] if mt.rank == 1 else unravel(flat, mt, length)
        items = []
        for i, e in enumerate(plan.entries):
            items.extend(coords if i == plan.mask_entry else [none_constant() if e is None else e[0]])
        listed = create("torch.prim.ListConstruct", [ir.Type.parse("!torch.list<optional<vtensor>>")], items).result
        new = create("torch.aten.index_put", [op.results[0].type], [x, listed, values, accumulate])
    rewriter.replace_op(op, new)
    return True

"""A ``memref.subview`` base folded into ``vector.gather``, keeping what a lane reads.

A gather lane reads the element ``idx[lane]`` places after its base indices
in the base's row-major logical order (``gather_to_load`` says why that is
IREE 3.13's meaning). ``fold_subview_into_gather`` folds a subview (no rank
reduction, static strides) where that order is the source's too: a rank-1
subview (base index ``offset + stride * o0``, ``index`` lanes scaled by the
stride), a subview of whole rows with unit strides (only the outer offset
moves), and a single lane through any such subview (its position
delinearized over the subview and mapped to the source). Several lanes
through partial rows may cross rows and are left alone.
``fold-memref-alias-ops`` has no rule for gathers: without this the subview
survives into later lowerings.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import affine, arith, vector

from ..authoring import pattern
from .gather_to_load import delinearize, dim_sizes, linearize, splat
from .ir_utils import DYNAMIC, defining_op, gather_parts, operand_segments


def _subview_parts(sv):
    """(source, offsets, strides) with dynamic entries as Values, or None."""
    static_off = list(ir.DenseI64ArrayAttr(sv.attributes["static_offsets"]))
    static_sizes = list(ir.DenseI64ArrayAttr(sv.attributes["static_sizes"]))
    static_str = list(ir.DenseI64ArrayAttr(sv.attributes["static_strides"]))
    seg = operand_segments(sv)
    operands = list(sv.operands)
    source = operands[0]
    dyn_off = operands[1 : 1 + seg[1]]
    offsets = []
    it = iter(dyn_off)
    for o in static_off:
        offsets.append(next(it) if o == DYNAMIC else o)
    if any(s == DYNAMIC for s in static_str):
        return None
    if len(static_sizes) != source.type.rank or sv.results[0].type.rank != source.type.rank:
        return None  # rank-reducing
    return source, offsets, static_str


def _affine(index, stride: int, offset):
    """``offset + stride * index`` with affine.apply (offset an int or a Value)."""
    if isinstance(offset, int):
        if offset == 0 and stride == 1:
            return index
        expr = ir.AffineDimExpr.get(0) * stride + offset
        return affine.apply(ir.AffineMap.get(1, 0, [expr]), [index])
    expr = ir.AffineDimExpr.get(0) * stride + ir.AffineSymbolExpr.get(0)
    return affine.apply(ir.AffineMap.get(1, 1, [expr]), [index, offset])


def _whole_rows(sv, source, offsets, strides) -> bool:
    """The subview takes whole rows: inner offsets 0, inner sizes full, unit strides."""
    sizes = list(ir.DenseI64ArrayAttr(sv.attributes["static_sizes"]))
    st = source.type
    if any(s != 1 for s in strides):
        return False
    for d in range(1, st.rank):
        if offsets[d] != 0 or st.is_dynamic_dim(d) or sizes[d] != st.get_dim_size(d):
            return False
    return True


@pattern("vector.gather")
def fold_subview_into_gather(op, rewriter):
    op = op.operation
    base, indices, idx, mask, pass_thru = gather_parts(op)
    sv = defining_op(base)
    if sv is None or sv.name != "memref.subview":
        return rewriter.fail("the base is not a memref.subview")
    parts = _subview_parts(sv)
    if parts is None:
        return rewriter.fail("the subview has a dynamic stride or reduces rank")
    source, offsets, strides = parts
    rank = source.type.rank
    lanes = 1
    for d in idx.type.shape:
        lanes *= d
    if rank == 1:
        if strides[0] != 1 and not isinstance(idx.type.element_type, ir.IndexType):
            return rewriter.fail("scaling a narrow integer index vector by the stride could wrap")
        with rewriter.ip, op.location:
            new_indices = [_affine(indices[0], strides[0], offsets[0])]
            new_idx = idx
            if strides[0] != 1:
                new_idx = arith.muli(idx, splat(idx.type, strides[0]))
            new = vector.gather(op.results[0].type, source, new_indices, new_idx, mask, pass_thru)
    elif _whole_rows(sv, source, offsets, strides):
        with rewriter.ip, op.location:
            new_indices = [_affine(indices[0], 1, offsets[0])] + list(indices[1:])
            new = vector.gather(op.results[0].type, source, new_indices, idx, mask, pass_thru)
    elif lanes == 1:
        with rewriter.ip, op.location:
            sizes = dim_sizes(base)
            lane = vector.extract(idx, [], [0] * idx.type.rank)
            if lane.type != ir.IndexType.get():
                lane = arith.index_cast(ir.IndexType.get(), lane)
            pos = delinearize(arith.addi(linearize(list(indices), sizes), lane), sizes)
            new_indices = [_affine(p, st, off) for p, st, off in zip(pos, strides, offsets)]
            new = vector.gather(op.results[0].type, source, new_indices, splat(idx.type, 0), mask, pass_thru)
    else:
        return rewriter.fail("several lanes through a subview of partial rows could cross rows")
    rewriter.replace_op(op, [new])
    return True

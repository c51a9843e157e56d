"""Patterns on ``vector.gather`` over memrefs: contiguous gathers, and subviews.

``vector.gather %base[%i0, ..., %ik] [%idx], %mask, %pass`` reads, for each
lane l, ``base[%i0, ..., %ik + idx[l]]`` where the mask is set and
``pass[l]`` elsewhere; the index vector offsets the innermost dimension.

* ``gather_to_load``: when ``idx`` is contiguous, ``[k, k+1, ..., k+n-1]``
  (``vector.step``, a constant range, ``step + broadcast(s)`` in either
  operand order and through ``arith.addi`` chains), the gather reads n
  consecutive elements: a ``vector.load`` at ``%ik + k`` when the mask is all
  true (a splat ``true`` constant or a ``vector.constant_mask`` covering every
  lane), a ``vector.maskedload`` with the pass-through otherwise. A 2-D gather
  whose index vector broadcasts one contiguous row to every row reads the same
  row each time: one load, broadcast. The innermost stride of the base must
  be 1 (its layout is checked); tensor bases, non-unit innermost strides and
  non-contiguous indices are left alone. Upstream canonicalization does this
  only for exactly ``[0, ..., n-1]``.
* ``fold_subview_into_gather``: a gather whose base is a ``memref.subview``
  (static or dynamic offsets, static strides, no rank reduction) reads the
  subview's source instead, at ``offset + stride * index`` per dimension
  (``affine.apply``); a non-unit innermost stride scales the index vector.
  ``fold-memref-alias-ops`` has no rule for gathers, so without this the
  subview survives into later lowerings.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import affine, arith, vector

from opt_py import pattern

DYNAMIC = -9223372036854775808  # ShapedType::kDynamic


def _op(value):
    owner = value.owner
    op = getattr(owner, "operation", owner)
    return op if isinstance(op, ir.Operation) else None


def _gather_parts(op):
    """(base, base indices, index vector, mask, pass-through) of a gather."""
    ops = list(op.operands)
    return ops[0], ops[1:-3], ops[-3], ops[-2], ops[-1]


# --------------------------------------------------------------------------
# Recognizing index vectors
# --------------------------------------------------------------------------


def _uniform(value):
    """The scalar terms of a vector whose lanes are all equal, or None.

    A term is an ``int`` or a scalar index ``Value``; the lanes equal their sum.
    """
    op = _op(value)
    if op is None:
        return None
    if op.name == "vector.broadcast" and not isinstance(op.operands[0].type, ir.VectorType):
        return [op.operands[0]]
    if op.name == "arith.constant":
        attr = op.attributes["value"]
        if isinstance(attr, ir.DenseIntElementsAttr) and attr.is_splat:
            return [ir.IntegerAttr(attr.get_splat_value()).value]
    if op.name == "arith.addi":
        a, b = _uniform(op.operands[0]), _uniform(op.operands[1])
        if a is not None and b is not None:
            return a + b
    return None


def contiguous_start(value):
    """Terms of k when ``value`` is the 1-D vector [k, k+1, ..., k+n-1], else None."""
    vt = value.type
    if not isinstance(vt, ir.VectorType) or vt.rank != 1 or vt.scalable:
        return None
    op = _op(value)
    if op is None:
        return None
    if op.name == "vector.step":
        return [0]
    if op.name == "arith.constant":
        attr = op.attributes["value"]
        if not isinstance(attr, ir.DenseIntElementsAttr):
            return None
        values = [int(v) for v in attr] if not attr.is_splat else [ir.IntegerAttr(attr.get_splat_value()).value] * vt.shape[0]
        if all(v == values[0] + i for i, v in enumerate(values)):
            return [values[0]]
        return None
    if op.name == "arith.addi":
        for ramp, other in ((0, 1), (1, 0)):
            start = contiguous_start(op.operands[ramp])
            if start is None:
                continue
            shift = _uniform(op.operands[other])
            if shift is not None:
                return start + shift
    return None


def row_broadcast_start(value):
    """Terms of k when a 2-D index vector repeats one contiguous row in every row."""
    vt = value.type
    if not isinstance(vt, ir.VectorType) or vt.rank != 2:
        return None
    op = _op(value)
    if op is None or op.name != "vector.broadcast":
        return None
    src = op.operands[0]
    if not isinstance(src.type, ir.VectorType) or src.type.shape != [vt.shape[1]]:
        return None
    return contiguous_start(src)


def all_true(mask) -> bool:
    op = _op(mask)
    if op is None:
        return False
    if op.name == "arith.constant":
        attr = op.attributes["value"]
        return isinstance(attr, ir.DenseIntElementsAttr) and attr.is_splat and bool(
            ir.IntegerAttr(attr.get_splat_value()).value)
    if op.name == "vector.constant_mask":
        sizes = list(ir.DenseI64ArrayAttr(op.attributes["mask_dim_sizes"]))
        return sizes == list(mask.type.shape)
    return False


def unit_innermost_stride(memref_type) -> bool:
    if not isinstance(memref_type, ir.MemRefType) or memref_type.rank == 0:
        return False
    strides, _ = memref_type.get_strides_and_offset()
    return strides[-1] == 1


def _index_sum(base, terms):
    """``base + sum(terms)`` as index arithmetic (at the current insertion point)."""
    const = sum(t for t in terms if isinstance(t, int))
    result = base
    for t in terms:
        if not isinstance(t, int):
            result = arith.addi(result, t)
    if const:
        result = arith.addi(result, arith.constant(ir.IndexType.get(), const))
    return result


# --------------------------------------------------------------------------
# gather -> load
# --------------------------------------------------------------------------


@pattern("vector.gather")
def gather_to_load(op, rewriter):
    op = op.operation
    base, indices, idx, mask, pass_thru = _gather_parts(op)
    if not isinstance(base.type, ir.MemRefType):
        return rewriter.fail("the base is not a memref")
    if not unit_innermost_stride(base.type):
        return rewriter.fail("the base's innermost stride is not 1")
    result_type = op.results[0].type
    start = contiguous_start(idx)
    if start is not None:
        with rewriter.ip, op.location:
            at = indices[:-1] + [_index_sum(indices[-1], start)]
            if all_true(mask):
                new = vector.load(result_type, base, at)
            else:
                new = vector.maskedload(result_type, base, at, mask, pass_thru)
        rewriter.replace_op(op, [new])
        return True
    start = row_broadcast_start(idx)
    if start is not None:
        if not all_true(mask):
            return rewriter.fail("a 2-D gather with a partial mask is left alone")
        row = ir.VectorType.get([result_type.shape[1]], result_type.element_type)
        with rewriter.ip, op.location:
            at = indices[:-1] + [_index_sum(indices[-1], start)]
            new = vector.broadcast(result_type, vector.load(row, base, at))
        rewriter.replace_op(op, [new])
        return True
    return rewriter.fail("the index vector is not contiguous")


# --------------------------------------------------------------------------
# subview -> gather
# --------------------------------------------------------------------------


def _subview_parts(sv):
    """(source, offsets, strides) with dynamic entries as Values, or None."""
    static_off = list(ir.DenseI64ArrayAttr(sv.attributes["static_offsets"]))
    static_sizes = list(ir.DenseI64ArrayAttr(sv.attributes["static_sizes"]))
    static_str = list(ir.DenseI64ArrayAttr(sv.attributes["static_strides"]))
    seg = list(ir.DenseI32ArrayAttr(sv.attributes["operandSegmentSizes"]))
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


@pattern("vector.gather")
def fold_subview_into_gather(op, rewriter):
    op = op.operation
    base, indices, idx, mask, pass_thru = _gather_parts(op)
    sv = _op(base)
    if sv is None or sv.name != "memref.subview":
        return rewriter.fail("the base is not a memref.subview")
    parts = _subview_parts(sv)
    if parts is None:
        return rewriter.fail("the subview has a dynamic stride or reduces rank")
    source, offsets, strides = parts
    with rewriter.ip, op.location:
        new_indices = []
        for i, off, stride in zip(indices, offsets, strides):
            if isinstance(off, int):
                expr = ir.AffineDimExpr.get(0) * stride + off
                new_indices.append(affine.apply(ir.AffineMap.get(1, 0, [expr]), [i]))
            else:
                expr = ir.AffineDimExpr.get(0) * stride + ir.AffineSymbolExpr.get(0)
                new_indices.append(affine.apply(ir.AffineMap.get(1, 1, [expr]), [i, off]))
        new_idx = idx
        if strides[-1] != 1:
            factor = arith.constant(idx.type, ir.DenseElementsAttr.get_splat(
                idx.type, ir.IntegerAttr.get(idx.type.element_type, strides[-1])))
            new_idx = arith.muli(idx, factor)
        new = vector.gather(op.results[0].type, source, new_indices, new_idx, mask, pass_thru)
    rewriter.replace_op(op, [new])
    return True

"""Contiguous ``vector.gather`` over memrefs becomes ``vector.load`` / ``vector.maskedload``.

``vector.gather %base[%o0, ..., %ok] [%idx], %mask, %pass`` reads, per lane,
the element ``idx[lane]`` places after ``base[%o0, ..., %ok]`` in the base's
row-major logical order, a lane possibly running past the end of a row: that
is how IREE 3.13 lowers gathers and what its vectorizer relies on, and every
rewrite here keeps that meaning. ``gather_to_load``: when ``idx`` is provably
``[k, ..., k+n-1]`` (``contiguous_start``), the gather reads n consecutive
elements; it loads them at ``%o0 + k`` (rank 1), at the delinearized position
(one lane), or through a 1-D ``memref.collapse_shape`` of a row-major
contiguous base. Several lanes over a non-contiguous base may cross rows and
are left alone. The helpers that delinearize and splat are shared with
``fold_subview_into_gather``; docs/passes/gather-to-load.md lists every form.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, vector

from ..authoring import pattern
from .ir_utils import DYNAMIC, defining_op, gather_parts, index_constant

# --------------------------------------------------------------------------
# Recognizing index vectors
# --------------------------------------------------------------------------


def _uniform(value):
    """The scalar terms of a vector whose lanes are all equal, or None.

    A term is an ``int`` or a scalar index ``Value``; the lanes equal their sum.
    """
    op = defining_op(value)
    if op is None:
        return None
    if op.name == "vector.broadcast":
        src = op.operands[0]
        if not isinstance(src.type, ir.VectorType):
            return [src]
        if _elements(src.type) == 1:
            return [("lane0", src)]  # its one lane, read when the rewrite happens
    if op.name == "arith.constant":
        attr = op.attributes["value"]
        if isinstance(attr, ir.DenseIntElementsAttr) and attr.is_splat:
            return [ir.IntegerAttr(attr.get_splat_value()).value]
    if op.name == "arith.addi":
        a, b = _uniform(op.operands[0]), _uniform(op.operands[1])
        if a is not None and b is not None:
            return a + b
    return None


def _elements(vt) -> int:
    n = 1
    for d in vt.shape:
        n *= d
    return n


def _row_like(vt) -> bool:
    """A vector whose dims are all 1 but the last: [1, ..., 1, n]."""
    return isinstance(vt, ir.VectorType) and not vt.scalable and vt.rank >= 1 and all(d == 1 for d in vt.shape[:-1])


def contiguous_start(value):
    """Terms of k when ``value`` is [k, k+1, ..., k+n-1] (shaped [1, ..., 1, n]), else None."""
    vt = value.type
    if not _row_like(vt):
        return None
    if _elements(vt) == 1:
        return [("lane0", value)]  # one lane: contiguous whatever it holds
    op = defining_op(value)
    if op is None:
        return None
    if op.name == "vector.step":
        return [0]
    if op.name in ("vector.shape_cast", "vector.broadcast"):
        src = op.operands[0]
        if _row_like(src.type) and src.type.shape[-1] == vt.shape[-1]:
            return contiguous_start(src)
        return None
    if op.name == "arith.constant":
        attr = op.attributes["value"]
        if not isinstance(attr, ir.DenseIntElementsAttr) or attr.is_splat:
            return None
        values = [int(v) for v in attr]
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
    op = defining_op(value)
    if op is None or op.name != "vector.broadcast":
        return None
    src = op.operands[0]
    if not isinstance(src.type, ir.VectorType) or src.type.shape != [vt.shape[1]]:
        return None
    return contiguous_start(src)


def all_true(mask) -> bool:
    op = defining_op(mask)
    if op is None:
        return False
    if op.name == "arith.constant":
        attr = op.attributes["value"]
        return (
            isinstance(attr, ir.DenseIntElementsAttr)
            and attr.is_splat
            and bool(ir.IntegerAttr(attr.get_splat_value()).value)
        )
    if op.name == "vector.constant_mask":
        sizes = list(ir.DenseI64ArrayAttr(op.attributes["mask_dim_sizes"]))
        return sizes == list(mask.type.shape)
    return False


def _strides(memref_type):
    """The memref's strides, or None when its layout is not strided (a general affine map)."""
    try:
        return memref_type.get_strides_and_offset()[0]
    except RuntimeError:
        return None


def unit_innermost_stride(memref_type) -> bool:
    if not isinstance(memref_type, ir.MemRefType) or memref_type.rank == 0:
        return False
    strides = _strides(memref_type)
    return strides is not None and strides[-1] == 1


def contiguous(memref_type) -> bool:
    """Row-major contiguous (any offset): collapsible to 1-D, lanes may cross rows."""
    layout = memref_type.layout
    if isinstance(layout, ir.AffineMapAttr) and layout.value == ir.AffineMap.get_identity(memref_type.rank):
        return True
    strides = _strides(memref_type)
    if strides is None:
        return False
    expected = 1
    for d in reversed(range(memref_type.rank)):
        if strides[d] != expected:
            return False
        if d > 0:
            if memref_type.is_dynamic_dim(d):
                return False
            expected *= memref_type.get_dim_size(d)
    return True


def _collapsed_type(memref_type):
    rank = memref_type.rank
    static = all(not memref_type.is_dynamic_dim(d) for d in range(rank))
    total = 1
    for d in range(rank):
        total *= memref_type.get_dim_size(d) if static else 1
    _, offset = memref_type.get_strides_and_offset()
    layout = None if offset == 0 else ir.StridedLayoutAttr.get(offset, [1])
    return ir.MemRefType.get(
        [total if static else DYNAMIC], memref_type.element_type, layout=layout, memory_space=memref_type.memory_space
    )


def _lane_value(t):
    if isinstance(t, tuple):  # ("lane0", v): the only lane of a one-element vector
        return vector.extract(t[1], [], [0] * t[1].type.rank)
    return t


def _index_sum(base, terms):
    """``base + sum(terms)`` as index arithmetic (at the current insertion point)."""
    const = sum(t for t in terms if isinstance(t, int))
    result = base
    for t in terms:
        if not isinstance(t, int):
            result = arith.addi(result, _lane_value(t))
    if const:
        result = arith.addi(result, index_constant(const))
    return result


def splat(vector_type, v: int):
    """A constant integer vector with every lane ``v``."""
    return arith.constant(
        vector_type, ir.DenseElementsAttr.get_splat(vector_type, ir.IntegerAttr.get(vector_type.element_type, v))
    )


def dim_sizes(base):
    t = base.type
    return [
        memref.dim(base, index_constant(d)) if t.is_dynamic_dim(d) else index_constant(t.get_dim_size(d))
        for d in range(t.rank)
    ]


def linearize(indices, sizes):
    linear = indices[0]
    for i, size in zip(indices[1:], sizes[1:]):
        linear = arith.addi(arith.muli(linear, size), i)
    return linear


def delinearize(linear, sizes):
    out = []
    for size in reversed(sizes[1:]):
        out.append(arith.remui(linear, size))
        linear = arith.divui(linear, size)
    out.append(linear)
    return list(reversed(out))


def _flat(v):
    """A [1, ..., 1, n] vector as a 1-D one."""
    if v.type.rank == 1:
        return v
    return vector.shape_cast(ir.VectorType.get([v.type.shape[-1]], v.type.element_type), v)


def _load(row_type, base, at, mask, pass_thru):
    if all_true(mask):
        return vector.load(row_type, base, at)
    return vector.maskedload(row_type, base, at, _flat(mask), _flat(pass_thru))


def _load_lanes(base, indices, start, lanes, mask, pass_thru, element_type):
    """Load ``lanes`` elements from logical position ``indices + start``; None if unsafe."""
    row_type = ir.VectorType.get([lanes], element_type)
    rank = base.type.rank
    if rank == 1:
        return _load(row_type, base, [_index_sum(indices[0], start)], mask, pass_thru)
    if start == [0] and (lanes == 1 or contiguous(base.type)):
        # The first lane is the base position itself (upstream's own rewrite).
        return _load(row_type, base, list(indices), mask, pass_thru)
    if lanes == 1:
        sizes = dim_sizes(base)
        at = delinearize(_index_sum(linearize(list(indices), sizes), start), sizes)
        return _load(row_type, base, at, mask, pass_thru)
    if contiguous(base.type):
        sizes = dim_sizes(base)
        flat = memref.collapse_shape(_collapsed_type(base.type), base, [list(range(rank))])
        pos = _index_sum(linearize(list(indices), sizes), start)
        return _load(row_type, flat, [pos], mask, pass_thru)
    return None


@pattern("vector.gather")
def gather_to_load(op, rewriter):
    op = op.operation
    base, indices, idx, mask, pass_thru = gather_parts(op)
    if not isinstance(base.type, ir.MemRefType):
        return rewriter.fail("the base is not a memref")
    if not unit_innermost_stride(base.type):
        return rewriter.fail("the base's innermost stride is not 1 (or its layout is not strided)")
    if not isinstance(idx.type.element_type, ir.IndexType):
        # Lanes of a narrower integer type wrap where index arithmetic would not.
        return rewriter.fail("the index vector's elements are not of type index")
    result_type = op.results[0].type
    lanes = result_type.shape[-1]
    start = contiguous_start(idx)
    broadcast_rows = False
    if start is None:
        start = row_broadcast_start(idx)
        if start is None:
            return rewriter.fail("the index vector is not contiguous")
        if not all_true(mask):
            return rewriter.fail("a 2-D gather with a partial mask is left alone")
        broadcast_rows = True
    if lanes > 1 and base.type.rank > 1 and not contiguous(base.type):
        return rewriter.fail("several lanes over a non-contiguous multi-dimensional base may cross rows")
    with rewriter.ip, op.location:
        loaded = _load_lanes(base, indices, start, lanes, mask, pass_thru, result_type.element_type)
        if broadcast_rows:
            new = vector.broadcast(result_type, loaded)
        else:
            new = loaded if result_type.rank == 1 else vector.shape_cast(result_type, loaded)
    rewriter.replace_op(op, [new])
    return True

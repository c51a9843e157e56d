"""An argsort keeping only the indices: sort them alone, the comparator reading the values.

Root cause (IREE #24735). A sort is in place on all its outs. Dispatch
creation makes only used results outputs, so the values of a sort whose
indices alone are used enter the dispatch read-only, and bufferization copies
a tile of them to a private buffer: on llvm-cpu a stack allocation of whole
sorted rows times up to MAX_TILE along each other dim. A dynamic length makes
it unbounded, a long row passes the stack limit (and sort-drop-unused-results'
GPU copy, sized by a bound of 2^53 elements, makes it a 2^55-byte one).

``sort_indices_only`` sorts only a payload p, each element's position, the
comparator reading the values at p (``tensor.extract``: a read, no copy).
Both sorts start alike and each comparison sees the same operands, so every
answer and every move is the same: the permutation is the original one
whatever the algorithm and the comparator (strict, NaN, reading the indices).
Rank > 1: p is the i64 row-major position in the values collapsed, transposed
first when the sorted dim is not innermost; the indices are p mod its size,
cast as the iota casts. Left alone: copies that fit the stack for any tile,
used values, indices that are not an iota along the sorted dim, other sorts.
Details and figures: docs/passes/argsort-indices-only.md.
"""

from __future__ import annotations

import re

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ..authoring import pattern
from .ir_utils import defining_op, has_uses, index_constant, operand_segments, reassociation

MAX_TILE = 64  # IREE's CPU distribution tile size bound (its default, clDefaultDistTileSize)
DEFAULT_STACK_LIMIT = 32768  # IREE's llvm-cpu max_stack_allocation_size by default
_STACK_LIMIT = re.compile(r"max_stack_allocation_size = (\d+)")


def iota_type(value, dim: int):
    """The integer type ``value`` holds its own index along ``dim`` in (an all-parallel
    ``linalg.generic`` with no inputs yielding ``arith.index_cast(linalg.index dim)``, possibly
    through a ``tensor.expand_shape`` adding unit dims around ``dim``, as IREE leaves a batch of 1),
    else None."""
    g = defining_op(value)
    if g is not None and g.name == "tensor.expand_shape":
        out = ir.RankedTensorType(value.type)
        for src_dim, group in enumerate(reassociation(g)):
            if dim in group:
                if any(out.is_dynamic_dim(d) or out.get_dim_size(d) != 1 for d in group if d != dim):
                    return None
                return iota_type(g.operands[0], src_dim)
        return None
    if g is None or g.name != "linalg.generic" or len(g.operands) != 1 or len(g.results) != 1:
        return None
    rank = ir.RankedTensorType(value.type).rank
    if ir.AffineMapAttr(ir.ArrayAttr(g.attributes["indexing_maps"])[0]).value != ir.AffineMap.get_identity(rank):
        return None
    if any("parallel" not in str(a) for a in ir.ArrayAttr(g.attributes["iterator_types"])):
        return None
    body = list(g.regions[0].blocks[0].operations)
    if [o.name for o in body] != ["linalg.index", "arith.index_cast", "linalg.yield"]:
        return None
    index, cast, yld = body
    if ir.IntegerAttr(index.attributes["dim"]).value != dim or cast.operands[0] != index.results[0]:
        return None
    if yld.operands[0] != cast.results[0] or not isinstance(cast.results[0].type, ir.IntegerType):
        return None
    return cast.results[0].type


def _refusal(op):
    """Why ``op`` is not an argsort whose values are unused, or None."""
    if len(op.results) != 2 or len(op.operands) != 2 or operand_segments(op) != [0, 2]:
        return "not a tensor sort of two outs (values and indices)"
    if has_uses(op.results[0]):
        return "the sorted values are used"
    if not has_uses(op.results[1]):
        return "the indices are unused"
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    if iota_type(op.operands[1], dim) is None:
        return "the indices are not an iota along the sorted dimension"
    copy = copy_bound(ir.RankedTensorType(op.operands[0].type), dim)
    limit = stack_limit(op)
    if copy is not None and copy <= limit:
        return f"the values' private copy fits the stack ({copy} <= {limit} bytes for any tile)"
    return None


def copy_bound(vt, dim: int):
    """The most bytes IREE's CPU code may copy the values of a tile into: whole rows along ``dim``
    times at most MAX_TILE along each other dim. None when unbounded (a dynamic sorted length)."""
    if vt.is_dynamic_dim(dim):
        return None
    bits = _bits(vt.element_type)
    if bits is None:
        return None
    n = vt.get_dim_size(dim) * ((bits + 7) // 8)
    for d in range(vt.rank):
        if d != dim:
            n *= MAX_TILE if vt.is_dynamic_dim(d) else min(vt.get_dim_size(d), MAX_TILE)
    return n


def _bits(t):
    if isinstance(t, ir.IndexType):
        return 64
    width = getattr(t, "width", None)  # integer and float types
    return width if isinstance(width, int) else None


def stack_limit(op) -> int:
    """The smallest ``max_stack_allocation_size`` of the targets named in ``op``'s module,
    IREE's llvm-cpu default where none is."""
    top = op
    while top.parent is not None:
        top = top.parent
    names = [a if isinstance(a, str) else a.name for a in top.attributes]  # names or NamedAttributes
    texts = [str(top.attributes[n]) for n in names]
    for o in top.regions[0].blocks[0].operations if top.regions else ():
        if o.operation.name == "util.global" and "initial_value" in o.operation.attributes:
            texts.append(str(o.operation.attributes["initial_value"]))
    found = [int(n) for t in texts for n in _STACK_LIMIT.findall(t)]
    return min(found, default=DEFAULT_STACK_LIMIT)


@pattern("iree_linalg_ext.sort")
def sort_indices_only(op, rewriter):
    op = op.operation
    reason = _refusal(op)
    if reason:
        return rewriter.fail(reason)
    values, iota = op.operands
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    rank = ir.RankedTensorType(values.type).rank
    index_t = iota_type(iota, dim)
    i64 = ir.IntegerType.get_signless(64)
    perm = [d for d in range(rank) if d != dim] + [dim]  # the sorted dimension innermost
    reuse = rank == 1 and index_t == i64  # the iota is already the payload
    with rewriter.ip, op.location:
        sizes = _sizes(values)
        inner = values if perm == list(range(rank)) else _transpose(values, perm, sizes)
        flat = inner if rank == 1 else _collapse(inner)
        payload = iota if reuse else _linear_iota(ir.RankedTensorType(inner.type).shape, [sizes[d] for d in perm])
        new = ir.Operation.create(
            "iree_linalg_ext.sort",
            results=[payload.type],
            operands=[payload],
            attributes={
                "dimension": ir.IntegerAttr.get(i64, rank - 1),
                "operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 1]),
            },
            regions=1,
        )
    block = op.regions[0].blocks[0]
    _read_values_through_payload(block, flat, index_t, sizes[dim], reuse)
    block.append_to(new.regions[0])
    indices = new.results[0]
    if not reuse:
        with rewriter.ip, op.location:
            indices = _indices_of(indices, ir.RankedTensorType(iota.type), perm, sizes)
    # The values result has no uses; any value of its type stands in.
    rewriter.replace_op(op, [values, indices])
    return True


def _sizes(value) -> list:
    """Each dim of ``value``: an int where static, a ``tensor.dim`` where dynamic."""
    ty = ir.RankedTensorType(value.type)
    return [
        tensor.dim(value, index_constant(d)) if ty.is_dynamic_dim(d) else ty.get_dim_size(d) for d in range(ty.rank)
    ]


def _as_index(size):
    return index_constant(size) if isinstance(size, int) else size


def _transpose(values, perm, sizes):
    """``values`` with its dims in the order ``perm``."""
    vt = ir.RankedTensorType(values.type)
    empty = tensor.empty([sizes[d] for d in perm], vt.element_type)
    return linalg.transpose(values, outs=[empty], permutation=perm).results[0]


def _collapse(values):
    """``values`` as one dimension, row-major."""
    vt = ir.RankedTensorType(values.type)
    n = ir.ShapedType.get_dynamic_size() if not vt.has_static_shape else vt.get_dim_size(0)
    if vt.has_static_shape:
        for d in range(1, vt.rank):
            n *= vt.get_dim_size(d)
    flat_t = ir.RankedTensorType.get([n], vt.element_type)
    return tensor.collapse_shape(flat_t, values, [list(range(vt.rank))])


def _parallel(out_t, sizes, ins, in_maps, body):
    """A ``linalg.generic`` over ``out_t`` (dims ``sizes``) reading ``ins`` by ``in_maps``; ``body(args)`` yields."""
    rank = out_t.rank
    empty = tensor.empty(sizes, out_t.element_type)
    maps = [ir.AffineMapAttr.get(m) for m in in_maps] + [ir.AffineMapAttr.get(ir.AffineMap.get_identity(rank))]
    par = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    g = linalg.GenericOp([out_t], ins, [empty], ir.ArrayAttr.get(maps), ir.ArrayAttr.get([par] * rank))
    block = g.regions[0].blocks.append(*[ir.RankedTensorType(v.type).element_type for v in ins], out_t.element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([body(block.arguments)])
    return g.results[0]


def _linear_iota(shape, sizes):
    """An i64 tensor of ``shape`` (dims ``sizes``) holding each element's row-major position."""
    i64 = ir.IntegerType.get_signless(64)

    def position(_):
        pos = linalg.IndexOp(0).result
        for d in range(1, len(sizes)):
            pos = arith.addi(arith.muli(pos, _as_index(sizes[d])), linalg.IndexOp(d).result)
        return arith.index_cast(i64, pos)

    return _parallel(ir.RankedTensorType.get(shape, i64), sizes, [], [], position)


def _coordinate(p, size, index_t):
    """The index (as the iota casts it) of position ``p`` (i64) along the innermost dim of ``size``."""
    pos = arith.index_cast(ir.IndexType.get(), p)
    return arith.index_cast(index_t, arith.remui(pos, _as_index(size)))


def _read_values_through_payload(block, flat, index_t, size, reuse: bool):
    """Turn the comparator ``(a, b, i, j)`` into one over the payloads ``(p, q)``: a and b
    are read from ``flat`` at p and q, i and j are their indices (as the iota casts them)."""
    a, b, i, j = block.arguments
    if reuse:  # i and j are the payloads
        p, q = i, j
    else:
        p = block.add_argument(ir.IntegerType.get_signless(64), ir.Location.unknown())
        q = block.add_argument(ir.IntegerType.get_signless(64), ir.Location.unknown())
    with ir.InsertionPoint.at_block_begin(block), ir.Location.unknown():
        index = ir.IndexType.get()
        a.replace_all_uses_with(tensor.extract(flat, [arith.index_cast(index, p)]))
        b.replace_all_uses_with(tensor.extract(flat, [arith.index_cast(index, q)]))
        if not reuse:
            if has_uses(i):
                i.replace_all_uses_with(_coordinate(p, size, index_t))
            if has_uses(j):
                j.replace_all_uses_with(_coordinate(q, size, index_t))
    for n in (1, 0) if reuse else (3, 2, 1, 0):
        block.erase_argument(n)


def _indices_of(payload, iota_t, perm, sizes):
    """The indices the iota holds where each payload came from, in the iota's layout (``sizes``)."""
    read = ir.AffineMap.get(iota_t.rank, 0, [ir.AffineDimExpr.get(d) for d in perm])
    size = sizes[perm[-1]]
    return _parallel(iota_t, sizes, [payload], [read], lambda args: _coordinate(args[0], size, iota_t.element_type))

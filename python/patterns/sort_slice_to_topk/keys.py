"""The forms' building blocks: ordered integer keys, i64 composites, and the generics that read keys.

A float key becomes the signed integer whose order is the float order (NaN
above +inf, -0.0 equal to +0.0); a composite puts that key in the high half
of an i64 and an index part in the low half, so one integer compare orders
(key, index) as the sort does and distinct positions never tie. Values are
read back from the keys at the chosen indices, so each keeps its own bits.
Why these encodings are sound: docs/passes/sort-slice-to-topk.md.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ..ir_utils import DYNAMIC, index_constant
from .match import is_float_key, key_bits

# A composite's low half: LOW_DESC - index or index + LOW_ASC, for indices below INT32_MAX. Every
# composite then comes after BEFORE_ALL[order] (0x7FFFFFFF_7FFFFFFF above the largest,
# 0x80000000_80000000 below the smallest), which is a 4-byte pattern repeated.
LOW_DESC, LOW_ASC = 0x7FFFFFFE, 0x80000001
BEFORE_ALL = {"desc": 0x7FFFFFFF7FFFFFFF, "asc": -0x7FFFFFFF80000000}


def int_type(bits):
    return ir.IntegerType.get_signless(bits)


def maps(*dim_lists, rank):
    """Indexing maps over ``rank`` loops, each the listed loop dims."""
    return ir.ArrayAttr.get(
        [ir.AffineMapAttr.get(ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(d) for d in dims])) for dims in dim_lists]
    )


def iterators(kinds):
    return ir.ArrayAttr.get([ir.Attribute.parse(f"#linalg.iterator_type<{k}>") for k in kinds])


def dims_of(value):
    """``value``'s sizes: ints where static, tensor.dim where dynamic."""
    ty = ir.RankedTensorType(value.type)
    return [
        tensor.dim(value, index_constant(d)) if ty.is_dynamic_dim(d) else ty.get_dim_size(d) for d in range(ty.rank)
    ]


def sizes_with(source, dim, k):
    """``source``'s sizes with ``dim`` replaced by ``k``."""
    ty = ir.RankedTensorType(source.type)
    out = []
    for d in range(ty.rank):
        if d == dim:
            out.append(k)
        elif ty.is_dynamic_dim(d):
            out.append(tensor.dim(source, index_constant(d)))
        else:
            out.append(ty.get_dim_size(d))
    return out


def parallel_generic(ins, out_type, out_sizes, body):
    """A linalg.generic over ``out_type``'s shape, identity maps; ``body(block)`` yields."""
    ty = ir.RankedTensorType(out_type)
    empty = tensor.empty(out_sizes, ty.element_type)
    ident = ir.AffineMapAttr.get(ir.AffineMap.get_identity(ty.rank))
    par = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    g = linalg.GenericOp(
        [empty.type], ins, [empty], ir.ArrayAttr.get([ident] * (len(ins) + 1)), ir.ArrayAttr.get([par] * ty.rank)
    )
    block = g.regions[0].blocks.append(*[ir.RankedTensorType(v.type).element_type for v in ins], ty.element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([body(block)])
    return g.results[0]


def expand_at(reduced, keys, dim, elem):
    """``reduced`` (the keys' shape without ``dim``) with ``dim`` back as size 1."""
    kt = ir.RankedTensorType(keys.type)
    rank = kt.rank
    groups = [[e if e < dim else e + 1] for e in range(rank - 1)]
    if groups:
        if dim < rank - 1:
            groups[dim].insert(0, dim)
        else:
            groups[-1].append(dim)
    static = [1 if d == dim else (DYNAMIC if kt.is_dynamic_dim(d) else kt.get_dim_size(d)) for d in range(rank)]
    dynamic = [tensor.dim(keys, index_constant(d)) for d in range(rank) if d != dim and kt.is_dynamic_dim(d)]
    out = ir.RankedTensorType.get(static, elem)
    attr = ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(int_type(64), x) for x in g]) for g in groups])
    return tensor.expand_shape(out, reduced, attr, dynamic, static)


def barrier(value, like, dyn=None):
    """``value`` behind util.optimization_barrier, which IREE's dispatch formation does not fuse across;
    its dynamic sizes (``dyn``, else those of ``like``) re-attached by flow.tensor.tie_shape, since IREE
    cannot resolve tensor.dim through the barrier."""
    out = ir.Operation.create("util.optimization_barrier", results=[value.type], operands=[value]).results[0]
    ty = ir.RankedTensorType(value.type)
    if dyn is None:
        dyn = [tensor.dim(like, index_constant(d)) for d in range(ty.rank) if ty.is_dynamic_dim(d)]
    if not dyn:
        return out
    return ir.Operation.create("flow.tensor.tie_shape", results=[value.type], operands=[out, *dyn]).results[0]


def ordered_key(x):
    """The signed integer whose order is the float order of ``x``, NaN above +inf, -0.0 == +0.0.

    Adding +0.0 turns -0.0 into +0.0; every NaN becomes the positive quiet
    NaN; then flipping the magnitude bits of negative numbers makes the
    two's-complement order the numeric one.
    """
    ft = x.type
    bits = key_bits(ft)
    it = int_type(bits)
    zero = arith.constant(ft, 0.0)
    canon = arith.select(
        arith.cmpf(arith.CmpFPredicate.UNO, x, x), arith.constant(ft, float("nan")), arith.addf(x, zero)
    )
    raw = arith.bitcast(it, canon)
    sign = arith.shrsi(raw, arith.constant(it, bits - 1))
    return arith.xori(raw, arith.andi(sign, arith.constant(it, 2 ** (bits - 1) - 1)))


def ordered_keys(keys):
    """``ordered_key`` of every element (a parallel generic)."""
    kt = ir.RankedTensorType(keys.type)
    out = ir.RankedTensorType.get(kt.shape, int_type(key_bits(kt.element_type)))
    return parallel_generic([keys], out, dims_of(keys), lambda blk: ordered_key(blk.arguments[0]))


def composite(x, pos, order):
    """One i64 that orders (key, index) as the result must: the key above, the index below.

    Descending wants the larger key and then the lower index first, so the
    low half holds LOW_DESC - index and the larger composite wins; ascending
    holds index + LOW_ASC and the smaller composite wins. Distinct positions
    never tie, and with indices below INT32_MAX every composite comes after
    BEFORE_ALL[order] (before_all).
    """
    i64 = int_type(64)
    key = ordered_key(x) if is_float_key(x.type) else x
    if ir.IntegerType(key.type).width < 64:
        key = arith.extsi(i64, key)
    low = arith.index_cast(i64, pos)
    if order == "desc":
        low = arith.subi(arith.constant(i64, LOW_DESC), low)
    else:
        low = arith.addi(low, arith.constant(i64, LOW_ASC))
    return arith.ori(arith.shli(key, arith.constant(i64, 32)), low)


def decode(value, order, out_t):
    """The index a composite holds in its low 32 bits, as ``out_t``."""
    low = arith.trunci(int_type(32), value)
    if order == "desc":
        low = arith.subi(arith.constant(int_type(32), LOW_DESC), low)
    else:
        low = arith.subi(low, arith.constant(int_type(32), LOW_ASC - 2**32))  # mod 2^32
    return low if ir.IntegerType(out_t).width == 32 else arith.extui(out_t, low)


def worst_composite(order):
    """The i64 every composite beats: a reduction's initial value, and what a masked-out one becomes."""
    return arith.constant(int_type(64), -(2**63) if order == "desc" else 2**63 - 1)


def before_all(sizes, order):
    """A tensor of ``sizes`` holding BEFORE_ALL[order], read by round 0 as the later rounds read the
    previous winners, so that all rounds are one executable. Behind a barrier, so that the fill is not
    fused into round 0; the value repeats 4 bytes, so IREE fills it with no dispatch of its own."""
    fill = linalg.fill(arith.constant(int_type(64), BEFORE_ALL[order]), outs=[tensor.empty(sizes, int_type(64))])
    return barrier(fill, None, [x for x in sizes if not isinstance(x, int)])


def composites(keys, dims, dim, order):
    """The i64 composite of every key (one parallel generic; the only reader of linalg.index)."""
    return parallel_generic(
        [keys],
        ir.RankedTensorType.get(ir.RankedTensorType(keys.type).shape, int_type(64)),
        dims,
        lambda blk: composite(blk.arguments[0], linalg.IndexOp(dim).result, order),
    )


def materialized_composites(keys, dim, order):
    """(the composites behind a barrier, the keys' sizes): the materialized forms' first dispatch."""
    dims = dims_of(keys)
    return barrier(composites(keys, dims, dim, order), keys), dims


def key_at(keys, index, dim):
    """Inside a parallel generic over the keys' dims: the key at this point with ``dim`` = ``index``."""
    at = [linalg.IndexOp(d).result for d in range(ir.RankedTensorType(keys.type).rank)]
    at[dim] = arith.index_cast(ir.IndexType.get(), index)
    return tensor.extract(keys, at)


def gather(keys, idx, dim):
    """values[i] = keys[i with d = idx[i]]: the chosen keys' own bits."""
    out = ir.RankedTensorType.get(ir.RankedTensorType(idx.type).shape, ir.RankedTensorType(keys.type).element_type)
    return parallel_generic([idx], out, dims_of(idx), lambda blk: key_at(keys, blk.arguments[0], dim))


def gather_with_indices(keys, idx, dim):
    """(values, indices): gather's values and ``idx`` passed through, from one generic, so that
    ``idx`` has one user and IREE fuses the generic into the dispatch that computes it."""
    kt = ir.RankedTensorType(keys.type)
    it = ir.RankedTensorType(idx.type)
    sizes = dims_of(idx)
    outs = [tensor.empty(sizes, kt.element_type), tensor.empty(sizes, it.element_type)]
    ident = ir.AffineMapAttr.get(ir.AffineMap.get_identity(it.rank))
    g = linalg.GenericOp(
        [o.type for o in outs], [idx], outs, ir.ArrayAttr.get([ident] * 3), iterators(["parallel"] * it.rank)
    )
    block = g.regions[0].blocks.append(it.element_type, kt.element_type, it.element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([key_at(keys, block.arguments[0], dim), block.arguments[0]])
    return g.results[0], g.results[1]


def extsi(idx, to):
    """``idx`` sign-extended to ``to`` elementwise (a parallel generic)."""
    out = ir.RankedTensorType.get(ir.RankedTensorType(idx.type).shape, to)
    return parallel_generic([idx], out, dims_of(idx), lambda blk: arith.extsi(to, blk.arguments[0]))

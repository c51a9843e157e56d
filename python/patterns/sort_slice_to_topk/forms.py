"""Each form's IR, and the table from (form, materialized) to its builder.

A builder takes one ``Topk`` (what to compute) and returns the results that
replace the sort's: (values or None, indices or None). The composite forms
compute indices; their values are read from the keys at those indices, by
one generic that also passes the indices through (so IREE fuses the read
into the dispatch that computes them), or, materialized, by a generic of its
own. What each form computes and why: docs/passes/sort-slice-to-topk.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ..ir_utils import DYNAMIC, index_constant
from .cost import INT32_MAX, Form, Select
from .keys import (
    barrier,
    before_all,
    composite,
    composites,
    decode,
    dims_of,
    expand_at,
    extsi,
    gather,
    gather_with_indices,
    int_type,
    iterators,
    maps,
    materialized_composites,
    ordered_keys,
    parallel_generic,
    sizes_with,
    worst_composite,
)
from .match import is_float_key
from .reductions import best_below, best_of, per_pick, rank_counts, rank_pick, stack


@dataclass(frozen=True)
class Topk:
    """One top-k to build: the first ``k`` of ``keys`` along ``dim`` in ``order`` ('desc' or 'asc')."""

    keys: Any
    dim: int
    k: int
    order: str
    index_type: Any  # the sort's index element type; None when it has no iota
    values: bool  # whether the values are read
    chunk: int | None = None  # the chunks form's chunk size
    select: Select = Select.RANK  # how the materialized chunks form picks

    @property
    def out_t(self):
        """The element type the composite forms write indices in."""
        return self.index_type if self.index_type is not None else int_type(32)

    def decoder(self):
        """The composite -> index function, writing ``out_t``."""
        return lambda w: decode(w, self.order, self.out_t)


# --------------------------------------------------------------------------
# The top-k op
# --------------------------------------------------------------------------


def _worst_key(elem, order):
    """The integer key every real key beats or ties with (ties go to the real, lower index)."""
    width = ir.IntegerType(elem).width
    return arith.constant(elem, -(2 ** (width - 1)) if order == "desc" else 2 ** (width - 1) - 1)


def _topk_op(keys, dim, k, order):
    """iree_linalg_ext.topk of integer ``keys``: one compare, ties to the lower index (the op's rule)."""
    elem = ir.RankedTensorType(keys.type).element_type
    i32 = int_type(32)
    sizes = sizes_with(keys, dim, k)
    fill_v = linalg.fill(_worst_key(elem, order), outs=[tensor.empty(sizes, elem)])
    fill_i = linalg.fill(arith.constant(i32, INT32_MAX), outs=[tensor.empty(sizes, i32)])
    op = ir.Operation.create(
        "iree_linalg_ext.topk",
        results=[fill_v.type, fill_i.type],
        operands=[keys, fill_v, fill_i],
        attributes={"dimension": ir.IntegerAttr.get(int_type(64), dim)},
        regions=1,
    )
    block = op.regions[0].blocks.append(elem, elem)
    a, b = block.arguments
    with ir.InsertionPoint(block):
        res = arith.cmpi(arith.CmpIPredicate.sgt if order == "desc" else arith.CmpIPredicate.slt, a, b)
        ir.Operation.create("iree_linalg_ext.yield", operands=[res])
    return op.results[0], op.results[1]


def topk_op(t: Topk):
    """The top-k op over the integer keys (float keys ordered first, their values gathered back),
    its i32 indices widened to i64 where the sort's are."""
    is_float = is_float_key(ir.RankedTensorType(t.keys.type).element_type)
    vals, idx = _topk_op(ordered_keys(t.keys) if is_float else t.keys, t.dim, t.k, t.order)
    values = None
    if t.values:
        values = gather(t.keys, idx, t.dim) if is_float else vals
    if t.index_type is None:
        return values, None
    return values, idx if ir.IntegerType(t.index_type).width == 32 else extsi(idx, t.index_type)


# --------------------------------------------------------------------------
# argmax and rounds
# --------------------------------------------------------------------------


def argmax(t: Topk):
    """k = 1: one reduction over the row of composites, then the index decoded (one vectorized dispatch)."""
    best = best_below(t.keys, t.dim, t.order, None)
    red_t = ir.RankedTensorType(best.type)
    red_sizes = [s for d, s in enumerate(dims_of(t.keys)) if d != t.dim]
    idx = parallel_generic(
        [best],
        ir.RankedTensorType.get(red_t.shape, t.out_t),
        red_sizes,
        lambda blk: decode(blk.arguments[0], t.order, t.out_t),
    )
    return expand_at(idx, t.keys, t.dim, t.out_t)


def rounds(t: Topk):
    """Small k: k masked arg-max reductions, round r keeping the best composite after round r-1's
    (round 0: after before_all, so all rounds are alike), then one generic decoding the k winners."""
    winners = [before_all([s for d, s in enumerate(dims_of(t.keys)) if d != t.dim], t.order)]
    for _ in range(t.k):
        winners.append(best_below(t.keys, t.dim, t.order, winners[-1]))
    return stack(winners[1:], t.keys, t.dim, t.out_t, t.decoder())


def rounds_materialized(t: Topk):
    """argmax / rounds with the composites in their own dispatch (behind a barrier), so that the k
    reductions read only their operands, never linalg.index."""
    comps, dims = materialized_composites(t.keys, t.dim, t.order)
    winners = []
    for _ in range(t.k):
        winners.append(best_of(comps, [t.dim], t.order, winners[-1] if winners else None, dims))
    return stack(winners, t.keys, t.dim, t.out_t, t.decoder())


# --------------------------------------------------------------------------
# chunks
# --------------------------------------------------------------------------


def _chunk_groups(rank, dim):
    """Reassociation of a rank-``rank`` tensor whose ``dim`` is split into (chunk, in-chunk)."""
    groups = [[d] for d in range(dim)] + [[dim, dim + 1]] + [[d + 1] for d in range(dim + 1, rank)]
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(int_type(64), x) for x in g]) for g in groups])


def _split_chunks(value, dims, dim, c):
    """``value`` [.., width, ..] as [.., width/c, c, ..] (``dims``: its sizes)."""
    ty = ir.RankedTensorType(value.type)
    static = [DYNAMIC if ty.is_dynamic_dim(d) else ty.get_dim_size(d) for d in range(ty.rank)]
    static[dim : dim + 1] = [ty.get_dim_size(dim) // c, c]
    dyn = [dims[d] for d in range(ty.rank) if ty.is_dynamic_dim(d)]
    return tensor.expand_shape(
        ir.RankedTensorType.get(static, ty.element_type), value, _chunk_groups(ty.rank, dim), dyn, static
    )


def _chunk_start(w, order, c):
    """The first position of the chunk that composite ``w`` is in, as i32."""
    i32 = int_type(32)
    return arith.muli(arith.divui(decode(w, order, i32), arith.constant(i32, c)), arith.constant(i32, c))


def _candidates(first, dims, dim, k, c, composite_at):
    """[.., k, c, ..] i64: for each chosen chunk (``first``: its start, [.., k, ..] i32) the composites of
    its c positions, ``composite_at(at, pos)`` giving the one at ``at`` (pos: its index along dim)."""
    rank = len(dims)
    sizes = dims[:dim] + [k, c] + dims[dim + 1 :]
    empty = tensor.empty(sizes, int_type(64))
    g = linalg.GenericOp(
        [empty.type],
        [first],
        [empty],
        maps([d for d in range(rank + 1) if d != dim + 1], list(range(rank + 1)), rank=rank + 1),
        iterators(["parallel"] * (rank + 1)),
    )
    block = g.regions[0].blocks.append(int_type(32), int_type(64))
    with ir.InsertionPoint(block):
        pos = arith.addi(arith.index_castui(ir.IndexType.get(), block.arguments[0]), linalg.IndexOp(dim + 1).result)
        at = [linalg.IndexOp(d if d < dim else d + 1).result for d in range(rank)]
        at[dim] = pos
        linalg.YieldOp([composite_at(at, pos)])
    return g.results[0], sizes


def _chunk_bests(t: Topk, dims):
    """Each chunk's best composite (global index inside): one O(width) reduction over the split keys."""
    kt = ir.RankedTensorType(t.keys.type)
    rank, dim, c = kt.rank, t.dim, t.chunk
    i64 = int_type(64)
    split = _split_chunks(t.keys, dims, dim, c)
    c_idx = index_constant(c)
    best_sizes = [dims[d] if d != dim else kt.get_dim_size(dim) // c for d in range(rank)]
    acc0 = linalg.fill(worst_composite(t.order), outs=[tensor.empty(best_sizes, i64)])
    g = linalg.GenericOp(
        [acc0.type],
        [split],
        [acc0],
        maps(list(range(rank + 1)), [d for d in range(rank + 1) if d != dim + 1], rank=rank + 1),
        iterators(["reduction" if d == dim + 1 else "parallel" for d in range(rank + 1)]),
    )
    block = g.regions[0].blocks.append(kt.element_type, i64)
    with ir.InsertionPoint(block):
        pos = arith.addi(arith.muli(linalg.IndexOp(dim).result, c_idx), linalg.IndexOp(dim + 1).result)
        comp = composite(block.arguments[0], pos, t.order)
        acc = block.arguments[1]
        linalg.YieldOp([arith.maxsi(comp, acc) if t.order == "desc" else arith.minsi(comp, acc)])
    return g.results[0]


def chunks(t: Topk):
    """Wide rows: the rows cut in chunks of ``t.chunk``; only chunks whose best is among the k best chunk
    bests can hold a top-k element. Chunk bests; k rounds over them pick the k best chunks; their k*c
    composites (global index inside) are the candidates; k rounds over those, then the decode."""
    dim, k, c, order = t.dim, t.k, t.chunk, t.order
    dims = dims_of(t.keys)
    bests = _chunk_bests(t, dims)
    start = before_all([s for d, s in enumerate(dims) if d != dim], order)  # both round chains start after it
    won = [start]
    for _ in range(k):
        won.append(best_of(bests, [dim], order, won[-1]))
    first = stack(won[1:], t.keys, dim, int_type(32), lambda w: _chunk_start(w, order, c))
    cands, _ = _candidates(first, dims, dim, k, c, lambda at, pos: composite(tensor.extract(t.keys, at), pos, order))
    winners = [start]
    for _ in range(k):
        winners.append(best_of(cands, [dim, dim + 1], order, winners[-1]))
    return stack(winners[1:], t.keys, dim, t.out_t, t.decoder())


def chunks_materialized(t: Topk):
    """The chunks form with the composites materialized behind a barrier (as in rounds_materialized) and
    cut into chunks, so that no reduction reads linalg.index; the candidates gathered from the
    composites by a parallel generic; the k best chunks and candidates picked by ``t.select``."""
    kt = ir.RankedTensorType(t.keys.type)
    rank, dim, k, c, order = kt.rank, t.dim, t.k, t.chunk, t.order
    i32, i64 = int_type(32), int_type(64)
    comps, dims = materialized_composites(t.keys, dim, order)
    split = _split_chunks(comps, dims, dim, c)
    bests = best_of(split, [dim + 1], order, None, dims[:dim] + [kt.get_dim_size(dim) // c, c] + dims[dim + 1 :])
    best_dims = dims[:dim] + [kt.get_dim_size(dim) // c] + dims[dim + 1 :]
    if k == 1 or t.select == Select.ROUNDS:
        won = []
        for _ in range(k):
            won.append(best_of(bests, [dim], order, won[-1] if won else None, best_dims))
        if k == 1:  # the best chunk best is the best
            return stack(won, t.keys, dim, t.out_t, t.decoder())
        first = stack(won, t.keys, dim, i32, lambda w: _chunk_start(w, order, c))
    else:
        picked = rank_pick(bests, best_dims, dim, k, order)
        first = per_pick(picked, dims, dim, i32, lambda w: _chunk_start(w, order, c))
    gathered, cand_sizes = _candidates(first, dims, dim, k, c, lambda at, pos: tensor.extract(comps, at))
    cands = barrier(gathered, None, [x for x in cand_sizes if not isinstance(x, int)])
    if t.select == Select.ROUNDS:
        winners = []
        for _ in range(k):
            winners.append(best_of(cands, [dim, dim + 1], order, winners[-1] if winners else None, cand_sizes))
        return stack(winners, t.keys, dim, t.out_t, t.decoder())
    flat_static = [DYNAMIC if kt.is_dynamic_dim(d) else kt.get_dim_size(d) for d in range(rank)]
    flat_static[dim] = k * c
    flat = tensor.collapse_shape(ir.RankedTensorType.get(flat_static, i64), cands, _chunk_groups(rank, dim))
    best = rank_pick(flat, dims[:dim] + [k * c] + dims[dim + 1 :], dim, k, order)
    return per_pick(best, dims, dim, t.out_t, t.decoder())


# --------------------------------------------------------------------------
# rank
# --------------------------------------------------------------------------


def rank_select(t: Topk):
    """By counting: rank[i] = #{j : (key j, j) comes before (key i, i)}, then out[r] = the i of rank r,
    written in the index type directly. Both plain reductions that vectorize: width^2 + width*k per row."""
    rank = ir.RankedTensorType(t.keys.type).rank
    dim, out_t = t.dim, t.out_t
    i32 = int_type(32)
    dims = dims_of(t.keys)
    ident = list(range(rank))
    at_j = [rank if d == dim else d for d in range(rank)]
    counts = rank_counts(composites(t.keys, dims, dim, t.order), dims, dim, t.order)
    # loops: the output's dims (dim has size k: the rank r), then i at the end
    sizes = sizes_with(t.keys, dim, t.k)
    zero_out = linalg.fill(arith.constant(out_t, 0), outs=[tensor.empty(sizes, out_t)])
    sel = linalg.GenericOp(
        [zero_out.type],
        [counts],
        [zero_out],
        maps(at_j, ident, rank=rank + 1),
        iterators(["parallel"] * rank + ["reduction"]),
    )
    block = sel.regions[0].blocks.append(i32, out_t)
    with ir.InsertionPoint(block):
        rk, acc = block.arguments
        r = arith.index_cast(i32, linalg.IndexOp(dim).result)
        i = arith.index_cast(out_t, linalg.IndexOp(rank).result)
        hit = arith.cmpi(arith.CmpIPredicate.eq, rk, r)
        linalg.YieldOp([arith.addi(acc, arith.select(hit, i, arith.constant(out_t, 0)))])
    return sel.results[0]


def rank_materialized(t: Topk):
    """The rank form with the composites behind a barrier: the k best picked by counting, then decoded."""
    comps, dims = materialized_composites(t.keys, t.dim, t.order)
    return per_pick(rank_pick(comps, dims, t.dim, t.k, t.order), dims, t.dim, t.out_t, t.decoder())


# --------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------

Builder = Callable[[Topk], tuple]


def _values_fused(indices: Callable[[Topk], Any]) -> Builder:
    """A composite form whose values are read by the generic that passes its indices through."""

    def build(t: Topk):
        idx = indices(t)
        return gather_with_indices(t.keys, idx, t.dim) if t.values else (None, idx)

    return build


def _values_apart(indices: Callable[[Topk], Any]) -> Builder:
    """A materialized composite form: its values read by a generic of their own."""

    def build(t: Topk):
        idx = indices(t)
        return (gather(t.keys, idx, t.dim) if t.values else None), idx

    return build


# (form, materialize) -> builder; the top-k op has no composites to materialize.
BUILDERS: dict[tuple[Form, bool], Builder] = {
    (Form.TOPK, False): topk_op,
    (Form.TOPK, True): topk_op,
    (Form.ARGMAX, False): _values_fused(argmax),
    (Form.ARGMAX, True): _values_apart(rounds_materialized),
    (Form.ROUNDS, False): _values_fused(rounds),
    (Form.ROUNDS, True): _values_apart(rounds_materialized),
    (Form.CHUNKS, False): _values_fused(chunks),
    (Form.CHUNKS, True): _values_apart(chunks_materialized),
    (Form.RANK, False): _values_fused(rank_select),
    (Form.RANK, True): _values_apart(rank_materialized),
}

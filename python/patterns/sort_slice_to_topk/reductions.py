"""The reductions the composite forms are made of: a masked best, stacking k winners, ranking.

Each picks over i64 composites (keys.py), whose order is the result's order
and whose low half holds the position, so "after the previous winner"
excludes exactly the earlier winners and ties go to the lower index.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ..ir_utils import DYNAMIC, index_constant
from .keys import composite, dims_of, int_type, iterators, maps, parallel_generic, sizes_with, worst_composite


def _pick_best(order, c, acc):
    return arith.maxsi(c, acc) if order == "desc" else arith.minsi(c, acc)


def _after(order, c, prev, worst):
    """``c`` when it comes after ``prev`` in the result's order, else ``worst``."""
    after = arith.cmpi(arith.CmpIPredicate.slt if order == "desc" else arith.CmpIPredicate.sgt, c, prev)
    return arith.select(after, c, worst)


def best_below(keys, dim, order, prev):
    """The best composite of each row of ``keys`` that comes after ``prev`` (None: the best of all): one
    reduction computing the composites in its body (it reads linalg.index)."""
    kt = ir.RankedTensorType(keys.type)
    rank = kt.rank
    i64 = int_type(64)
    red_sizes = [s for d, s in enumerate(dims_of(keys)) if d != dim]
    worst = worst_composite(order)
    acc0 = linalg.fill(worst, outs=[tensor.empty(red_sizes, i64)])
    outer = [d for d in range(rank) if d != dim]
    ins = [keys] + ([prev] if prev is not None else [])
    g = linalg.GenericOp(
        [acc0.type],
        ins,
        [acc0],
        maps(*([list(range(rank))] + [outer] * len(ins)), rank=rank),
        iterators(["reduction" if d == dim else "parallel" for d in range(rank)]),
    )
    block = g.regions[0].blocks.append(kt.element_type, *([i64] if prev is not None else []), i64)
    with ir.InsertionPoint(block):
        args = list(block.arguments)
        c = composite(args[0], linalg.IndexOp(dim).result, order)
        if prev is not None:
            c = _after(order, c, args[1], worst)
        linalg.YieldOp([_pick_best(order, c, args[-1])])
    return g.results[0]


def best_of(comps, red_dims, order, prev, dims=None):
    """The best i64 composite of ``comps`` over the loops ``red_dims`` after ``prev`` (None: of all).

    Reads only its operands (no linalg.index): the composites carry their positions. ``dims``:
    comps' sizes, when tensor.dim of comps cannot be resolved (comps behind a barrier)."""
    ct = ir.RankedTensorType(comps.type)
    rank = ct.rank
    i64 = int_type(64)
    outer = [d for d in range(rank) if d not in red_dims]
    worst = worst_composite(order)
    dims = dims if dims is not None else dims_of(comps)
    acc0 = linalg.fill(worst, outs=[tensor.empty([dims[d] for d in outer], i64)])
    ins = [comps] + ([prev] if prev is not None else [])
    g = linalg.GenericOp(
        [acc0.type],
        ins,
        [acc0],
        maps(list(range(rank)), *([outer] * len(ins)), rank=rank),
        iterators(["reduction" if d in red_dims else "parallel" for d in range(rank)]),
    )
    block = g.regions[0].blocks.append(*([i64] * (len(ins) + 1)))
    with ir.InsertionPoint(block):
        args = list(block.arguments)
        c = args[0]
        if prev is not None:
            c = _after(order, c, args[1], worst)
        linalg.YieldOp([_pick_best(order, c, args[-1])])
    return g.results[0]


def stack(winners, keys, dim, out_t, f):
    """out[.., r, ..] = f(winners[r]): the k per-row winners along ``dim``.

    Static outer dims: one parallel generic reading all k (a select chain on r).
    Dynamic ones: each winner is a binding with push constants for its dims, and
    k = 64 of them exceed the CPU runtime's 64 constants per dispatch, so the
    winners are first stacked as the rows of a [k, outer...] tensor (contiguous
    updates, no dispatch each) and decoded by a one-input generic."""
    k = len(winners)
    kt = ir.RankedTensorType(keys.type)
    rank = kt.rank
    if any(kt.is_dynamic_dim(d) for d in range(rank) if d != dim) and k > 1:
        return _stack_as_rows(winners, keys, dim, out_t, f)
    i64 = int_type(64)
    empty = tensor.empty(sizes_with(keys, dim, k), out_t)
    outer = [d for d in range(rank) if d != dim]
    g = linalg.GenericOp(
        [empty.type],
        winners,
        [empty],
        maps(*([outer] * k), list(range(rank)), rank=rank),
        iterators(["parallel"] * rank),
    )
    block = g.regions[0].blocks.append(*([i64] * k), out_t)
    with ir.InsertionPoint(block):
        r = linalg.IndexOp(dim).result
        pick = block.arguments[0]
        for j in range(1, k):
            pick = arith.select(arith.cmpi(arith.CmpIPredicate.eq, r, index_constant(j)), block.arguments[j], pick)
        linalg.YieldOp([f(pick)])
    return g.results[0]


def _stack_as_rows(winners, keys, dim, out_t, f):
    """stack() for dynamic outer dims: [k, outer...], each winner one contiguous row (an update IREE
    does without a dispatch), then one generic reading it transposed."""
    k = len(winners)
    rank = ir.RankedTensorType(keys.type).rank
    i64 = int_type(64)
    outer_sizes = [s for d, s in enumerate(dims_of(keys)) if d != dim]
    whole = tensor.empty([k] + outer_sizes, i64)
    dyn = [s for s in outer_sizes if not isinstance(s, int)]
    static = [s if isinstance(s, int) else DYNAMIC for s in outer_sizes]
    for r, w in enumerate(winners):
        whole = tensor.insert_slice(w, whole, [], dyn, [], [r] + [0] * (rank - 1), [1] + static, [1] * rank)
    empty = tensor.empty(sizes_with(keys, dim, k), out_t)
    src = [dim] + [d for d in range(rank) if d != dim]
    g = linalg.GenericOp(
        [empty.type], [whole], [empty], maps(src, list(range(rank)), rank=rank), iterators(["parallel"] * rank)
    )
    block = g.regions[0].blocks.append(i64, out_t)
    with ir.InsertionPoint(block):
        linalg.YieldOp([f(block.arguments[0])])
    return g.results[0]


def per_pick(picked, dims, dim, elem, f):
    """``f`` of each of the k picked composites ([.., k, ..] i64) as ``elem``: one parallel generic."""
    sizes = dims[:dim] + [ir.RankedTensorType(picked.type).get_dim_size(dim)] + dims[dim + 1 :]
    return parallel_generic(
        [picked],
        ir.RankedTensorType.get(ir.RankedTensorType(picked.type).shape, elem),
        sizes,
        lambda blk: f(blk.arguments[0]),
    )


def rank_counts(comps, dims, dim, order):
    """rank[.., i, ..] = #{j : comps[.., j, ..] comes before comps[.., i, ..]} along ``dim`` (i32): one
    reduction over j, every position i in parallel; vectorized on the CPU."""
    rank = len(dims)
    i32, i64 = int_type(32), int_type(64)
    ident = list(range(rank))
    at_j = [rank if d == dim else d for d in range(rank)]
    zero_counts = linalg.fill(arith.constant(i32, 0), outs=[tensor.empty(dims, i32)])
    counts = linalg.GenericOp(
        [zero_counts.type],
        [comps, comps],
        [zero_counts],
        maps(at_j, ident, ident, rank=rank + 1),
        iterators(["parallel"] * rank + ["reduction"]),
    )
    block = counts.regions[0].blocks.append(i64, i64, i32)
    with ir.InsertionPoint(block):
        cj, ci, acc = block.arguments
        before = arith.cmpi(arith.CmpIPredicate.sgt if order == "desc" else arith.CmpIPredicate.slt, cj, ci)
        linalg.YieldOp([arith.addi(acc, arith.extui(i32, before))])
    return counts.results[0]


def rank_pick(comps, dims, dim, k, order):
    """The k best composites of ``comps`` along ``dim``, best first ([.., k, ..], i64), by counting:
    rank[i] = #{j : comps[j] comes before comps[i]}, then out[r] = the composite of rank r. Two
    reductions whose rows run in parallel (no round after round); neither reads linalg.index: the
    ranks r come from a constant, the positions live in the composites."""
    rank = ir.RankedTensorType(comps.type).rank
    i32, i64 = int_type(32), int_type(64)
    ident = list(range(rank))
    at_j = [rank if d == dim else d for d in range(rank)]
    counts = rank_counts(comps, dims, dim, order)
    import numpy as np  # only for the ranks' constant: importing numpy costs every cold compile ~0.2 s

    ranks = arith.constant(ir.RankedTensorType.get([k], i32), ir.DenseElementsAttr.get(np.arange(k, dtype=np.int32)))
    out_sizes = dims[:dim] + [k] + dims[dim + 1 :]
    zero_out = linalg.fill(arith.constant(i64, 0), outs=[tensor.empty(out_sizes, i64)])
    pick = linalg.GenericOp(
        [zero_out.type],
        [counts, comps, ranks],
        [zero_out],
        maps(at_j, at_j, [dim], ident, rank=rank + 1),
        iterators(["parallel"] * rank + ["reduction"]),
    )
    block = pick.regions[0].blocks.append(i32, i64, i32, i64)
    with ir.InsertionPoint(block):
        rk, c, r, acc = block.arguments
        hit = arith.cmpi(arith.CmpIPredicate.eq, rk, r)
        linalg.YieldOp([arith.addi(acc, arith.select(hit, c, arith.constant(i64, 0)))])
    return pick.results[0]

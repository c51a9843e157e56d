"""An ``iree_linalg_ext.arg_compare`` over a dynamic dim becomes the same reduction as a ``linalg.generic``.

Root cause (IREE 3.13, GPUs). ``arg_compare`` is how IREE's torch frontend
lowers torch.argmax / argmin (CLIP's text pooling: ``argmax`` of the ids).
For cuda and rocm its reduction is tiled by a partial-reduction tile (4096);
``ArgCompareOp::tileToPartialReduction`` (OuterReduction strategy) writes
each tile into the whole static accumulator (``tensor<1x4096xT>``) while
``getPartialResultTilePosition`` gives the insert the tile's size, which over
a dynamic dim is dynamic: ``expected type to be 'tensor<1x?xT>' or a
rank-reduced version. (size mismatch)`` in ``GPUApplyTilingLevelPass``
(``tiling-level=partial_reduction``). Static extents and the CPU are fine.

``arg_compare_as_generic`` writes the op as its own definition: a
``linalg.generic`` over the input with the reduced dim a reduction, the
value and index outputs its accumulators, and a body that runs the
comparator on (element, value so far) and selects the element and its index
(``linalg.index`` of the dim, plus ``index_base``, cast to the index type)
where it holds, the value and index so far elsewhere: what
``generateScalarImplementation`` does, in order. Left alone: a static dim,
explicit indices (IREE's own tiled form), a comparator with regions, buffers.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg

from ..authoring import pattern
from .ir_utils import operand_segments


def _clone_comparator(block, a, b):
    """Clone the comparator ``block``'s ops here with its arguments as ``a``, ``b``; its predicate."""
    mapping = {block.arguments[0]: a, block.arguments[1]: b}
    for op in block.operations:
        op = op.operation
        if op.name == "iree_linalg_ext.yield":
            return mapping.get(op.operands[0], op.operands[0])
        new = op.clone()
        for k, v in enumerate(new.operands):
            if v in mapping:
                new.operands[k] = mapping[v]
        for old, res in zip(op.results, new.results):
            mapping[old] = res
    raise ValueError("arg_compare comparator without a yield")


def _dim_map(rank: int, drop: int | None = None):
    dims = [ir.AffineDimExpr.get(d) for d in range(rank) if d != drop]
    return ir.AffineMapAttr.get(ir.AffineMap.get(rank, 0, dims))


@pattern("iree_linalg_ext.arg_compare")
def arg_compare_as_generic(op, rewriter):
    op = op.operation
    if len(op.results) != 2:
        return rewriter.fail("an arg_compare on buffers")
    n_in, n_idx, _, _, n_base = operand_segments(op)
    if n_idx:
        return rewriter.fail("explicit indices: an input of indices (IREE's own tiled form)")
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    x = op.operands[0]
    xt = ir.RankedTensorType(x.type)
    if not xt.is_dynamic_dim(dim):
        return rewriter.fail("the reduced dim is static: IREE tiles it right")
    comparator = op.regions[0].blocks[0]
    if any(len(o.operation.regions) for o in comparator.operations):
        return rewriter.fail("the comparator has regions")
    out_v, out_i = op.operands[n_in], op.operands[n_in + 1]
    base = op.operands[n_in + 2] if n_base else None
    rank = xt.rank
    kinds = ["reduction" if d == dim else "parallel" for d in range(rank)]
    with rewriter.ip, op.location:
        g = linalg.GenericOp(
            [out_v.type, out_i.type],
            [x],
            [out_v, out_i],
            ir.ArrayAttr.get([_dim_map(rank), _dim_map(rank, dim), _dim_map(rank, dim)]),
            ir.ArrayAttr.get([ir.Attribute.parse(f"#linalg.iterator_type<{k}>") for k in kinds]),
        )
        vt, it = ir.RankedTensorType(out_v.type).element_type, ir.RankedTensorType(out_i.type).element_type
        block = g.regions[0].blocks.append(xt.element_type, vt, it)
        with ir.InsertionPoint(block):
            elem, best, best_index = block.arguments
            index = linalg.IndexOp(dim).result
            if base is not None:
                index = arith.addi(base, index)
            if not isinstance(it, ir.IndexType):
                index = arith.index_cast(it, index)
            take = _clone_comparator(comparator, elem, best)
            linalg.YieldOp([arith.select(take, elem, best), arith.select(take, index, best_index)])
    rewriter.replace_op(op, list(g.results))
    return True

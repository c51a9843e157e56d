"""The IR that fold-collapse-shape-into-generic writes, once every check has passed.

The collapsed generic takes the old one's body; each ``linalg.index`` of a
merged loop is rebuilt from the new loop's index (row-major
delinearization with the original extents); operands are collapsed, an
expanded input replaced by its source (or a smaller expand of it), and
results that change shape come back through ``expand_shape``. Every new op
is placed before the old generic, so its other uses stay dominated.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from .fold_collapse_shape_into_generic_plan import collapsed_shape
from .ir_utils import DYNAMIC, has_uses, index_constant, shape


def reassociation_attr(groups):
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, i) for i in g]) for g in groups])


def index_ops(block):
    """The block's ``linalg.index`` ops."""
    return [op.operation for op in block.operations if op.operation.name == "linalg.index"]


def _iterator_attr(g, plan):
    old = list(ir.ArrayAttr(g.op.attributes["iterator_types"]))
    return ir.ArrayAttr.get([old[d] for d in plan.new_iterators])


def _maps_attr(plan):
    return ir.ArrayAttr.get(
        [
            ir.AffineMapAttr.get(ir.AffineMap.get(plan.n_new, 0, [ir.AffineDimExpr.get(d) for d in dims]))
            for dims in plan.new_maps
        ]
    )


def _as_value(v):
    return index_constant(v) if isinstance(v, int) else v


def extents(g, sources, expand_info=None):
    """Loop -> index Value for each loop of ``sources`` (loop -> (operand, dim) holding it):
    a constant, ``tensor.dim``, or the size the expanded input ``expand_info`` = (operand,
    sizes) was built with."""
    out = {}
    for d in sorted(sources):
        k, p = sources[d]
        t = g.operands[k].type
        if not t.is_dynamic_dim(p):
            out[d] = index_constant(t.get_dim_size(p))
        elif expand_info is not None and k == expand_info[0]:
            out[d] = _as_value(expand_info[1][p])
        else:
            out[d] = tensor.dim(g.operands[k], index_constant(p))
    return out


def _rewrite_indices(block, plan, extents, rewriter):
    """Every ``linalg.index`` in the moved body, in terms of the new loops."""
    index = ir.IndexType.get()
    i64 = ir.IntegerType.get_signless(64)
    for old in index_ops(block):
        d = ir.IntegerAttr(old.attributes["dim"]).value
        with ir.InsertionPoint(old), old.location:
            new = ir.Operation.create(
                "linalg.index", results=[index], attributes={"dim": ir.IntegerAttr.get(i64, plan.loop_map[d])}
            ).result
            gi = plan.member.get(d)
            if gi is not None:
                loops = plan.groups[gi]
                pos = loops.index(d)
                # row-major: l_pos = (j / prod(n(l_pos+1..))) mod n(l_pos)
                for inner in loops[pos + 1 :]:
                    new = arith.divui(new, extents[inner])
                if pos != 0:
                    new = arith.remui(new, extents[d])
        rewriter.replace_op(old, [new])


def collapse_value(value, groups, shape):
    t = value.type
    new_t = ir.RankedTensorType.get(collapsed_shape(shape, groups), t.element_type)
    return tensor.CollapseShapeOp(new_t, value, reassociation_attr(groups)).result


def _expand_value(value, groups, target_type, sizes):
    """``expand_shape`` of ``value`` back to ``target_type``; ``sizes``: int or Value per dim."""
    dynamic = [s for s in sizes if not isinstance(s, int)]
    static = [s if isinstance(s, int) else DYNAMIC for s in sizes]
    return tensor.ExpandShapeOp(target_type, value, reassociation_attr(groups), dynamic, static).result


def _result_sizes(init):
    t = init.type
    return [tensor.dim(init, index_constant(i)) if t.is_dynamic_dim(i) else t.get_dim_size(i) for i in range(t.rank)]


def collapsed_operands(g, plan):
    """``g``'s operands, each collapsed by its reassociation in ``plan`` (or as it is)."""
    return [
        v if plan.trivial(k) else collapse_value(v, plan.reassoc[k], shape(v.type)) for k, v in enumerate(g.operands)
    ]


def build(g, plan, new_operands, rewriter, extents):
    """The collapsed generic (its body moved from the old one); returns it."""
    ins = new_operands[: g.n_ins]
    outs = new_operands[g.n_ins :]
    new = linalg.GenericOp([v.type for v in outs], ins, outs, _maps_attr(plan), _iterator_attr(g, plan))
    block = g.op.regions[0].blocks[0]
    block.append_to(new.operation.regions[0])
    _rewrite_indices(block, plan, extents, rewriter)
    return new.operation


def replace_results(g, plan, new_op, rewriter):
    """Replace the old generic: results whose map kept a group come back through ``expand_shape``."""
    values = []
    for r, old in enumerate(g.op.results):
        k = g.n_ins + r
        value = new_op.results[r]
        if not plan.trivial(k):
            if has_uses(old):
                value = _expand_value(value, plan.reassoc[k], old.type, _result_sizes(g.operands[k]))
            else:
                value = g.operands[k]  # unused: any value of the old type stands in
        values.append(value)
    rewriter.replace_op(g.op, values)


def rewrite_expand_input(g, plan, k, expand, reassoc, chosen, sizes, sources, rewriter):
    """The mirror's rewrite: input ``k`` (``expand``) folded into ``g`` along ``chosen``."""
    src = expand.operands[0]
    src_t = src.type
    dims = g.maps[k]
    folded = {tuple(grp) for grp in reassoc if len(grp) >= 2 and [dims[p] for p in grp] in chosen}
    with ir.InsertionPoint(g.op), g.op.location:
        new_operands = []
        replacement = _partial_expand(src, src_t, reassoc, folded, sizes, expand.results[0].type)
        for i, v in enumerate(g.operands):
            if i == k or (i < g.n_ins and v == g.operands[k] and plan.reassoc[i] == plan.reassoc[k]):
                new_operands.append(replacement)  # the same expand read the same way
            elif plan.trivial(i):
                new_operands.append(v)
            else:
                new_operands.append(collapse_value(v, plan.reassoc[i], shape(v.type)))
        new_op = build(g, plan, new_operands, rewriter, extents(g, sources, expand_info=(k, sizes)))
        replace_results(g, plan, new_op, rewriter)


def _partial_expand(src, src_t, reassoc, folded, sizes, expanded_t):
    """``src`` when every group is folded; else ``expand_shape`` of the kept groups only."""
    if all(len(grp) == 1 or tuple(grp) in folded for grp in reassoc):
        return src
    groups, shape, dyn_sizes = [], [], []
    n = 0
    for j, grp in enumerate(reassoc):
        if len(grp) == 1 or tuple(grp) in folded:
            groups.append([n])
            n += 1
            if src_t.is_dynamic_dim(j):
                shape.append(DYNAMIC)
                dyn_sizes.append(tensor.dim(src, index_constant(j)))
            else:
                shape.append(src_t.get_dim_size(j))
        else:
            groups.append(list(range(n, n + len(grp))))
            n += len(grp)
            for p in grp:
                s = sizes[p]
                shape.append(s if isinstance(s, int) else DYNAMIC)
                if not isinstance(s, int):
                    dyn_sizes.append(s)
    t = ir.RankedTensorType.get(shape, expanded_t.element_type)
    static = list(shape)
    return tensor.ExpandShapeOp(t, src, reassociation_attr(groups), dyn_sizes, static).result

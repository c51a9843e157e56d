"""The IR that softmax-fuse-elementwise writes, once its patterns have matched.

Two builders: the softmax decomposition (max reduction, sum reduction with
``exp(x - max)`` in its body, final generic recomputing the numerator), and
``inline_producers``, which rewrites a generic so that some of its inputs
are computed in its own body from their producers' operands. Every clone
keeps each element's arithmetic as written, so results stay bit-identical.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, math, tensor

from .ir_utils import defining_op, has_uses, uses
from .softmax_fuse_elementwise_generics import as_generic

_STRUCTURAL_ATTRS = {"indexing_maps", "iterator_types", "operandSegmentSizes"}


def redirect_dims(rewriter, g):
    """``tensor.dim`` of ``g``'s result becomes ``tensor.dim`` of its init (same shape)."""
    init = g.op.operands[g.n_in]
    for op, _ in uses(g.op.results[0]):
        if op.name == "tensor.dim":
            with ir.InsertionPoint(op), op.location:
                rewriter.replace_op(op, [tensor.dim(init, op.operands[1])])


def _affine_map(loops, dims):
    exprs = [ir.AffineConstantExpr.get(0) if d is None else ir.AffineDimExpr.get(d) for d in dims]
    return ir.AffineMap.get(loops, 0, exprs)


def _element_type(t):
    return t.element_type if isinstance(t, ir.ShapedType) else t


def _clone_body(block, mapping: dict, index_remap=None, keep_yield=False):
    """Clone ``block``'s ops at the current insertion point, operands through ``mapping``.

    Returns the (mapped) yielded values, or clones the yield too. With
    ``index_remap``, ``linalg.index k`` becomes ``linalg.index index_remap[k]``.
    """
    for op in block.operations:
        op = op.operation
        if op.name == "linalg.yield" and not keep_yield:
            return [mapping.get(v, v) for v in op.operands]
        new = op.clone()
        for k, v in enumerate(new.operands):
            if v in mapping:
                new.operands[k] = mapping[v]
        if op.name == "linalg.index" and index_remap is not None:
            dim = ir.IntegerAttr(op.attributes["dim"]).value
            new.attributes["dim"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), index_remap[dim])
        for old, res in zip(op.results, new.results):
            mapping[old] = res
    return None


def _plan_leaves(g, fused: dict):
    """The new generic's inputs as (value, dims), and per input of ``g`` where it comes from:
    ("leaf", k) or ("fused", the leaf of each of the producer's block arguments, None if unread)."""
    leaves: list = []

    def leaf(value, dims):
        for k, (v, d) in enumerate(leaves):
            if d == dims and v == value:
                return k
        leaves.append((value, dims))
        return len(leaves) - 1

    plan = {}
    for i, value in enumerate(g.inputs):
        p = fused.get(i)
        if p is None:
            plan[i] = ("leaf", leaf(value, g.maps[i]))
            continue
        m = g.maps[i]
        args = []
        for j, (operand, dims) in enumerate(zip(p.op.operands, p.maps)):
            if j >= p.n_in and not has_uses(p.block.arguments[j]):
                args.append(None)  # the init, never read
                continue
            args.append(leaf(operand, tuple(None if d is None else m[d] for d in dims)))
        plan[i] = ("fused", args)
    return leaves, plan


def inline_producers(rewriter, g, fused: dict):
    """Replace ``g`` by a generic computing input ``i`` with ``fused[i]``'s body.

    ``fused[i]`` is an elementwise Generic whose result ``g`` reads at input
    ``i`` through a projected permutation without zeros. Its operands are
    read through the composed maps (its output map is the identity, so its
    loop ``k`` is ``g``'s loop ``map_i[k]``). The new generic is created where
    ``g`` is, with ``g``'s inits, iterators and result types. Returns it.
    """
    leaves, plan = _plan_leaves(g, fused)
    op = g.op
    outs = list(op.operands)[g.n_in :]
    maps = [_affine_map(g.loops, dims) for _, dims in leaves]
    maps += [ir.AffineMapAttr(a).value for a in list(ir.ArrayAttr(op.attributes["indexing_maps"]))[g.n_in :]]
    with ir.InsertionPoint(op), op.location:
        new = linalg.GenericOp(
            [r.type for r in op.results],
            [v for v, _ in leaves],
            outs,
            ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
            op.attributes["iterator_types"],
        )
        for name in list(op.attributes):  # g's other attributes (doc, library_call, a lowering config) stay
            if name not in _STRUCTURAL_ATTRS:
                new.operation.attributes[name] = op.attributes[name]
        arg_types = [_element_type(v.type) for v, _ in leaves] + [_element_type(v.type) for v in outs]
        block = new.regions[0].blocks.append(*arg_types)
        with ir.InsertionPoint(block):
            computed = {}  # (producer, its args, its read) -> scalar: the same read is computed once
            mapping = {}
            for i in range(g.n_in):
                kind, what = plan[i]
                if kind == "leaf":
                    mapping[g.block.arguments[i]] = block.arguments[what]
                    continue
                p = fused[i]
                key = (p.op, tuple(what), g.maps[i])  # the same read: same leaves and same loops
                if key not in computed:
                    inner = {p.block.arguments[j]: block.arguments[k] for j, k in enumerate(what) if k is not None}
                    computed[key] = _clone_body(p.block, inner, index_remap=g.maps[i])[0]
                mapping[g.block.arguments[i]] = computed[key]
            for j in range(g.n_out):
                mapping[g.block.arguments[g.n_in + j]] = block.arguments[len(leaves) + j]
            _clone_body(g.block, mapping, keep_yield=True)
    new = new.operation
    rewriter.replace_op(op, list(new.results))
    return as_generic(new)


def _iterators(loops, reduced=None):
    return ir.ArrayAttr.get(
        [
            ir.Attribute.parse(f"#linalg.iterator_type<{'reduction' if k == reduced else 'parallel'}>")
            for k in range(loops)
        ]
    )


def _generic(result_type, ins, outs, maps, iterators, body):
    """A linalg.generic whose body is ``body(*block arguments)`` -> yielded value."""
    op = linalg.GenericOp(
        [result_type], ins, outs, ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]), iterators
    )
    types = [_element_type(v.type) for v in list(ins) + list(outs)]
    block = op.regions[0].blocks.append(*types)
    with ir.InsertionPoint(block):
        linalg.YieldOp([body(*block.arguments)])
    return op


def _empty_dynamic_sizes(init) -> dict:
    """{dim: size value} of a ``tensor.empty`` init's dynamic dims (it has x's shape)."""
    op = defining_op(init)
    if op is None or op.name != "tensor.empty":
        return {}
    t = init.type
    sizes = iter(op.operands)
    return {k: next(sizes) for k in range(t.rank) if t.is_dynamic_dim(k)}


def _statistic_sizes(xt, init, d) -> list:
    """The extents of a statistic over dim ``d`` of ``x``: static, the init's ``tensor.empty``
    sizes, else ``tensor.dim`` of the init (so that a ``tensor.dim`` of ``x`` does not keep its
    producer alive)."""
    sizes = []
    dynamic = _empty_dynamic_sizes(init)
    for k in range(xt.rank):
        if k == d:
            continue
        if not xt.is_dynamic_dim(k):
            sizes.append(xt.get_dim_size(k))
        elif k in dynamic:
            sizes.append(dynamic[k])
        else:
            sizes.append(tensor.dim(init, arith.constant(ir.IndexType.get(), k)))
    return sizes


def decompose_softmax_ir(x, init, d, result_type):
    """Softmax of ``x`` along ``d`` as three generics, at the current insertion point and
    location; returns the final one. ``maximumf`` rather than ``maxnumf`` (the page says why)."""
    xt = x.type
    et, rank = xt.element_type, xt.rank
    empty = tensor.empty(_statistic_sizes(xt, init, d), et)
    red_type = empty.type
    ninf = arith.constant(et, ir.FloatAttr.get(et, float("-inf")))
    zero = arith.constant(et, ir.FloatAttr.get(et, 0.0))
    ident = ir.AffineMap.get_identity(rank)
    red = _affine_map(rank, tuple(k for k in range(rank) if k != d))
    reduction = _iterators(rank, d)
    mx = _generic(
        red_type, [x], [linalg.fill(ninf, outs=[empty])], [ident, red], reduction, lambda a, o: arith.maximumf(a, o)
    )
    sm = _generic(
        red_type,
        [x, mx.result],
        [linalg.fill(zero, outs=[empty])],
        [ident, red, red],
        reduction,
        lambda a, m, o: arith.addf(math.exp(arith.subf(a, m)), o),
    )
    return _generic(
        result_type,
        [x, mx.result, sm.result],
        [init],
        [ident, red, red, ident],
        _iterators(rank),
        lambda a, m, s, o: arith.divf(math.exp(arith.subf(a, m)), s),
    )

"""Reshapes folded into ``linalg.generic`` by collapsing its iteration space.

``fold_collapse_shape_into_generic``: ``collapse_shape(generic)`` becomes a
generic over fewer loops, so the consumer reads it with no reshape between
them. ``fold_expand_shape_into_generic`` is the mirror: an ``expand_shape``
feeding a generic's input (upstream's ``FoldWithProducerReshapeOpByCollapsing``,
which IREE 3.13 runs only behind a control that skips reductions).

Each pattern reads the generic (``read_generic``: tensor semantics, projected
permutations, nothing in its attributes that describes the old loops),
chooses the loop groups that may merge (``fold_collapse_shape_into_generic_plan``,
pure), and then builds (``fold_collapse_shape_into_generic_build``). Groups
that do not qualify stay behind a smaller reshape (``partial=False``: all or
nothing). Each rewrite removes a loop and none adds one, so rewriting ends.
Nothing here depends on IREE: it serves whole programs and dispatches alike;
docs/passes/fold-collapse-shape-into-generic.md has the argument.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import tensor

from ..authoring import pattern
from .fold_collapse_shape_into_generic_build import (
    build,
    collapsed_operands,
    extents,
    index_ops,
    reassociation_attr,
    replace_results,
    rewrite_expand_input,
)
from .fold_collapse_shape_into_generic_plan import CollapsePlan, choose_groups, collapsed_shape
from .ir_utils import DYNAMIC, defining_op, operand_segments, reassociation, shape

_KNOWN_ATTRS = {"indexing_maps", "iterator_types", "operandSegmentSizes"}
_PARALLEL = "#linalg.iterator_type<parallel>"
_REDUCTION = "#linalg.iterator_type<reduction>"


def _reassociation(op) -> list[list[int]]:
    return [list(g) for g in reassociation(op)]


def _attr_names(op):
    return [a if isinstance(a, str) else a.name for a in op.attributes]


class _Generic:
    """A tensor ``linalg.generic`` with projected-permutation maps, as data."""

    def __init__(self, op, n_ins, maps, iterators):
        self.op = op
        self.n_ins = n_ins
        self.operands = list(op.operands)
        self.maps = maps  # per operand: list of loop dims (projected permutation)
        self.iterators = iterators  # per loop: "parallel" | "reduction" | other
        self.n_loops = len(iterators)
        self.index_dims = [ir.IntegerAttr(i.attributes["dim"]).value for i in index_ops(op.regions[0].blocks[0])]


def read_generic(op):
    """A ``_Generic``, or the reason the op cannot be collapsed (a string)."""
    if op.name != "linalg.generic":
        return "not a linalg.generic"
    extra = [n for n in _attr_names(op) if n not in _KNOWN_ATTRS]
    if extra:
        return f"generic carries attribute '{extra[0]}', which may describe its iteration space"
    try:
        n_ins, n_outs = operand_segments(op)
    except (KeyError, ValueError):
        return "generic has no operand segments"
    if n_outs == 0 or len(op.results) != n_outs:
        return "generic has buffer semantics (no tensor results)"
    for i, v in enumerate(op.operands):
        t = v.type
        if isinstance(t, ir.RankedTensorType):
            if t.encoding is not None:
                return "generic has an operand with a tensor encoding"
        elif isinstance(t, ir.ShapedType) or i >= n_ins:
            return "generic has a memref, unranked or non-tensor shaped operand (buffer semantics)"
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return "generic body is not a single block"
    iters = []
    for a in ir.ArrayAttr(op.attributes["iterator_types"]):
        s = str(a)
        iters.append("parallel" if s == _PARALLEL else "reduction" if s == _REDUCTION else s)
    maps = []
    for a in ir.ArrayAttr(op.attributes["indexing_maps"]):
        m = ir.AffineMapAttr(a).value
        if m.n_symbols != 0 or m.n_dims != len(iters) or not m.is_projected_permutation:
            return f"indexing map {m} is not a projected permutation"
        dims = []
        for e in m.results:
            if not isinstance(e, ir.AffineDimExpr):
                return f"indexing map {m} is not a projected permutation"
            dims.append(e.position)
        maps.append(dims)
    if len(maps) != len(op.operands):
        return "generic has a map count different from its operand count"
    for k, v in enumerate(op.operands):
        rank = v.type.rank if isinstance(v.type, ir.RankedTensorType) else 0
        if rank != len(maps[k]):
            return "an indexing map does not match its operand's rank"
    return _Generic(op, n_ins, maps, iters)


def _extent_source(g: _Generic, d: int, avoid=None):
    """(operand index, dim) holding loop ``d``: a static one first, else any, preferring not ``avoid``."""
    found = []
    for k, dims in enumerate(g.maps):
        if d in dims:
            p = dims.index(d)
            t = g.operands[k].type
            found.append((0 if not t.is_dynamic_dim(p) else 1, 1 if k == avoid else 0, k, p))
    if not found:
        return None
    _, _, k, p = min(found)
    return k, p


def _extent_sources(g: _Generic, plan: CollapsePlan, avoid=None):
    """Loop -> (operand, dim) for each extent the delinearization needs, or None when one has
    no operand dim (which a verified generic never has)."""
    sources = {d: _extent_source(g, d, avoid) for d in plan.needed_extents(g.index_dims)}
    return None if any(s is None for s in sources.values()) else sources


@pattern("tensor.collapse_shape")
def fold_collapse_shape_into_generic(op, rewriter, partial: bool = True):
    op = op.operation
    src = op.operands[0]
    producer = defining_op(src)
    if producer is None or producer.name != "linalg.generic":
        return rewriter.fail("source is not a linalg.generic result")
    g = read_generic(producer)
    if isinstance(g, str):
        return rewriter.fail(g)
    r = src.result_number
    out = g.n_ins + r
    reassoc = _reassociation(op)
    chosen, _, why = choose_groups(g, out, reassoc, partial)
    if chosen is None:
        return rewriter.fail(why)
    plan = CollapsePlan(g, chosen)
    # What replaces the collapse: the new result, or a smaller collapse of it that
    # merges the groups that were kept (a folded group is one dim of the new result).
    new_result_shape = collapsed_shape(shape(g.operands[out].type), plan.reassoc[out])
    new_dim_of = {p: i for i, grp in enumerate(plan.reassoc[out]) for p in grp}
    rest = [sorted({new_dim_of[p] for p in grp}) for grp in reassoc]
    final_shape = collapsed_shape(new_result_shape, rest)
    if final_shape != shape(op.results[0].type):
        return rewriter.fail("the folded result would not have the collapse's type")
    sources = _extent_sources(g, plan)
    if sources is None:
        return rewriter.fail("an extent needed to delinearize linalg.index cannot be computed")

    with ir.InsertionPoint(g.op), g.op.location:
        new_operands = collapsed_operands(g, plan)
        new_op = build(g, plan, new_operands, rewriter, extents(g, sources))
        value = new_op.results[r]
        if any(len(grp) > 1 for grp in rest):
            value = tensor.CollapseShapeOp(op.results[0].type, value, reassociation_attr(rest)).result
    rewriter.replace_op(op, [value])
    with ir.InsertionPoint(g.op), g.op.location:
        replace_results(g, plan, new_op, rewriter)
    return True


@pattern("linalg.generic")
def fold_expand_shape_into_generic(op, rewriter, partial: bool = True):
    op = op.operation
    # Asked before the generic is read (which costs more): most generics read no expand_shape.
    if not any(_is_expand(defining_op(v)) for v in op.operands):
        return rewriter.fail("no input is a tensor.expand_shape")
    g = read_generic(op)
    if isinstance(g, str):
        return rewriter.fail(g)
    last = "no input is a tensor.expand_shape"
    for k in range(g.n_ins):
        expand = defining_op(g.operands[k])
        if not _is_expand(expand):
            continue
        reassoc = _reassociation(expand)
        chosen, _, why = choose_groups(g, k, reassoc, partial)
        if chosen is None:
            last = f"input #{k}: {why}"
            continue
        sizes = _expand_sizes(expand)
        if sizes is None:
            last = f"input #{k}: the expand_shape's sizes cannot be read"
            continue
        plan = CollapsePlan(g, chosen)
        sources = _extent_sources(g, plan, avoid=k)
        if sources is None:
            last = f"input #{k}: an extent needed to delinearize linalg.index cannot be computed"
            continue
        rewrite_expand_input(g, plan, k, expand, reassoc, chosen, sizes, sources, rewriter)
        return True
    return rewriter.fail(last)


def _expand_sizes(expand):
    """The expand's result sizes: int (static) or index Value (dynamic), per dim."""
    static = list(ir.DenseI64ArrayAttr(expand.attributes["static_output_shape"]))
    dynamic = list(expand.operands[1:])
    out = []
    for s in static:
        if s == DYNAMIC:
            if not dynamic:
                return None
            out.append(dynamic.pop(0))
        else:
            out.append(s)
    return out if not dynamic else None


def _is_expand(op) -> bool:
    return op is not None and op.name == "tensor.expand_shape"

"""Reshapes folded into ``linalg.generic`` by collapsing its iteration space.

A ``tensor.collapse_shape`` with reassociation ``R`` (groups of consecutive
dims, ``[[0], [1, 2], [3]]``) merges each group of dims into one, row-major:
element ``(i0, i1, i2, i3)`` of the source is element ``(i0, i1 * n2 + i2,
i3)`` of the result. A ``linalg.generic`` is a loop nest over dims ``d0 ...
dn-1``; operand ``k`` is read (or written) at ``map_k(d0, ..., dn-1)``, and
with projected-permutation maps each operand dim *is* one loop dim.

``fold_collapse_shape_into_generic``: ``collapse_shape(generic)#r`` with ``R``.
Each group ``g`` of ``R`` with two or more dims names, through the map of
init ``r``, a sequence of loop dims ``L(g) = (l0, ..., lm)`` (in the order the
map lists them). If the loops of ``L(g)`` are replaced by one loop ``j`` over
``n(l0) * ... * n(lm)`` with ``l0 = j / (n(l1)...n(lm))``, ...,
``lm = j mod n(lm)`` (row-major delinearization, the order of ``L(g)``), then
an operand whose map lists ``L(g)`` consecutively in that order is read at
exactly the collapsed position of its own ``collapse_shape`` over those dims;
so the generic over the collapsed loops, on operands collapsed the same way,
computes the collapsed result element for element. Every ``linalg.index l``
with ``l`` in ``L(g)`` becomes that delinearization of ``linalg.index j``,
with the original extents (constants, or ``tensor.dim`` of an operand that
has the dim, taken before the generic). The consumer then reads a
lower-rank generic and no reshape sits between them. Preconditions (each a
``rewriter.fail`` when it does not hold, and a lit test):

* tensor semantics (every operand a ranked tensor without encoding, or a
  scalar input; one result per init), a single-block body, and no attribute
  but ``indexing_maps``, ``iterator_types``, ``operandSegmentSizes`` (others,
  such as ``library_call`` or a lowering config, describe the old iteration
  space);
* every indexing map a projected permutation with no symbols: only then is
  an operand dim one loop dim, and the argument above holds;
* a group is *preserved* in every map: a map lists either none of ``L(g)``, or
  all of it, consecutively and in the same order. A map with ``(l1, l0)`` or
  ``(l0, x, l1)`` or only ``l0`` cannot be written over ``j``; the group stays;
* a group's loops are all parallel (in any numbering: the new loop takes the
  place of the group's first loop in map order, and parallel loops may run
  in any order), or all reductions that are consecutive loops
  ``(d, d+1, ...)`` in increasing order (then the collapsed reduction visits
  the elements in the order the original loop nest does); mixed
  parallel/reduction groups stay;
* the extents the delinearization needs can be computed: every loop of a
  verified generic appears in some map, so its extent is a constant or
  ``tensor.dim`` of such an operand (for the mirror, preferably the expand's
  own ``output_shape``, so that the expand can die); a loop with no operand
  dim is refused, which verified IR never has;
* a group whose loops were already taken by an earlier group stays (cannot
  happen with one reshape, kept as a guard).

Partial folds: groups that qualify are collapsed, groups that do not stay as
they are, and a smaller ``collapse_shape`` of the new result merges what is
left (``R`` restricted to the kept groups): the loop nest still loses every
loop it can, and the reshape that remains is smaller. When no group
qualifies the IR is left alone. Option ``partial=false`` folds only when
every group qualifies (no reshape is left between producer and consumer).

Several results, several uses: collapsing loops re-indexes the whole op, so
every result changes shape. That is still exact: any other result, and any
other use of the collapsed one, gets ``expand_shape`` of the new result with
the same groups and the original sizes (``tensor.dim`` of its init when
dynamic), which is the original tensor. All new ops are placed before the
old generic, so uses between the generic and the reshape stay dominated.
Each rewrite removes at least one loop from one generic and nothing adds
loops, so the rewriting terminates.

``fold_expand_shape_into_generic`` is the mirror: an input of a generic that
is ``expand_shape(src)`` with ``R`` gives groups through that input's map; the
qualifying ones are collapsed as above (same preconditions), the input
becomes ``src`` itself (all groups folded) or a smaller ``expand_shape`` of
``src`` that re-expands only the kept groups (sizes from the original
``output_shape``, or ``tensor.dim`` of ``src`` for a folded dynamic group),
other operands are collapsed, and results whose maps hold a folded group are
expanded back (a result whose map holds none, e.g. after a collapsed
reduction, keeps its type). Only inputs (``ins``) are considered; the first
expanded input that yields a group is used, and the pattern runs again on
the new generic for the others. This is upstream's
``FoldWithProducerReshapeOpByCollapsing``; IREE's
``iree-dispatch-creation-sink-reshapes`` runs it only behind a control that
also skips consumers with reduction loops (see test/passes/test_fold_collapse_shape_into_generic.py).

Both are meant for whole programs before dispatch formation as well as for
dispatch functions (``executable-sources``): nothing here depends on IREE.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ..authoring import pattern
from .ir_utils import DYNAMIC, has_uses, index_constant, operand_segments, reassociation, shape
from .ir_utils import defining_op as _op

_KNOWN_ATTRS = {"indexing_maps", "iterator_types", "operandSegmentSizes"}
_PARALLEL = "#linalg.iterator_type<parallel>"
_REDUCTION = "#linalg.iterator_type<reduction>"


def _reassociation(op) -> list[list[int]]:
    return [list(g) for g in reassociation(op)]


def _reassociation_attr(groups):
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, i) for i in g]) for g in groups])


def _collapsed_shape(shape, groups) -> list[int]:
    out = []
    for g in groups:
        size = 1
        for i in g:
            if shape[i] == DYNAMIC:
                size = DYNAMIC
                break
            size *= shape[i]
        out.append(size)
    return out


def _attr_names(op):
    return [a if isinstance(a, str) else a.name for a in op.attributes]


# --------------------------------------------------------------------------
# Reading a generic
# --------------------------------------------------------------------------


class _Generic:
    """A tensor ``linalg.generic`` with projected-permutation maps, as data."""

    def __init__(self, op, n_ins, maps, iterators):
        self.op = op
        self.n_ins = n_ins
        self.operands = list(op.operands)
        self.maps = maps  # per operand: list of loop dims (projected permutation)
        self.iterators = iterators  # per loop: "parallel" | "reduction" | other
        self.n_loops = len(iterators)


def _read_generic(op):
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


def _group_problem(g: _Generic, loops: list[int], taken: set[int]):
    """Why the loop group cannot be collapsed, or None when it can."""
    if any(d in taken for d in loops):
        return f"loops {loops} overlap another collapsed group"
    kinds = {g.iterators[d] for d in loops}
    if len(kinds) != 1 or kinds.pop() not in ("parallel", "reduction"):
        return f"loops {loops} mix iterator types {[g.iterators[d] for d in loops]}"
    if g.iterators[loops[0]] == "reduction":
        if loops != list(range(loops[0], loops[0] + len(loops))):
            return f"reduction loops {loops} are not consecutive loops in increasing order"
    for k, dims in enumerate(g.maps):
        present = [p for p, d in enumerate(dims) if d in loops]
        if not present:
            continue
        start = present[0]
        if dims[start : start + len(loops)] != loops or len(present) != len(loops):
            return f"loops {loops} are not preserved (contiguous, same order) in the map of operand #{k}"
    return None


# --------------------------------------------------------------------------
# The collapse plan: pure data, computed before anything is changed
# --------------------------------------------------------------------------


class _Plan:
    """New loops, maps and per-operand reassociations for collapsing ``groups``."""

    def __init__(self, g: _Generic, groups: list[list[int]]):
        self.g = g
        self.groups = groups
        member = {}
        for gi, loops in enumerate(groups):
            for d in loops:
                member[d] = gi
        self.new_of = {}  # old loop -> new loop (leaders and ungrouped loops)
        self.group_of_new = {}  # new loop -> group index
        n = 0
        for d in range(g.n_loops):
            gi = member.get(d)
            if gi is not None and groups[gi][0] != d:
                continue
            self.new_of[d] = n
            if gi is not None:
                self.group_of_new[n] = gi
            n += 1
        # Leaders of a group are its first loop in map order, so map every member
        # to the new loop of the group.
        self.loop_map = {}
        for d in range(g.n_loops):
            gi = member.get(d)
            self.loop_map[d] = self.new_of[groups[gi][0]] if gi is not None else self.new_of[d]
        self.member = member
        self.n_new = n
        self.new_iterators = [None] * n
        for d, nd in self.new_of.items():
            self.new_iterators[nd] = d
        # Per operand: reassociation over its dims and its new map.
        self.reassoc = []
        self.new_maps = []
        for dims in g.maps:
            groups_k, new_dims, p = [], [], 0
            while p < len(dims):
                gi = member.get(dims[p])
                size = len(groups[gi]) if gi is not None else 1
                groups_k.append(list(range(p, p + size)))
                new_dims.append(self.loop_map[dims[p]])
                p += size
            self.reassoc.append(groups_k)
            self.new_maps.append(new_dims)

    def trivial(self, k) -> bool:
        return all(len(grp) == 1 for grp in self.reassoc[k])


def _iterator_attr(g: _Generic, plan: _Plan):
    old = list(ir.ArrayAttr(g.op.attributes["iterator_types"]))
    return ir.ArrayAttr.get([old[d] for d in plan.new_iterators])


def _maps_attr(plan: _Plan):
    return ir.ArrayAttr.get(
        [
            ir.AffineMapAttr.get(ir.AffineMap.get(plan.n_new, 0, [ir.AffineDimExpr.get(d) for d in dims]))
            for dims in plan.new_maps
        ]
    )


def _index_users(block):
    return [op.operation for op in block.operations if op.operation.name == "linalg.index"]


def _needs_extents(g: _Generic, plan: _Plan) -> set[int]:
    """Loops whose extent the delinearization of ``linalg.index`` needs."""
    need = set()
    for op in _index_users(g.op.regions[0].blocks[0]):
        d = ir.IntegerAttr(op.attributes["dim"]).value
        gi = plan.member.get(d)
        if gi is not None:
            loops = plan.groups[gi]
            need |= set(loops[loops.index(d) + 1 :])
            if loops.index(d) != 0:
                need.add(d)
    return need


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


# --------------------------------------------------------------------------
# Building (only after every check passed)
# --------------------------------------------------------------------------


def _as_value(v):
    return index_constant(v) if isinstance(v, int) else v


def _extents(g: _Generic, plan: _Plan, loops, expand_info=None):
    """Loop -> index Value for ``loops`` (constants, ``tensor.dim``, or an expand's sizes)."""
    out = {}
    for d in sorted(loops):
        k, p = _extent_source(g, d, avoid=expand_info[0] if expand_info else None)
        t = g.operands[k].type
        if not t.is_dynamic_dim(p):
            out[d] = index_constant(t.get_dim_size(p))
        elif expand_info is not None and k == expand_info[0]:
            out[d] = _as_value(expand_info[1][p])
        else:
            out[d] = tensor.dim(g.operands[k], index_constant(p))
    return out


def _rewrite_indices(block, plan: _Plan, extents, rewriter):
    """Every ``linalg.index`` in the moved body, in terms of the new loops."""
    index = ir.IndexType.get()
    i64 = ir.IntegerType.get_signless(64)
    for old in _index_users(block):
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


def _collapse_value(value, groups, shape):
    t = value.type
    new_t = ir.RankedTensorType.get(_collapsed_shape(shape, groups), t.element_type)
    return tensor.CollapseShapeOp(new_t, value, _reassociation_attr(groups)).result


def _expand_value(value, groups, target_type, sizes):
    """``expand_shape`` of ``value`` back to ``target_type``; ``sizes``: int or Value per dim."""
    dynamic = [s for s in sizes if not isinstance(s, int)]
    static = [s if isinstance(s, int) else DYNAMIC for s in sizes]
    return tensor.ExpandShapeOp(target_type, value, _reassociation_attr(groups), dynamic, static).result


def _result_sizes(init):
    t = init.type
    return [tensor.dim(init, index_constant(i)) if t.is_dynamic_dim(i) else t.get_dim_size(i) for i in range(t.rank)]


def _build(g: _Generic, plan: _Plan, new_operands, rewriter, extents):
    """The collapsed generic (its body moved from the old one); returns it."""
    ins = new_operands[: g.n_ins]
    outs = new_operands[g.n_ins :]
    new = linalg.GenericOp([v.type for v in outs], ins, outs, _maps_attr(plan), _iterator_attr(g, plan))
    block = g.op.regions[0].blocks[0]
    block.append_to(new.operation.regions[0])
    _rewrite_indices(block, plan, extents, rewriter)
    return new.operation


def _replace_results(g: _Generic, plan: _Plan, new_op, rewriter, skip=None):
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


# --------------------------------------------------------------------------
# The patterns
# --------------------------------------------------------------------------


def _choose_groups(g: _Generic, operand: int, reassoc, partial: bool):
    """(qualifying loop groups, kept reassociation groups, reason) for a reshape of ``operand``."""
    dims = g.maps[operand]
    taken: set[int] = set()
    chosen, kept, reasons = [], [], []
    for grp in reassoc:
        if len(grp) < 2:
            continue
        loops = [dims[p] for p in grp]
        why = _group_problem(g, loops, taken)
        if why is None:
            chosen.append(loops)
            taken |= set(loops)
        else:
            kept.append(grp)
            reasons.append(why)
    if not chosen:
        return None, None, reasons[0] if reasons else "no group of two or more dims to fold"
    if kept and not partial:
        return None, None, f"only some groups qualify and partial folds are off: {reasons[0]}"
    return chosen, kept, None


@pattern("tensor.collapse_shape")
def fold_collapse_shape_into_generic(op, rewriter, partial: bool = True):
    op = op.operation
    src = op.operands[0]
    producer = _op(src)
    if producer is None or producer.name != "linalg.generic":
        return rewriter.fail("source is not a linalg.generic result")
    g = _read_generic(producer)
    if isinstance(g, str):
        return rewriter.fail(g)
    r = src.result_number
    out = g.n_ins + r
    reassoc = _reassociation(op)
    chosen, _, why = _choose_groups(g, out, reassoc, partial)
    if chosen is None:
        return rewriter.fail(why)
    plan = _Plan(g, chosen)
    # What replaces the collapse: the new result, or a smaller collapse of it that
    # merges the groups that were kept (a folded group is one dim of the new result).
    new_result_shape = _collapsed_shape(shape(g.operands[out].type), plan.reassoc[out])
    new_dim_of = {p: i for i, grp in enumerate(plan.reassoc[out]) for p in grp}
    rest = [sorted({new_dim_of[p] for p in grp}) for grp in reassoc]
    final_shape = _collapsed_shape(new_result_shape, rest)
    if final_shape != shape(op.results[0].type):
        return rewriter.fail("the folded result would not have the collapse's type")
    need = _needs_extents(g, plan)
    if any(_extent_source(g, d) is None for d in need):
        return rewriter.fail("an extent needed to delinearize linalg.index cannot be computed")

    with ir.InsertionPoint(g.op), g.op.location:
        new_operands = []
        for k, v in enumerate(g.operands):
            if plan.trivial(k):
                new_operands.append(v)
            else:
                new_operands.append(_collapse_value(v, plan.reassoc[k], shape(v.type)))
        extents = _extents(g, plan, need)
        new_op = _build(g, plan, new_operands, rewriter, extents)
        value = new_op.results[r]
        if any(len(grp) > 1 for grp in rest):
            value = tensor.CollapseShapeOp(op.results[0].type, value, _reassociation_attr(rest)).result
    rewriter.replace_op(op, [value])
    with ir.InsertionPoint(g.op), g.op.location:
        _replace_results(g, plan, new_op, rewriter)
    return True


@pattern("linalg.generic")
def fold_expand_shape_into_generic(op, rewriter, partial: bool = True):
    op = op.operation
    g = _read_generic(op)
    if isinstance(g, str):
        return rewriter.fail(g)
    last = "no input is a tensor.expand_shape"
    for k in range(g.n_ins):
        expand = _op(g.operands[k])
        if expand is None or expand.name != "tensor.expand_shape":
            continue
        reassoc = _reassociation(expand)
        chosen, _, why = _choose_groups(g, k, reassoc, partial)
        if chosen is None:
            last = f"input #{k}: {why}"
            continue
        sizes = _expand_sizes(expand)
        if sizes is None:
            last = f"input #{k}: the expand_shape's sizes cannot be read"
            continue
        plan = _Plan(g, chosen)
        need = _needs_extents(g, plan)
        if any(_extent_source(g, d) is None for d in need):
            last = f"input #{k}: an extent needed to delinearize linalg.index cannot be computed"
            continue
        _rewrite_expand_input(g, plan, k, expand, reassoc, chosen, sizes, need, rewriter)
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


def _rewrite_expand_input(g, plan, k, expand, reassoc, chosen, sizes, need, rewriter):
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
                new_operands.append(_collapse_value(v, plan.reassoc[i], shape(v.type)))
        extents = _extents(g, plan, need, expand_info=(k, sizes))
        new_op = _build(g, plan, new_operands, rewriter, extents)
        _replace_results(g, plan, new_op, rewriter)


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
    return tensor.ExpandShapeOp(t, src, _reassociation_attr(groups), dyn_sizes, static).result

"""Patterns for softmax and normalizations: decompose, and fuse elementwise neighbours.

Softmax along dimension ``d`` of ``x`` (any rank, static or dynamic shape,
f16/bf16/f32/f64), numerically stable, computed in the element type as
IREE's own decomposition does::

    m[i]    = maximumf_k x[i with d=k]           (init -inf)
    s[i]    = sum_k exp(x[i with d=k] - m[i])    (init 0)
    y[i, k] = exp(x[i, k] - m[i]) / s[i]

IREE and upstream take the max with ``maxnumf`` from NaN instead; the
results are the same for every input (a NaN in a row makes the whole row NaN
either way: ``maximumf`` through ``m``, ``maxnumf`` through ``exp(NaN - m)`` in
``s``; ``±0`` and infinities give the same ``x - m``). ``maximumf`` is used
because IREE 3.13's llvm-cpu backend turns some f16 ``maxnumf`` reductions
into calls to ``fmaxf``, which it cannot link ("undefined symbol: fmaxf";
stock IREE hits it too, e.g. a static 1-D f16 softmax).

Why: with ``--iree-dispatch-creation-enable-aggressive-fusion`` IREE may put
a normalization and the elementwise ops around it into one dispatch; every
full-size tensor that is produced and then read again inside that dispatch
is a buffer the size of a whole reduction row (workgroup memory on GPUs).
Here the only tensors a normalization produces are its statistics (one value
per row) and its final result; everything elementwise is computed inside
the generics that need it, recomputed rather than stored.

Vocabulary. *Elementwise*: a tensor ``linalg.generic`` with one result, all
loops parallel, the identity map on its output, projected-permutation maps
(unit-dim zeros allowed) on its inputs, and a body made only of ``arith`` and
``math`` ops on scalars, ``linalg.index`` and ``linalg.yield``. Such a body
reads nothing but its operands (no ``tensor.extract``), has no side effects,
and computes element ``i`` of its result from its operands at ``map(i)``, so
it can be recomputed anywhere those operands are readable. A *statistic*: a
value made by a reduction (a ``linalg.generic`` with a reduction loop, or a
``linalg.reduce``), or by a ``linalg.generic``/reshape from a statistic (up to
4 steps: ``mean = sum / n``, ``rstd = rsqrt(var + eps)``). A *normalization
final*: an elementwise generic that reads a statistic through a broadcast map
(fewer results than loops, or a zero).

Patterns (all leave the IR alone unless every precondition holds):

* ``decompose_softmax`` (root ``linalg.softmax``, tensor semantics, one of the
  four float types, the init of the input's type) writes the three generics
  above: the max reduction, the sum reduction computing ``exp(x - m)`` in its
  body, and the final generic recomputing ``exp(x - m) / s``, so the
  numerator is never a tensor (IREE's ``decompose-softmax{use-fusion=true}``
  shape). It then fuses the consumer chain and recomputes producers as the
  next two patterns do. It always applies to a valid softmax, even with
  nothing to fuse.
* ``fuse_consumers_into_normalization`` (root: a normalization final ``N``,
  whether it came from a softmax or was written as explicit generics, e.g. a
  group-norm's ``(x - mean) * rstd``). While the current result has exactly
  one use, by an elementwise generic ``C`` in the same block that reads it in
  exactly one input operand through a permutation map ``M`` (the identity, or
  a transpose), ``N`` is computed inside ``C``: one generic in ``C``'s loops
  with ``N``'s body and then ``C``'s, ``N``'s operands read through their maps
  composed with ``M`` (iteration ``i`` of ``C`` needs element ``M(i)`` of ``N``,
  computed there from ``N``'s operands at ``map(M(i))``), ``C``'s other
  operands (identity or broadcast maps), ``C``'s init and result type (a
  ``truncf`` to f16/bf16 included), placed where ``C`` was (``C``'s operands
  are defined there, ``N``'s before it). Each element of ``N`` is still
  computed once. The chain stops at a result with several uses (the result
  must stay a tensor for the other use, and merging the consumer too would
  mean two results or a recomputation), at a consumer reading it through a
  broadcast map (``s[i, 0]`` for every ``j``, or ``s[i, j]`` for every ``k``:
  elements would be recomputed), and at anything not elementwise (a
  reduction, a matmul, a body with ``tensor.extract`` or an op outside
  ``arith``/``math``).
* ``recompute_producer_in_normalization`` (root: an elementwise generic
  ``P``). When every use of ``P``'s result is an input operand of a
  ``linalg.generic`` in the same block that is a reduction or a normalization
  final, read through a permutation map (each element of ``P`` is needed
  once per loop nest, so inlining costs exactly one recomputation per use),
  and there are at most 3 uses (a softmax's or a normalization's max/mean,
  sum/variance and final: the recomputation is bounded by 3x ``P``'s body),
  ``P``'s body is inlined into each user (its operands read through the
  composed maps, ``linalg.index`` renumbered per read: a user reading ``P``
  twice through different maps gets two computations) and ``P`` is erased.
  Two more conditions keep the new generic valid: each user's body has no
  ops with regions (only top-level ops are remapped), and every loop of each
  user stays indexed by some operand (a producer broadcast along a
  reduction loop may be the only operand that gives the loop its size). This is
  how a producer of the softmax input ends up in the reductions and the
  final generic, and how a group-norm's centred ``x - mean``, read by the
  variance reduction and the final generic, stops being a tensor. A
  producer with a use anywhere else (returned, read by another op, read
  through a broadcast map, used as an init) stays as it is: it will be
  materialized for that use anyway, so recomputing it would only add work.
  A ``tensor.dim`` of it reads only its shape and does not count (it is
  redirected to the producer's init). The rewrite repeats up the producer
  chain. A softmax's final generic whose only use is a reduction generic
  (a row sum of the softmax) is such a producer: it is recomputed in the
  reduction rather than stored.

The statistics' dynamic extents come from the softmax's init (a
``tensor.empty``'s size operands, else ``tensor.dim`` of the init; the
verifier makes it the input's shape), so that a ``tensor.dim`` of the input
does not keep its producer alive.

IREE 3.13's own ``iree-codegen-decompose-softmax{use-fusion=true}`` (run in
codegen, inside a dispatch) also merges a softmax's elementwise consumers
and producers; it does nothing for normalizations written as generics.

Every rewrite keeps each element's arithmetic as written (the same ops in the
same order on the same values), so results are bit-identical to computing
the original ops one after another, up to the backend's freedom to
contract or reassociate.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, math, tensor

from ..authoring import pattern
from .ir_utils import defining_op as _op
from .ir_utils import has_uses, operand_segments, uses

MAX_RECOMPUTE = 3  # uses of a producer that may each recompute it
STATISTIC_DEPTH = 4  # elementwise/reshape steps from a reduction to a statistic
_FLOATS = (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)
_RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape", "tensor.cast")


# --------------------------------------------------------------------------
# Looking at linalg.generic
# --------------------------------------------------------------------------


def _value_uses(value) -> list:
    """Uses that read the value (not just its shape: ``tensor.dim`` is left out)."""
    return [(op, i) for op, i in uses(value) if op.name != "tensor.dim"]


def _redirect_dims(rewriter, g):
    """``tensor.dim`` of ``g``'s result becomes ``tensor.dim`` of its init (same shape)."""
    init = g.op.operands[g.n_in]
    for op, _ in uses(g.op.results[0]):
        if op.name == "tensor.dim":
            with ir.InsertionPoint(op), op.location:
                rewriter.replace_op(op, [tensor.dim(init, op.operands[1])])


def _dims(affine_map):
    """A map's results as loop positions (None for the constant 0), or None.

    None when a result is anything else or a loop appears twice: only
    projected permutations, plus unit-dim zeros, are understood here.
    """
    if affine_map.n_symbols:
        return None
    dims = []
    for e in affine_map.results:
        if isinstance(e, ir.AffineDimExpr):
            dims.append(e.position)
        elif isinstance(e, ir.AffineConstantExpr) and e.value == 0:
            dims.append(None)
        else:
            return None
    seen = [d for d in dims if d is not None]
    return tuple(dims) if len(set(seen)) == len(seen) else None


class Generic:
    """A tensor ``linalg.generic``, its maps as loop positions."""

    __slots__ = ("op", "n_in", "n_out", "loops", "maps", "iterators", "block")

    def __init__(self, op, n_in, n_out, loops, maps, iterators):
        self.op = op
        self.n_in, self.n_out, self.loops = n_in, n_out, loops
        self.maps, self.iterators = maps, iterators
        self.block = op.regions[0].blocks[0]

    @property
    def inputs(self):
        return list(self.op.operands)[: self.n_in]

    @property
    def has_reduction(self) -> bool:
        return "reduction" in self.iterators

    @property
    def all_parallel(self) -> bool:
        return all(i == "parallel" for i in self.iterators)


def as_generic(op):
    """``op`` as a Generic when it is a linalg.generic on tensors, else None."""
    if op is None or op.name != "linalg.generic" or len(op.results) == 0:
        return None
    try:
        n_in, n_out = operand_segments(op)
        maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
        iterators = [str(a) for a in ir.ArrayAttr(op.attributes["iterator_types"])]
    except (KeyError, ValueError):
        return None
    if len(maps) != n_in + n_out or not maps:
        return None
    loops = maps[0].n_dims
    its = ["parallel" if "<parallel>" in s else "reduction" if "<reduction>" in s else s for s in iterators]
    if len(its) != loops:
        return None
    for v in list(op.operands)[n_in:]:
        if not isinstance(v.type, ir.RankedTensorType):
            return None
    return Generic(op, n_in, n_out, loops, [_dims(m) for m in maps], its)


def body_problem(block) -> str | None:
    """Why a body may not be recomputed elsewhere, or None when it may."""
    for op in block.operations:
        op = op.operation
        name = op.name
        if name == "tensor.extract":
            return "its body reads a tensor with tensor.extract (outside its operands)"
        if name in ("linalg.yield", "linalg.index"):
            continue
        if not name.startswith(("arith.", "math.")) or len(op.regions):
            return f"its body has '{name}', not an arith/math op"
    return None


def elementwise_problem(g) -> str | None:
    """Why ``g`` is not an elementwise generic (see the module docstring)."""
    if g is None:
        return "not a linalg.generic on tensors"
    if len(g.op.results) != 1 or g.n_out != 1:
        return "not a single-result generic"
    if not g.all_parallel:
        return "not all loops are parallel"
    if g.maps[-1] != tuple(range(g.loops)):
        return "its output map is not the identity"
    for i, dims in enumerate(g.maps[: g.n_in]):
        if dims is None:
            return f"input {i} is read through a map that is not a projected permutation"
    return body_problem(g.block)


def is_statistic(value, depth: int = STATISTIC_DEPTH) -> bool:
    """Whether ``value`` is made by a reduction, directly or in a few elementwise/reshape steps."""
    op = _op(value)
    if op is None:
        return False
    if op.name == "linalg.reduce":
        return True
    if op.name in _RESHAPES:
        return depth > 0 and is_statistic(op.operands[0], depth - 1)
    g = as_generic(op)
    if g is None:
        return False
    if g.has_reduction:
        return True
    return depth > 0 and any(is_statistic(v, depth - 1) for v in g.inputs)


def normalization_problem(g) -> str | None:
    """Why ``g`` is not a normalization final: elementwise, reading a statistic through a broadcast."""
    why = elementwise_problem(g)
    if why:
        return why
    for v, dims in zip(g.inputs, g.maps):
        broadcast = len(dims) < g.loops or None in dims
        if broadcast and is_statistic(v):
            return None
    return "it reads no statistic (a reduction's result) through a broadcast map"


def _permutation(dims, loops) -> bool:
    return dims is not None and None not in dims and sorted(dims) == list(range(loops))


# --------------------------------------------------------------------------
# Inlining producers into a generic
# --------------------------------------------------------------------------


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


_STRUCTURAL_ATTRS = {"indexing_maps", "iterator_types", "operandSegmentSizes"}


def inline_producers(rewriter, g, fused: dict):
    """Replace ``g`` by a generic computing input ``i`` with ``fused[i]``'s body.

    ``fused[i]`` is an elementwise Generic whose result ``g`` reads at input
    ``i`` through a projected permutation without zeros. Its operands are
    read through the composed maps (its output map is the identity, so its
    loop ``k`` is ``g``'s loop ``map_i[k]``). The new generic is created where
    ``g`` is, with ``g``'s inits, iterators and result types. Returns it.
    """
    leaves: list = []  # (value, dims) of each input of the new generic

    def leaf(value, dims):
        for k, (v, d) in enumerate(leaves):
            if d == dims and v == value:
                return k
        leaves.append((value, dims))
        return len(leaves) - 1

    plan = {}  # g input -> ("leaf", k) or ("fused", args of the producer's block)
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


# --------------------------------------------------------------------------
# Consumers into a normalization final
# --------------------------------------------------------------------------


def _consumer(n):
    """(consumer Generic, operand index) to merge into ``n``, or (None, why)."""
    uses = _value_uses(n.op.results[0])
    if len(uses) != 1:
        return None, f"its result has {len(uses)} uses, not one (other uses need it as a tensor)"
    owner, index = uses[0]
    c = as_generic(owner)
    why = elementwise_problem(c)
    if why:
        return None, f"its user '{owner.name}' is not elementwise: {why}"
    if owner.block != n.op.block:
        return None, "its user is in another block"
    if index >= c.n_in:
        return None, "its user takes it as an init (outs)"
    if not _permutation(c.maps[index], c.loops) or c.loops != n.loops:
        return None, "its user reads it through a broadcast map (elements would be recomputed)"
    return (c, index), None


def fuse_consumer_chain(rewriter, n):
    """Merge the elementwise consumer chain into normalization final ``n``.

    Returns (the last Generic, number merged, why the chain stopped).
    """
    merged = 0
    while True:
        found, why = _consumer(n)
        if found is None:
            return n, merged, why
        c, index = found
        _redirect_dims(rewriter, n)
        new = inline_producers(rewriter, c, {index: n})
        rewriter.erase_op(n.op)
        n, merged = new, merged + 1


# --------------------------------------------------------------------------
# Producers recomputed in a normalization's generics
# --------------------------------------------------------------------------


def recompute_problem(p):
    """(users, None) when ``p`` may be recomputed in each user, else (None, why)."""
    why = elementwise_problem(p)
    if why:
        return None, why
    uses = _value_uses(p.op.results[0])
    if not uses:
        return None, "its result is unused"
    if len(uses) > MAX_RECOMPUTE:
        return None, f"its result has {len(uses)} uses; at most {MAX_RECOMPUTE} may recompute it"
    users = {}
    for owner, index in uses:
        g = as_generic(owner)
        if g is None:
            return None, f"it is used by '{owner.name}', which is not a linalg.generic on tensors"
        if owner.block != p.op.block:
            return None, "a user is in another block"
        if index >= g.n_in:
            return None, "a user takes it as an init (outs)"
        if not _permutation(g.maps[index], g.loops):
            return None, "a user reads it through a broadcast or non-permutation map (several reads per element)"
        if not g.has_reduction and normalization_problem(g):
            return None, "a user is neither a reduction nor a normalization final"
        if any(len(op.regions) for op in g.block.operations):
            return None, "a user's body has ops with regions (only its top-level ops are remapped)"
        users.setdefault(owner, (g, []))[1].append(index)
    for g, indices in users.values():
        if not _loops_stay_bounded(g, indices, p):
            return None, "a user would lose the only operand that bounds one of its loops"
    return list(users.values()), None


def _loops_stay_bounded(g, indices, p) -> bool:
    """Whether every loop of ``g`` is still indexed by some operand once its
    inputs ``indices`` are replaced by ``p``'s operands (read through the
    composed maps): a loop that only ``p``'s result indexed would have no size."""
    covered = set()
    for j, dims in enumerate(g.maps):
        if j not in indices:
            covered.update(d for d in dims if d is not None)
    for i in indices:
        for j, dims in enumerate(p.maps):
            if j >= p.n_in and not has_uses(p.block.arguments[j]):
                continue  # p's init, not read: not an operand of the new generic
            covered.update(g.maps[i][d] for d in dims if d is not None)
    return covered >= set(range(g.loops))


def recompute_producers(rewriter, start) -> int:
    """Recompute ``start`` (a Generic) and then its producers, as far as allowed."""
    done = 0
    pending = [start]  # every entry is a live op: entries about to be replaced are dropped first
    while pending:
        p = pending.pop()
        users, _ = recompute_problem(p)
        if users is None:
            continue
        replaced = [g.op for g, _ in users]
        pending = [q for q in pending if all(q.op != op for op in replaced)]
        _redirect_dims(rewriter, p)
        new = [inline_producers(rewriter, g, {i: p for i in indices}) for g, indices in users]
        rewriter.erase_op(p.op)
        done += 1
        for g in new:  # p's operands are read by these now: their producers may follow
            for v in g.inputs:
                q = as_generic(_op(v))
                if q is not None and all(q.op != w.op for w in pending):
                    pending.append(q)
    return done


# --------------------------------------------------------------------------
# The patterns
# --------------------------------------------------------------------------


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
    op = _op(init)
    if op is None or op.name != "tensor.empty":
        return {}
    t = init.type
    sizes = iter(op.operands)
    return {k: next(sizes) for k in range(t.rank) if t.is_dynamic_dim(k)}


@pattern("linalg.softmax")
def decompose_softmax(op, rewriter):
    op = op.operation
    if len(op.results) != 1:
        return rewriter.fail("softmax with buffer semantics")
    x, init = op.operands[0], op.operands[1]
    xt = x.type
    if not isinstance(xt, ir.RankedTensorType) or not isinstance(init.type, ir.RankedTensorType):
        return rewriter.fail("input or init is not a ranked tensor")
    et = xt.element_type
    if not isinstance(et, _FLOATS):
        return rewriter.fail(f"element type {et} is not f16, bf16, f32 or f64")
    if init.type.element_type != et or op.results[0].type.element_type != et:
        return rewriter.fail("input, init and result element types differ")
    rank = xt.rank
    d = ir.IntegerAttr(op.attributes["dimension"]).value
    if not 0 <= d < rank:
        return rewriter.fail(f"dimension {d} is out of range for rank {rank}")

    with rewriter.ip, op.location:
        sizes = []
        dynamic = _empty_dynamic_sizes(init)
        for k in range(rank):
            if k == d:
                continue
            if not xt.is_dynamic_dim(k):
                sizes.append(xt.get_dim_size(k))
            elif k in dynamic:
                sizes.append(dynamic[k])
            else:
                sizes.append(tensor.dim(init, arith.constant(ir.IndexType.get(), k)))
        empty = tensor.empty(sizes, et)
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
        final = _generic(
            op.results[0].type,
            [x, mx.result, sm.result],
            [init],
            [ident, red, red, ident],
            _iterators(rank),
            lambda a, m, s, o: arith.divf(math.exp(arith.subf(a, m)), s),
        )
    rewriter.replace_op(op, [final.result])
    fuse_consumer_chain(rewriter, as_generic(final.operation))
    producer = as_generic(_op(x))
    if producer is not None:
        recompute_producers(rewriter, producer)
    return True


@pattern("linalg.generic")
def fuse_consumers_into_normalization(op, rewriter):
    n = as_generic(op.operation)
    why = normalization_problem(n)
    if why:
        return rewriter.fail(f"not a normalization final: {why}")
    _, merged, why = fuse_consumer_chain(rewriter, n)
    if not merged:
        return rewriter.fail(f"no consumer to merge: {why}")
    return True


@pattern("linalg.generic")
def recompute_producer_in_normalization(op, rewriter):
    p = as_generic(op.operation)
    users, why = recompute_problem(p)
    if users is None:
        return rewriter.fail(f"not recomputed: {why}")
    recompute_producers(rewriter, p)
    return True

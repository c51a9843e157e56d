"""What softmax-fuse-elementwise asks of a ``linalg.generic``, without changing any IR.

A tensor generic is read once into a ``Generic`` (its maps as loop
positions); the questions are then answered on that view: is it
*elementwise* (recomputable anywhere its operands are readable), is a value
a *statistic* (made by a reduction, in a few steps), is a generic a
*normalization final* (elementwise, reading a statistic through a
broadcast), and may a consumer be merged into a final or a producer be
recomputed in its users. Each question answers with why not, which
``--debug-patterns`` prints; docs/passes/softmax-fuse-elementwise.md says
why each condition is needed.
"""

from __future__ import annotations

from iree.compiler import ir

from .ir_utils import defining_op, has_uses, operand_segments, uses

MAX_RECOMPUTE = 3  # uses of a producer that may each recompute it
STATISTIC_DEPTH = 4  # elementwise/reshape steps from a reduction to a statistic
_RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape", "tensor.cast")


def value_uses(value) -> list:
    """Uses that read the value (not just its shape: ``tensor.dim`` is left out)."""
    return [(op, i) for op, i in uses(value) if op.name != "tensor.dim"]


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
    """Why ``g`` is not elementwise: one result, all loops parallel, the identity
    on its output, projected permutations (zeros allowed) on its inputs, and a
    body of arith/math ops on its operands alone."""
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
    op = defining_op(value)
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


def consumer(n):
    """(consumer Generic, operand index) to merge into normalization final ``n``, or (None, why)."""
    uses = value_uses(n.op.results[0])
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


def recompute_problem(p):
    """(users, None) when ``p`` may be recomputed in each user, else (None, why).

    ``users`` lists (user Generic, the input indices reading ``p``).
    """
    why = elementwise_problem(p)
    if why:
        return None, why
    uses = value_uses(p.op.results[0])
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

"""A linalg.generic input read through a rotation map reads a rotated copy instead.

Root cause (IREE #19898). Tiling a linalg op gives each operand the slice its
indexing map makes of the tile: an interval, for an affine map. A rotation
``(d + c) mod n`` maps a tile onto two intervals that wrap, so there is no
one slice. Older releases sliced as if the map were affine and read wrong
data; IREE 3.13's tiling refuses ("tiling is not supported for the
semi-affine indexing map"). Reading the input in the body instead (a
``tensor.extract`` at the mod) is no way out: IREE's vectorizer takes the
canonicalized mod for a contiguous index and reads past the wrap.

``input_through_rotated_copy`` makes the rotation data: for a map result
``(d_j + c) mod n`` on input dim k, where loop j runs over exactly n, the
input is replaced by x[c' : n] followed by x[0 : c'] along k (c' = c mod n),
and the result by d_j, which reads the element the map named. Any shift,
several rotated dims, dynamic sizes elsewhere. Left alone: other semi-affine
maps, a loop whose range is not provably n, outputs written through a
rotation, buffer semantics.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import tensor

from ..authoring import pattern
from .ir_utils import DYNAMIC, index_constant, operand_segments

_DIVISIONS = (ir.AffineModExpr, ir.AffineFloorDivExpr, ir.AffineCeilDivExpr)


def tileable(expr) -> bool:
    """Whether linalg tiling takes a slice for this map result: affine, or one dim floordiv a
    positive constant (the one semi-affine form it handles)."""
    if isinstance(expr, ir.AffineFloorDivExpr):
        lhs, rhs = expr.lhs, expr.rhs
        return isinstance(lhs, ir.AffineDimExpr) and isinstance(rhs, ir.AffineConstantExpr) and rhs.value > 0
    return not _divides(expr)


def _divides(expr) -> bool:
    if isinstance(expr, _DIVISIONS):
        return True
    return isinstance(expr, ir.AffineBinaryExpr) and (_divides(expr.lhs) or _divides(expr.rhs))


def rotation(expr):
    """(j, c, n) when ``expr`` is ``(d_j + c) mod n`` (or ``d_j mod n``) with n > 0, else None."""
    if not isinstance(expr, ir.AffineModExpr) or not isinstance(expr.rhs, ir.AffineConstantExpr):
        return None
    n, lhs = expr.rhs.value, expr.lhs
    if n <= 0:
        return None
    if isinstance(lhs, ir.AffineDimExpr):
        return lhs.position, 0, n
    if isinstance(lhs, ir.AffineAddExpr):
        for a, b in ((lhs.lhs, lhs.rhs), (lhs.rhs, lhs.lhs)):
            if isinstance(a, ir.AffineDimExpr) and isinstance(b, ir.AffineConstantExpr):
                return a.position, b.value, n
    return None


def _maps(op) -> list:
    return [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]


def _loop_sizes(op, maps, skip) -> dict:
    """Static loop ranges: loop j runs over the static size of a dim indexed by d_j alone."""
    sizes = {}
    for i, (value, m) in enumerate(zip(op.operands, maps)):
        if i in skip or not isinstance(value.type, ir.RankedTensorType):
            continue
        ty = ir.RankedTensorType(value.type)
        for k, e in enumerate(m.results):
            if isinstance(e, ir.AffineDimExpr) and not ty.is_dynamic_dim(k):
                sizes.setdefault(e.position, ty.get_dim_size(k))
    return sizes


def _plan(op):
    """{input index: [(result k, (j, c, n))]} of the inputs to rotate, or a reason."""
    n_in, _ = operand_segments(op)
    maps = _maps(op)
    if not all(tileable(e) for m in maps[n_in:] for e in m.results):
        return "an output is written through a semi-affine map"
    wanted = {i: [(k, rotation(e)) for k, e in enumerate(maps[i].results) if not tileable(e)] for i in range(n_in)}
    wanted = {i: rs for i, rs in wanted.items() if rs}
    if not wanted:
        return "no input is read through a semi-affine map"
    if any(r is None for rs in wanted.values() for _, r in rs):
        return "a semi-affine map result is not a rotation (d + c) mod n"
    loops = _loop_sizes(op, maps, set(wanted))
    for i, rs in wanted.items():
        ty = ir.RankedTensorType(op.operands[i].type)
        for k, (j, _, n) in rs:
            if loops.get(j) != n:
                return f"loop d{j} does not provably run over exactly {n} (the rotation's period)"
            if not ty.is_dynamic_dim(k) and ty.get_dim_size(k) < n:
                return f"the input's dim {k} is shorter than the rotation's period {n}"
    return wanted


@pattern("linalg.generic")
def input_through_rotated_copy(op, rewriter):
    op = op.operation
    if not op.results:
        return rewriter.fail("buffer semantics")
    plan = _plan(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    maps = _maps(op)
    operands = list(op.operands)
    with rewriter.ip, op.location:
        for i, rs in plan.items():
            results = list(maps[i].results)
            for k, (j, c, n) in rs:
                operands[i] = _rotate(operands[i], k, c % n, n)
                results[k] = ir.AffineDimExpr.get(j)
            maps[i] = ir.AffineMap.get(maps[i].n_dims, 0, results)
        attrs = {}
        for a in op.attributes:  # names in these bindings, NamedAttributes in others
            name = a if isinstance(a, str) else a.name
            attrs[name] = op.attributes[name]
        attrs["indexing_maps"] = ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps])
        new = ir.Operation.create(
            "linalg.generic", results=[r.type for r in op.results], operands=operands, attributes=attrs, regions=1
        )
    op.regions[0].blocks[0].append_to(new.regions[0])
    rewriter.replace_op(op, new)
    return True


def _rotate(x, k: int, c: int, n: int):
    """y[.., t, ..] = x[.., (t + c) mod n, ..] for t in [0, n) along dim k (0 <= c < n): x[c : n]
    and x[0 : c] inserted one after the other (what IREE makes of a tensor.concat)."""
    sizes = _sizes(x)
    if c == 0:
        return _slice(x, sizes, k, 0, n)
    y = tensor.empty(_with_size(sizes, k, n), ir.RankedTensorType(x.type).element_type)
    y = _insert(_slice(x, sizes, k, c, n - c), _with_size(sizes, k, n - c), y, k, 0)
    return _insert(_slice(x, sizes, k, 0, c), _with_size(sizes, k, c), y, k, n - c)


def _sizes(x) -> list:
    """Each dim of ``x``: an int where static, a ``tensor.dim`` where dynamic."""
    ty = ir.RankedTensorType(x.type)
    return [tensor.dim(x, index_constant(d)) if ty.is_dynamic_dim(d) else ty.get_dim_size(d) for d in range(ty.rank)]


def _with_size(sizes, k: int, size) -> list:
    return [size if d == k else s for d, s in enumerate(sizes)]


def _static(sizes):
    """(the size values, static sizes with DYNAMIC where a value stands)."""
    return [s for s in sizes if not isinstance(s, int)], [s if isinstance(s, int) else DYNAMIC for s in sizes]


def _slice(x, sizes, k: int, offset: int, size: int):
    """x[.., offset : offset + size, ..] along dim k (x itself when that is all of it)."""
    ty = ir.RankedTensorType(x.type)
    if offset == 0 and sizes[k] == size:
        return x
    dyn, static = _static(_with_size(sizes, k, size))
    out = ir.RankedTensorType.get(static, ty.element_type, ty.encoding)
    offsets = [offset if d == k else 0 for d in range(ty.rank)]
    return tensor.extract_slice(out, x, [], dyn, [], offsets, static, [1] * ty.rank)


def _insert(part, sizes, into, k: int, offset: int):
    """``part`` (dims ``sizes``) written into ``into`` at ``offset`` along dim k (0 elsewhere)."""
    dyn, static = _static(sizes)
    offsets = [offset if d == k else 0 for d in range(len(sizes))]
    return tensor.insert_slice(part, into, [], dyn, [], offsets, static, [1] * len(sizes))

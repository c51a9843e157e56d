"""Patterns on ``scf.forall``: tiles that write into their ``shared_outs`` in place.

Tiling leaves, per iteration, a tile computed into a fresh ``tensor.empty``
and inserted into the loop's output with ``tensor.parallel_insert_slice``.
Unless empty-tensor elimination catches it, bufferization gives that empty an
allocation of its own (workgroup memory on GPUs) and copies it into the output.

``reuse_shared_out_for_empty`` makes the empty ``tensor.extract_slice`` of the
shared output with exactly the insertion's offsets, sizes and strides, so the
tile is computed in place. It only changes the *contents* of the destination
of the first op of the chain, which does not read it, so every value computed
from it is the same. It rewrites only when the change is also obviously
race-free under bufferization: the empty's chain of single uses reaches the
insertion, and nothing else in the loop reads that output or its initial
value; each reason it refuses is reported to ``--debug-patterns``, and
docs/passes/forall-reuse-shared-outs.md gives every condition and its why.
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .ir_utils import DYNAMIC, constant_int, defining_op, operand_segments, same_mixed
from .ir_utils import uses as _uses

# Linalg ops with a payload but no operandSegmentSizes: their destinations are
# the last operands, one per result.
_INITS_LAST = {"linalg.map", "linalg.transpose", "linalg.broadcast", "linalg.reduce"}


def _encloses(outer, op) -> bool:
    """Whether ``op`` is nested (at any depth) in a region of ``outer``."""
    p = op.parent
    while p is not None:
        if p == outer:
            return True
        p = p.parent
    return False


# --------------------------------------------------------------------------
# Linalg destinations
# --------------------------------------------------------------------------


def _dps_layout(op):
    """(number of inputs, number of destinations) of a linalg op with a payload on tensors, or None."""
    if not op.name.startswith("linalg.") or len(op.results) == 0:
        return None
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return None  # no payload (softmax, pack, winograd): unknown semantics
    n = len(op.operands)
    if "operandSegmentSizes" in op.attributes:
        segments = operand_segments(op)
        if len(segments) != 2:
            return None
        n_in, n_out = segments
    elif op.name in _INITS_LAST:
        n_out = len(op.results)
        n_in = n - n_out
    else:
        return None
    if n_out != len(op.results) or n_in < 0 or n_in + n_out != n:
        return None
    if len(op.regions[0].blocks[0].arguments) != n_in + n_out:
        return None  # a payload whose arguments are not one per operand
    return n_in, n_out


def _reads_destination(op, n_in: int, k: int) -> bool:
    """Whether the payload reads destination ``k``, or leaves some of it
    unwritten (an output map that is not onto: those elements keep the
    destination's contents, a read in all but name)."""
    arg = op.regions[0].blocks[0].arguments[n_in + k]
    if any(True for _ in arg.uses):
        return True
    if "indexing_maps" not in op.attributes:
        return False  # named ops without maps write their whole destination
    results = list(ir.AffineMapAttr(ir.ArrayAttr(op.attributes["indexing_maps"])[n_in + k]).value.results)
    dims = [e.position for e in results if isinstance(e, ir.AffineDimExpr)]
    return len(dims) != len(results) or len(set(dims)) != len(dims)


def _tile_chain(value, forall):
    """Follow a write-only destination to the ``parallel_insert_slice`` that writes it back.

    ``value`` must have one use, a destination of a linalg op that does not
    read it; the tied result must flow through single uses, each a destination
    of the next linalg op, into a ``parallel_insert_slice`` in ``forall``'s
    terminator. Returns (first op, the insertion), or the reason why not.
    """
    uses = _uses(value)
    if len(uses) != 1:
        return "the empty has other uses"  # (an unused one is dead code, erased by the driver)
    first = None
    current = value
    while True:
        uses = _uses(current)
        if not uses:
            return "the result tied to the destination is unused: nothing is written back"
        if len(uses) != 1:
            return "the tile escapes: a result in the chain to parallel_insert_slice has other uses"
        user, number = uses[0]
        if user.name == "tensor.parallel_insert_slice":
            if first is None:
                return "the empty is not the destination of a linalg op"
            if number != 0:
                return "the tile is the destination of parallel_insert_slice, not its source"
            parent = user.parent
            if parent is None or parent.name != "scf.forall.in_parallel" or parent.parent != forall:
                return "the parallel_insert_slice is not in this scf.forall's terminator"
            return first, user
        if user.name == "tensor.collapse_shape" and first is not None:
            # IREE's unit-dim folding puts one before a rank-reducing insertion.
            if not _drops_unit_dims_only(user):
                return "the tile escapes: a tensor.collapse_shape in the chain merges dims of extent > 1"
            reshaped = _uses(user.results[0])
            if len(reshaped) != 1 or reshaped[0][0].name != "tensor.parallel_insert_slice":
                return "the tile escapes: a tensor.collapse_shape in the chain is not inserted directly"
            current = user.results[0]
            continue
        layout = _dps_layout(user)
        if layout is None:
            if first is None:
                return f"'{user.name}' is not a linalg op with a payload"
            return f"the tile escapes: a result in the chain is used by '{user.name}'"
        n_in, n_out = layout
        k = number - n_in
        if k < 0:
            if first is None:
                return "the empty is an input, not a destination, of its user"
            return "the tile escapes: a result in the chain is an input of another op"
        if first is None:
            if _reads_destination(user, n_in, k):
                return f"'{user.name}' reads its destination, or leaves part of it unwritten (the empty's undefined contents)"
            first = user
        current = user.results[k]


def _drops_unit_dims_only(collapse) -> bool:
    """Whether a ``tensor.collapse_shape`` only drops static unit dims: every
    group has at most one dim that is not a static 1, so no element moves."""
    shape = ir.RankedTensorType(collapse.operands[0].type).shape
    for group in ir.ArrayAttr(collapse.attributes["reassociation"]):
        dims = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(group)]
        if sum(1 for d in dims if shape[d] != 1) > 1:
            return False
    return True


# --------------------------------------------------------------------------
# Slices
# --------------------------------------------------------------------------


def _slice_params(op):
    """Offsets, sizes, strides of an extract/parallel_insert slice: ints and Values (constants folded)."""
    segments = operand_segments(op)
    operands = list(op.operands)
    start = sum(segments[:-3])
    out = []
    for seg, name in zip(segments[-3:], ("static_offsets", "static_sizes", "static_strides")):
        dynamic = iter(operands[start : start + seg])
        start += seg
        entries = []
        for s in ir.DenseI64ArrayAttr(op.attributes[name]):
            if s == DYNAMIC:
                v = next(dynamic)
                c = constant_int(v)
                entries.append(v if c is None else c)
            else:
                entries.append(s)
        out.append(entries)
    return out


def _dynamic_operands(op):
    """The offset, size and stride operands of a slice op (its last three segments)."""
    segments = operand_segments(op)
    return list(op.operands)[sum(segments[:-3]) :]


def _slice_dynamic_sizes(op):
    """The sizes of the dynamic dims of a slice, in order (ints for constants)."""
    _, sizes, _ = _slice_params(op)
    static = list(ir.DenseI64ArrayAttr(op.attributes["static_sizes"]))
    return [v for v, s in zip(sizes, static) if s == DYNAMIC]


def _shared_out(insert, forall):
    """(block argument, initial value) of the shared output ``insert`` writes, or None."""
    dest = insert.operands[1]
    if not isinstance(dest, ir.BlockArgument):
        return None
    body = forall.regions[0].blocks[0]
    if dest.owner != body:
        return None
    n_results = len(forall.results)
    k = dest.arg_number - (len(body.arguments) - n_results)
    if k < 0:
        return None
    return dest, list(forall.operands)[len(forall.operands) - n_results + k]


def _tile_fits(tile_type, insert) -> bool:
    """Whether a slice of ``tile_type`` at the insertion's offsets, sizes and
    strides is valid: the inserted type itself, or (when a unit-dim collapse
    sits between the tile and a rank-reducing insertion) a shape equal to the
    insertion's sizes, dynamic where they are dynamic."""
    inserted = insert.operands[0].type
    if tile_type == inserted:
        return True
    tile = ir.RankedTensorType(tile_type)
    if tile.element_type != ir.RankedTensorType(inserted).element_type:
        return False
    static = list(ir.DenseI64ArrayAttr(insert.attributes["static_sizes"]))
    return len(static) == tile.rank and all(
        (s == DYNAMIC) == tile.is_dynamic_dim(d) and (s == DYNAMIC or s == tile.shape[d]) for d, s in enumerate(static)
    )


def _write_only_tile(slice_op, arg, forall) -> bool:
    """An extract_slice of ``arg`` that is only a destination written back into ``arg`` at the same place."""
    if slice_op.name != "tensor.extract_slice":
        return False
    chain = _tile_chain(slice_op.results[0], forall)
    if isinstance(chain, str):
        return False
    _, insert = chain
    if insert.operands[1] != arg or not _tile_fits(slice_op.results[0].type, insert):
        return False
    return all(
        len(a) == len(b) and all(same_mixed(x, y) for x, y in zip(a, b))
        for a, b in zip(_slice_params(slice_op), _slice_params(insert))
    )


def _shared_out_problem(arg, init, forall):
    """Why the shared output may be read elsewhere in the loop, or None."""
    for user, number in _uses(arg):
        if user.name == "tensor.parallel_insert_slice" and number == 1:
            continue
        if user.name == "tensor.extract_slice" and number == 0 and _write_only_tile(user, arg, forall):
            continue
        return f"the shared_out is read elsewhere in the loop body (by '{user.name}')"
    own = 0
    for user, _ in _uses(init):
        if user == forall:
            own += 1
        elif _encloses(forall, user):
            return f"the shared_out's initial value is used inside the loop (by '{user.name}')"
    if own != 1:
        return "the shared_out's initial value is also the initial value of another shared_out"
    return None


def _available_before(value, op, forall) -> bool:
    """Whether ``value`` (used in ``forall``'s terminator) is defined before ``op`` in the body."""
    d = defining_op(value)
    if d is None or d.parent != forall:
        return True  # a block argument, or defined outside the loop
    return d.is_before_in_block(op)


# --------------------------------------------------------------------------
# The pattern
# --------------------------------------------------------------------------


@pattern("tensor.empty")
def reuse_shared_out_for_empty(op, rewriter):
    empty = op.operation
    forall = empty.parent
    if forall is None or forall.name != "scf.forall":
        return rewriter.fail("not directly in the body of an scf.forall")
    chain = _tile_chain(empty.results[0], forall)
    if isinstance(chain, str):
        return rewriter.fail(chain)
    first, insert = chain
    shared = _shared_out(insert, forall)
    if shared is None:
        return rewriter.fail("the parallel_insert_slice does not insert into a shared_out of this scf.forall")
    arg, init = shared
    ty = empty.results[0].type
    if not _tile_fits(ty, insert):
        return rewriter.fail(
            f"the empty's type {ty} is not the inserted type {insert.operands[0].type} "
            "nor the shape of the insertion's sizes"
        )
    mine = [c if (c := constant_int(v)) is not None else v for v in empty.operands]
    theirs = _slice_dynamic_sizes(insert)
    if len(mine) != len(theirs) or not all(same_mixed(a, b) for a, b in zip(mine, theirs)):
        return rewriter.fail("the empty's dynamic sizes are not the sizes of the parallel_insert_slice")
    problem = _shared_out_problem(arg, init, forall)
    if problem:
        return rewriter.fail(problem)
    needed = _dynamic_operands(insert)
    if all(_available_before(v, empty, forall) for v in needed):
        ip = rewriter.ip
    elif all(_available_before(v, first, forall) for v in needed):
        ip = ir.InsertionPoint(first)
    else:
        return rewriter.fail("the slice's offsets, sizes or strides are defined after the op using the empty")
    segments = operand_segments(insert)
    attrs = {name: insert.attributes[name] for name in ("static_offsets", "static_sizes", "static_strides")}
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, *segments[-3:]])
    with ip, empty.location:
        slice_op = ir.Operation.create("tensor.extract_slice", results=[ty], operands=[arg, *needed], attributes=attrs)
    rewriter.replace_op(empty, [slice_op.results[0]])
    return True

"""torch.roll by more than the size: shift by its remainder, as torch does.

Root cause. IREE's torch frontend decomposes ``torch.aten.roll`` (torch-mlir's
DecomposeAtenRollOp) into ``cat(slice(x, d, -s), slice(x, d, 0, -s))``. A
slice bound is wrapped once and clamped, so the decomposition is right only
for |s| <= n, the dim's size: beyond it both bounds clamp, one slice is all of
x, the other empty, and the tensor comes back unrotated (``torch.roll(x, 7,
0)`` of 5 rows is ``x``, not ``torch.roll(x, 2, 0)``). Static and dynamic
sizes alike; wrong numbers, no diagnostic.

``roll_shift_mod_size`` gives each shift as ``s mod n``: torch.roll's own
definition (a roll by s and by s mod n are the same permutation), in [0, n),
which the decomposition handles. Static n: the constant folded, and a dim
rolled by a multiple of n (or empty) dropped (the decomposition also fails
to compile some of those: a roll of one element by -1, of 4 by -8), the roll
itself when none is left. Dynamic n: ``torch.aten.remainder.int(s,
torch.prim.max.int(n, 1))`` (an empty dim rolls by 0, no division by 0).
Left alone: rolls whose shifts are all in (0, n) (|s| <= 1 where n is
dynamic), shifts or dims that are not constants, a roll without dims
(torch's flattened form), unranked tensors.
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_zero_size_reshape_to_empty import vtensor


def _constant_ints(list_value):
    """The constant ints of a ``torch.prim.ListConstruct``, or None."""
    op = defining_op(list_value)
    if op is None or op.name != "torch.prim.ListConstruct":
        return None
    out = []
    for item in op.operands:
        c = defining_op(item)
        if c is None or c.name != "torch.constant.int":
            return None
        out.append(ir.IntegerAttr(c.attributes["value"]).value)
    return out


def _canonical(shift: int, size) -> bool:
    """Whether the decomposition takes ``shift`` as it is: 0 < shift < size where the size is static
    (it also fails to compile some shifts by a multiple of the size), |shift| <= 1 where dynamic."""
    return 0 < shift < size if size is not None else abs(shift) <= 1


@pattern("torch.aten.roll")
def roll_shift_mod_size(op, rewriter):
    op = op.operation
    x, shifts_list, dims_list = op.operands
    t = vtensor(x.type)
    if t is None:
        return rewriter.fail("not a tensor of known rank")
    sizes, _ = t
    shifts, dims = _constant_ints(shifts_list), _constant_ints(dims_list)
    if shifts is None or dims is None:
        return rewriter.fail("shifts or dims are not constant ints")
    if len(shifts) != len(dims) or not dims:
        return rewriter.fail("not one dim per shift (a roll of the flattened tensor, or a mismatch)")
    if any(not -len(sizes) <= d < len(sizes) for d in dims):
        return rewriter.fail("a dim out of range")
    dims = [d % len(sizes) for d in dims]
    if all(_canonical(s, sizes[d]) for s, d in zip(shifts, dims)):
        return rewriter.fail("every shift is one the decomposition gets right")
    # A static shift that is a multiple of the size (or of an empty dim) rolls nothing: that dim goes.
    kept = [(s, d) for s, d in zip(shifts, dims) if sizes[d] is None or (sizes[d] and s % sizes[d])]
    if not kept:
        rewriter.replace_op(op, [x])
        return True
    with rewriter.ip, op.location:
        int_list = shifts_list.type
        new_shifts = _list(int_list, [_shift(x, s, d, sizes[d]) for s, d in kept])
        new_dims = _list(int_list, [_int(d) for _, d in kept])
        new = ir.Operation.create("torch.aten.roll", results=[op.results[0].type], operands=[x, new_shifts, new_dims])
    rewriter.replace_op(op, new)
    return True


def _list(list_type, items):
    return ir.Operation.create("torch.prim.ListConstruct", results=[list_type], operands=items).results[0]


def _int(value: int):
    return ir.Operation.create(
        "torch.constant.int",
        results=[ir.Type.parse("!torch.int")],
        attributes={"value": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)},
    ).results[0]


def _shift(x, shift: int, dim: int, size):
    """The shift as a !torch.int: ``shift mod size`` (static), else as it is or by
    ``remainder.int`` (dynamic)."""
    if size is not None:
        return _int(shift % size)
    if abs(shift) <= 1:
        return _int(shift)
    int_t = ir.Type.parse("!torch.int")
    n = ir.Operation.create("torch.aten.size.int", results=[int_t], operands=[x, _int(dim)]).results[0]
    m = ir.Operation.create("torch.prim.max.int", results=[int_t], operands=[n, _int(1)]).results[0]
    return ir.Operation.create("torch.aten.remainder.int", results=[int_t], operands=[_int(shift), m]).results[0]

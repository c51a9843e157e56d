"""Patterns on ``hal.tensor.import`` of a signed or unsigned integer tensor: the same import, signless, as IREE's
torch frontend imports every other tensor.

A program that writes an integer input in place (``x.zero_()``, ``index_put_``
on an int64 input) exports with a mutable argument. IREE 3.13's
``torch-iree-func-conversion`` imports it with the torch dtype's builtin type
kept signed (``convertMutableTensorArg`` skips the signless conversion its
immutable path makes), so ``torch-finalizing-backend-type-conversion`` finds
``tensor<?xsi64>`` where it wants ``tensor<?xi64>``: ``failed to legalize
unresolved target materialization``. Floats are unaffected.

``import_signless`` rewrites such an import to the signless type (result and
``target_encoding``) and rebuilds its ``torch_c.from_builtin_tensor`` users on
it: the same bits, the type the immutable path gives. It must run between
those two passes (``--inject-input after:torch-iree-func-conversion``).

Left alone, with the reason: an import of anything but a ranked tensor of a
signed or unsigned integer; one read by anything but
``torch_c.from_builtin_tensor``.
"""

from __future__ import annotations

import functools

from iree.compiler import ir

from ..authoring import pattern


def signless(t: ir.Type) -> ir.Type | None:
    """``t`` with a signed or unsigned integer element made signless; None for any other type."""
    if not isinstance(t, ir.RankedTensorType):
        return None
    element = t.element_type
    if not isinstance(element, ir.IntegerType) or element.is_signless:
        return None
    return ir.RankedTensorType.get(t.shape, ir.IntegerType.get_signless(element.width), t.encoding)


@pattern("hal.tensor.import")
def import_signless(op, rewriter):
    op = op.operation
    new_type = signless(op.results[0].type)
    if new_type is None:
        return rewriter.fail("not an import of a signed or unsigned integer tensor")
    users = [use.owner for use in op.results[0].uses]
    users.sort(key=functools.cmp_to_key(lambda a, b: -1 if a.is_before_in_block(b) else 1))  # program order
    if any(u.name != "torch_c.from_builtin_tensor" for u in users):
        return rewriter.fail("read by something other than torch_c.from_builtin_tensor")
    attributes = {name: op.attributes[name] for name in op.attributes}
    if "target_encoding" in attributes:
        attributes["target_encoding"] = ir.TypeAttr.get(new_type)
    with rewriter.ip, op.location:
        new = ir.Operation.create(
            "hal.tensor.import", results=[new_type], operands=list(op.operands), attributes=attributes
        )
        casts = [
            ir.Operation.create("torch_c.from_builtin_tensor", results=[u.results[0].type], operands=[new.result])
            for u in users
        ]
    for user, cast in zip(users, casts):
        rewriter.replace_op(user, cast)
    rewriter.erase_op(op)
    return True

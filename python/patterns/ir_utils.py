"""Small facts about IR that several pattern families ask."""

from __future__ import annotations

from iree.compiler import ir

DYNAMIC = -9223372036854775808  # ShapedType::kDynamic


def defining_op(value):
    """The operation defining ``value``, or None for a block argument."""
    owner = value.owner
    op = getattr(owner, "operation", owner)
    return op if isinstance(op, ir.Operation) else None


def constant_int(value):
    """The integer ``value`` is an ``arith.constant`` of, or None."""
    op = defining_op(value)
    if op is not None and op.name == "arith.constant":
        attr = op.attributes["value"]
        if isinstance(attr, ir.IntegerAttr):
            return attr.value
    return None


def operand_segments(op) -> list[int]:
    """The sizes of an op's variadic operand groups (``operandSegmentSizes``)."""
    return list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))


def defined_before(value, op) -> bool:
    """Whether ``value`` is available at ``op``: a block argument of a block
    enclosing it, or defined earlier in ``op``'s block or in an enclosing one."""
    d = defining_op(value)
    a = op
    while a is not None:
        try:
            block = a.block
        except (ValueError, RuntimeError):  # a detached or top-level op
            return False
        if d is None and block == value.owner:
            return True
        if d is not None and d.block == block:
            return d.is_before_in_block(a)
        a = a.parent
    return False

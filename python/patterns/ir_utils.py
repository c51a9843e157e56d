"""Small facts about IR that several pattern families ask."""

from __future__ import annotations

import functools

from iree.compiler import ir

DYNAMIC = -9223372036854775808  # ShapedType::kDynamic


def linalg_dialect():
    """``iree.compiler.dialects.linalg``, imported when a rewrite first builds a linalg op: its OpDSL costs a
    cold run about 0.2 s, which a fix that finds nothing to rewrite must not pay (docs/reference/fixes.md)."""
    from iree.compiler.dialects import linalg

    return linalg


def operation(x):
    """The ``ir.Operation`` of an op view (or the operation itself)."""
    return x.operation if hasattr(x, "operation") else x


def defining_op(value):
    """The operation defining ``value``, or None for a block argument."""
    op = operation(value.owner)
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


def has_uses(value) -> bool:
    for _ in value.uses:
        return True
    return False


def uses(value) -> list:
    """(owner operation, operand number) of every use of ``value``."""
    return [(operation(u.owner), u.operand_number) for u in value.uses]


def same_mixed(a, b) -> bool:
    """Equal offsets/sizes/strides: equal integers (static or constant) or the same SSA value."""
    if isinstance(a, int) or isinstance(b, int):
        return isinstance(a, int) and isinstance(b, int) and a == b
    return a == b


def shape(t) -> list[int]:
    """A ranked type's dims, ``DYNAMIC`` for dynamic ones."""
    return list(t.shape)


def index_constant(v: int):
    """``arith.constant v : index`` at the current insertion point."""
    from iree.compiler.dialects import arith

    return arith.constant(ir.IndexType.get(), v)


def reassociation(op) -> tuple[tuple[int, ...], ...]:
    """The reassociation groups of a ``tensor.collapse_shape`` / ``expand_shape``."""
    return _reassociation_of(op.attributes["reassociation"])


@functools.lru_cache(maxsize=256)
def _reassociation_of(attr):
    return tuple(tuple(ir.IntegerAttr(i).value for i in group) for group in ir.ArrayAttr(attr))


def gather_parts(op):
    """(base, base indices, index vector, mask, pass-through) of a ``vector.gather``."""
    ops = list(op.operands)
    return ops[0], ops[1:-3], ops[-3], ops[-2], ops[-1]

"""A copy, made by a dispatch, for each in-place operand that reaches its writer through a barrier.

Stock IREE 3.13 writes in place a shared value that reaches an in-place op
(a ``flow.dispatch`` tied operand, a ``flow.tensor.update`` target) through
``util.optimization_barrier`` (``util.unfoldable_constant``,
``stablehlo.optimization_barrier``): a constant (the module writes its own
read-only data: SIGSEGV when loaded by mmap), a global, an argument or value
also returned. The barrier is neither tied nor an access op, so stream's
copy-on-write loses the write behind it: MaterializeCopyOnWrite sees a single
user and inserts no clone, ResourceUsage's ``hasMutatingTiedUses`` takes the
clone that protects a constant for a read-only cast (RefineUsage makes it
``constant``), and ElideAsyncCopies' mutation walk (the Explorer, which does
not cross barriers) elides it. docs/passes/copy-tied-operand-through-barrier.md
traces it through IREE.

``copy_tied_operands_through_barriers`` gives such an operand a copy made
right before the writer by a dispatch of its own executable (the machinery
of ``copy_shared_tied_operand``), when the value crosses a barrier and its
root (through barriers, reshapes, bitcasts) is shared: a global, a non-splat
constant, a value with other uses, an imported buffer view read elsewhere.
"""

from __future__ import annotations

from iree.compiler import ir

from .copy_shared_tied_operand import Site, argument_dims, buffer_view_read_elsewhere, copy_sites, copyable
from .ir_utils import defining_op, operand_segments, operation

BARRIER = "util.optimization_barrier"
_VIEWS = ("flow.tensor.reshape", "flow.tensor.bitcast")
_FUNCS = ("util.func", "func.func")
_CONSTANTS = ("arith.constant", "flow.tensor.constant")


def _source(value):
    """The operand a view's or barrier's result ``value`` passes through, or None."""
    d = defining_op(value)
    if d is None:
        return None
    if d.name in _VIEWS:
        return d.operands[0]
    if d.name == BARRIER:
        return d.operands[value.result_number]
    return None


def trace(value) -> tuple[object, bool]:
    """(the root ``value`` is a view of through views and barriers, whether a barrier was crossed)."""
    crossed = False
    while (src := _source(value)) is not None:
        crossed = crossed or defining_op(value).name == BARRIER
        value = src
    return value, crossed


def leaf_uses(value) -> int:
    """Uses of ``value`` and of its views and barriers, those themselves not counted."""
    n = 0
    for u in value.uses:
        user = operation(u.owner)
        if user.name in _VIEWS and u.operand_number == 0:
            n += sum(leaf_uses(r) for r in user.results)
        elif user.name == BARRIER:
            n += leaf_uses(user.results[u.operand_number])
        else:
            n += 1
    return n


def _splat(op) -> bool:
    attr = op.attributes["value"]
    return isinstance(attr, ir.DenseElementsAttr) and attr.is_splat


def shared(root) -> str | None:
    """Why writing ``root`` in place is wrong (None: it is the writer's alone)."""
    d = defining_op(root)
    if d is None:
        return None  # a block argument: what the caller or the loop passes is unknown here
    if d.name == "util.global.load":
        return "the value is a global's: every call reads it"
    if d.name in _CONSTANTS and not _splat(d):
        return "the value is a constant: every call reads it"
    if leaf_uses(root) > 1:
        return "the value has other uses"
    if d.name == "hal.tensor.import" and buffer_view_read_elsewhere(d):
        return "the value is an imported buffer view that has other uses"
    return None


def needs_copy(value) -> str | None:
    """Why in-place operand ``value`` needs a copy (None: stream handles it, or nothing shares it)."""
    root, crossed = trace(value)
    if not crossed:
        return None  # stream sees the write: its copy-on-write is right (or copy-shared-tied-operand's case)
    return shared(root)


def _tied_arguments(op) -> list[int]:
    if "tied_operands" not in op.attributes:
        return []
    return sorted({ir.IntegerAttr(a).value for a in ir.ArrayAttr(op.attributes["tied_operands"])} - {-1})


def in_place_operands(op) -> list[Site]:
    """The operands ``op`` writes in place, as copy sites."""
    if op.name == "flow.dispatch":
        first = operand_segments(op)[0]
        return [Site(op, first + k, k, argument_dims(op, k)) for k in _tied_arguments(op)]
    if op.name == "flow.tensor.update":
        seg = operand_segments(op)  # target, target_dims, start_indices, update, update_dims
        return [Site(op, 0, 0, list(op.operands)[1 : 1 + seg[1]])]
    return []


def sites(module) -> list[Site]:
    """The in-place operands to copy, in program order."""
    out = []
    for f in operation(module).regions[0].blocks[0].operations:
        f = operation(f)
        if f.name not in _FUNCS:
            continue

        def visit(op):
            for site in in_place_operands(operation(op)):
                v = site.user.operands[site.operand]
                if copyable(v.type) is None and needs_copy(v) is not None:
                    out.append(site)
            return ir.WalkResult.ADVANCE

        f.walk(visit)
    return out


def copy_tied_operands_through_barriers(module) -> list:
    """The rewrite on a module; returns the ops whose operand was given a copy (one per operand)."""
    return copy_sites(module, sites(module), "__copy_through_barrier")  # all decisions first, then the edits

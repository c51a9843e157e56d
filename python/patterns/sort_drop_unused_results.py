"""Patterns on ``iree_linalg_ext.sort``: unused results, and read-only inputs.

A sort is in place on all its ``outs``: operand i is permuted along
``dimension`` and returned as result i, and the comparator sees operand i's
two elements as block arguments 2i and 2i+1. Top-k as PyTorch writes it sorts
the values with an iota of indices and often keeps only one of them.

* ``drop_unused_sort_results``: a result nobody uses, whose comparator
  arguments nobody reads, goes with its operand and block arguments.
* ``copy_read_only_sort_operand``: a result nobody uses that the comparator
  reads must stay, and the sort still writes it in place; when that operand
  is loaded from a read-only dispatch binding, GPU bufferization fails. The
  sort gets a working copy (``linalg.copy`` into a fresh ``tensor.empty``),
  which tiles with the sort, so the read-only input is never written.

Sorts with ``ins`` operands or buffer semantics are left alone. Why a fresh
copy and not a writable binding: docs/passes/sort-drop-unused-results.md.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, tensor

from ..authoring import pattern
from .ir_utils import has_uses, linalg_dialect, operand_segments


def _comparator(op):
    return op.regions[0].blocks[0]


def _droppable(op) -> list[int]:
    """Indices of results with no uses whose two block arguments are unused."""
    block = _comparator(op)
    out = []
    for i, result in enumerate(op.results):
        if has_uses(result):
            continue
        if has_uses(block.arguments[2 * i]) or has_uses(block.arguments[2 * i + 1]):
            continue
        out.append(i)
    return out


def _tensor_sort(op) -> bool:
    """A sort on tensors with only ``outs`` operands and the usual comparator."""
    if len(op.results) == 0:
        return False  # buffer semantics
    try:
        ins, outs = operand_segments(op)
    except (KeyError, ValueError):
        return False
    if ins != 0 or outs != len(op.results):
        return False
    return len(_comparator(op).arguments) == 2 * outs


@pattern("iree_linalg_ext.sort")
def drop_unused_sort_results(op, rewriter):
    op = op.operation
    if not _tensor_sort(op):
        return rewriter.fail("not a tensor sort with only outs operands")
    drop = _droppable(op)
    if not drop:
        return rewriter.fail("every result is used or read by the comparator")
    keep = [i for i in range(len(op.results)) if i not in drop]
    if not keep:
        # Nothing it computes is observed: the sort is dead.
        rewriter.erase_op(op)
        return True
    attrs = {}
    for a in op.attributes:  # names in these bindings, NamedAttributes in others
        name = a if isinstance(a, str) else a.name
        attrs[name] = op.attributes[name]
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([0, len(keep)])
    with rewriter.ip, op.location:
        new = ir.Operation.create(
            "iree_linalg_ext.sort",
            results=[op.results[i].type for i in keep],
            operands=[op.operands[i] for i in keep],
            attributes=attrs,
            regions=1,
        )
    block = _comparator(op)
    block.append_to(new.regions[0])
    for i in sorted(drop, reverse=True):
        block.erase_argument(2 * i + 1)
        block.erase_argument(2 * i)
    replacements = []
    kept = iter(new.results)
    for i in range(len(op.results)):
        # Dropped results have no uses; any value of their type stands in.
        replacements.append(op.operands[i] if i in drop else next(kept))
    rewriter.replace_op(op, replacements)
    return True


def _read_only_load(value) -> bool:
    owner = value.owner
    op = getattr(owner, "operation", owner)
    if not hasattr(op, "name") or op.name != "iree_tensor_ext.dispatch.tensor.load":
        return False
    return "readonly:" in str(op.operands[0].type)


@pattern("iree_linalg_ext.sort")
def copy_read_only_sort_operand(op, rewriter):
    op = op.operation
    if not _tensor_sort(op):
        return rewriter.fail("not a tensor sort with only outs operands")
    block = _comparator(op)
    targets = [
        i
        for i, result in enumerate(op.results)
        if not has_uses(result)
        and (has_uses(block.arguments[2 * i]) or has_uses(block.arguments[2 * i + 1]))
        and _read_only_load(op.operands[i])
    ]
    if not targets:
        return rewriter.fail("no unused, comparator-read result sorts a read-only input in place")
    if any(ir.RankedTensorType(op.operands[i].type).encoding is not None for i in targets):
        return rewriter.fail("the read-only input has a tensor encoding, which a plain copy would drop")
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    if any(ir.RankedTensorType(op.operands[i].type).is_dynamic_dim(dim) for i in targets):
        # Each tile of the copy spans the sorted dim: GPU codegen sizes it by the dim's upper bound, 2^55
        # bytes of shared memory, where stock compiles the sort (the fuzzer's cuda seed 159).
        return rewriter.fail("the sorted dimension is dynamic: the copy's tile would be sized by its upper bound")
    with rewriter.ip, op.location:
        copies = {i: _working_copy(op.operands[i]) for i in targets}
        new = op.clone()  # the same sort reading the copies, so the rewriter sees a replacement
        for i, copy in copies.items():
            new.operands[i] = copy
    rewriter.replace_op(op, new)
    return True


def _working_copy(source):
    """``linalg.copy`` of ``source`` into a fresh ``tensor.empty`` of its shape."""
    ty = ir.RankedTensorType(source.type)
    sizes = []
    for d in range(ty.rank):
        if ty.is_dynamic_dim(d):
            sizes.append(tensor.dim(source, arith.constant(ir.IndexType.get(), d)))
        else:
            sizes.append(ty.get_dim_size(d))
    empty = tensor.empty(sizes, ty.element_type)
    return linalg_dialect().copy(source, outs=[empty])

"""Patterns on ``torch.aten.topk``: ``sorted=False`` computed sorted, the one form torch-mlir lowers.

torch-mlir lowers ``aten.topk`` only with ``sorted`` the constant true; with
false the conversion stops and leaves ``torch.constant.bool`` unconverted
(DeepSeek-V3's grouped routing asks for ``sorted=False``). torch leaves the
order of an unsorted top-k unspecified, so the sorted order is one valid
answer: ``topk_unsorted_as_sorted`` gives the op a new ``torch.constant.bool
true`` for ``sorted`` and changes nothing else (the old constant may have
other users).

Left alone: ``sorted`` not a constant, or already true.
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import bool_constant, constant_bool, create

_SORTED = 4  # topk(self, k, dim, largest, sorted)


@pattern("torch.aten.topk")
def topk_unsorted_as_sorted(op, rewriter):
    op = op.operation
    if len(op.operands) != _SORTED + 1:
        return rewriter.fail("not topk(self, k, dim, largest, sorted)")
    is_sorted = constant_bool(op.operands[_SORTED])
    if is_sorted is None:
        return rewriter.fail("sorted is not a torch.constant.bool")
    if is_sorted:
        return rewriter.fail("sorted is true already")
    with rewriter.ip, op.location:
        operands = [*op.operands[:_SORTED], bool_constant(True)]
        new = create("torch.aten.topk", [r.type for r in op.results], operands)
    rewriter.replace_op(op, new)
    return True

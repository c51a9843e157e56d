"""Patterns on torch's scatters: a negative ``dim`` wrapped to ``dim + rank``, as torch wraps it.

torch-mlir's lowering of ``aten.scatter.src`` and ``aten.scatter_add``
(``TorchToTMTensor``, ``convertTorchScatterIndexAndSrcToTMScatterIndexAndSrc``)
indexes its list of coordinates with ``dim`` as given: a negative ``dim``
reads out of bounds and IREE 3.13's compiler crashes (a segmentation fault,
no diagnostic). ``scatter.value`` and ``scatter_reduce.two``, which it
decomposes through the same path, crash alike. ``scatter(-1, ...)`` is the
common spelling: PhiMoE's router (transformers' ``sparsemixer``) masks the
chosen expert with ``scores.scatter(-1, index, -inf)``.

torch wraps ``dim`` first (``maybe_wrap_dim``: ``dim + self.dim()`` for a
negative one), so ``wrap_scatter_dim`` gives the op a new
``torch.constant.int`` of the wrapped value and changes nothing else.

Left alone, with the reason: ``dim`` not a ``torch.constant.int``; ``dim``
not negative; an unranked or 0-d ``self``; ``dim`` out of range (torch raises).
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import constant_int, create, int_constant, ranked_refusal, vtensor

_DIM = 1  # scatter*(self, dim, index, ...)

SCATTERS = (
    "torch.aten.scatter.src",
    "torch.aten.scatter.value",
    "torch.aten.scatter.reduce",
    "torch.aten.scatter.value_reduce",
    "torch.aten.scatter_add",
    "torch.aten.scatter_reduce.two",
)


def wrap_scatter_dim(op, rewriter):
    """A scatter with a new, wrapped ``dim`` (rooted at each of ``SCATTERS``)."""
    op = op.operation
    dim = constant_int(op.operands[_DIM])
    if dim is None:
        return rewriter.fail("dim is not a torch.constant.int")
    if dim >= 0:
        return rewriter.fail("dim is not negative")
    self_type = vtensor(op.operands[0].type)
    if self_type is None or self_type.rank == 0:
        return rewriter.fail("self is not a ranked !torch.vtensor of rank 1 or more")
    refusal = ranked_refusal("self", (self_type,), dim)  # dim is negative: out of range below -rank
    if refusal is not None:
        return rewriter.fail(refusal)
    with rewriter.ip, op.location:
        operands = list(op.operands)
        operands[_DIM] = int_constant(dim + self_type.rank)
        new = create(op.name, [r.type for r in op.results], operands)
    rewriter.replace_op(op, new)
    return True


PATTERNS = [pattern(name)(wrap_scatter_dim) for name in SCATTERS]

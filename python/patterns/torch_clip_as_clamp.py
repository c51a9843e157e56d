"""Patterns on ``torch.aten.clip`` and ``clip.Tensor``: the ``aten.clamp`` and ``clamp.Tensor`` they alias.

``torch.clip`` is PyTorch's alias of ``torch.clamp`` (ATen implements
``clip(self, min, max)`` and ``clip.Tensor`` by calling ``clamp`` and
``clamp.Tensor`` with the same arguments), but torch-mlir knows only
``clamp``: ``clip`` imports as ``torch.operator "torch.aten.clip"`` and fails
IREE's input conversion (torch-mlir's ``IouOfModule_basic``, a box IoU that
clips its overlaps at 0). ``clip_as_clamp`` writes ``torch.aten.clamp`` (bounds
that are scalars or none) or ``torch.aten.clamp.Tensor`` (bounds that are
tensors or none) with the same operands and result type: the same kernel, so
the same promotion and the same numbers.

Left alone, with the reason: not ``(self, min, max) -> tensor``; an input or
result that is not a ranked value tensor; a bound of another type than the
overload takes (``clip``: ``!torch.int``, ``!torch.float`` or none;
``clip.Tensor``: a ranked value tensor or none); both bounds none (torch
raises).
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .torch_ir import create, vtensor

SCALARS = ("!torch.int", "!torch.float")
OVERLOADS = {"torch.aten.clip": "torch.aten.clamp", "torch.aten.clip.Tensor": "torch.aten.clamp.Tensor"}


def is_bound(t, overload: str) -> bool:
    """Whether ``t``, a bound's type that is not none, is one ``overload`` takes."""
    return str(t) in SCALARS if overload == "torch.aten.clip" else vtensor(t) is not None


def plan_clip(op, name: str) -> str | None:
    """Why the clip overload ``name`` is left alone, or None where it is rewritten."""
    if len(op.operands) != 3 or len(op.results) != 1:
        return "not (self, min, max) -> tensor"
    x, *bounds = op.operands
    if vtensor(x.type) is None or vtensor(op.results[0].type) is None:
        return "the input or the result is not a ranked !torch.vtensor"
    given = [b for b in bounds if str(b.type) != "!torch.none"]
    if not given:
        return "both bounds are none (torch raises)"
    wrong = [str(b.type) for b in given if not is_bound(b.type, name)]
    if wrong:
        return f"a bound of type {wrong[0]}: not one {name} takes"
    return None


@pattern("torch.operator")
def clip_as_clamp(op, rewriter):
    op = op.operation
    name = ir.StringAttr(op.attributes["name"]).value
    if name not in OVERLOADS:
        return rewriter.fail(f"not {' nor '.join(OVERLOADS)}")
    why = plan_clip(op, name)
    if why is not None:
        return rewriter.fail(why)
    with rewriter.ip, op.location:
        new = create(OVERLOADS[name], [op.results[0].type], list(op.operands))
    rewriter.replace_op(op, new)
    return True

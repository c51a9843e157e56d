"""Patterns on ``torch.aten.concat`` and ``torch.aten.concatenate``: ``aten.cat``, the op they alias.

``torch.concat`` and ``torch.concatenate`` are aliases of ``torch.cat`` (ATen
implements both by calling ``at::cat``), but torch-mlir knows only ``cat``:
they import as ``torch.operator "torch.aten.concat"`` and fail IREE's input
conversion. PhiMoE's router (transformers' ``sparsemixer``) calls
``torch.concat``. ``concat_as_cat`` writes ``torch.aten.cat`` of the same
list and dim with the same result type. Parts of another dtype than the
result's are converted first (``torch_ir.convert``): ``cat`` promotes as
``torch.promote_types`` does, while torch-mlir's lowering of ``cat`` converts
without the source's signedness.

Left alone, with the reason: not ``(tensors, dim)`` (the ``Dimname`` forms
take a string); tensors that are not a ``torch.prim.ListConstruct`` of ranked
``!torch.vtensor``; a result dtype that is not torch's promotion of the
parts'.
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import convert, create, promote_all, ranked_refusal, vtensor

ALIASES = ("torch.aten.concat", "torch.aten.concatenate")


@pattern("torch.operator")
def concat_as_cat(op, rewriter):
    op = op.operation
    name = ir.StringAttr(op.attributes["name"]).value
    if name not in ALIASES:
        return rewriter.fail(f"not {' nor '.join(ALIASES)}")
    if len(op.operands) != 2 or len(op.results) != 1 or str(op.operands[1].type) != "!torch.int":
        return rewriter.fail("not (tensors, dim: int) -> tensor")
    tensors, dim = op.operands
    listed = defining_op(tensors)
    if listed is None or listed.name != "torch.prim.ListConstruct":
        return rewriter.fail("the tensors are not a torch.prim.ListConstruct")
    parts = [(v, vtensor(v.type)) for v in listed.operands]
    rt = vtensor(op.results[0].type)
    # An empty list has no part to read: refused as an unranked part (torch.cat raises on it).
    refusal = ranked_refusal("a part or the result", [rt, *(t for _, t in parts)] if parts else [None])
    if refusal is not None:
        return rewriter.fail(refusal)
    if promote_all(t.dtype for _, t in parts) != rt.dtype:
        return rewriter.fail(f"the result's dtype {rt.dtype} is not torch's promotion of the parts'")
    with rewriter.ip, op.location:
        if any(t.dtype != rt.dtype for _, t in parts):
            values = [convert(v, t, rt.dtype) for v, t in parts]
            tensors = create("torch.prim.ListConstruct", [ir.Type.parse("!torch.list<vtensor>")], values).result
        new = create("torch.aten.cat", [op.results[0].type], [tensors, dim])
    rewriter.replace_op(op, new)
    return True

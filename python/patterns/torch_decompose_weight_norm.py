"""Patterns on ``torch.aten._weight_norm``: ``v * (g / norm_except_dim(v, 2, dim))``, as PyTorch defines it.

``torch.nn.utils.weight_norm`` computes a layer's weight as
``torch._weight_norm(v, g, dim)``; torch-mlir has no op for it (it imports as
``torch.operator "torch.aten._weight_norm"``), so IREE's input conversion
fails on wav2vec2-style speech encoders (wav2vec2, HuBERT, WavLM, ...), which
normalize their positional convolution so in every forward. The fused
``aten._weight_norm_interface`` is known to torch-mlir, but its decomposition
types the norm as ``v``, so it fails too: both are rewritten.

``decompose_weight_norm`` (and ``decompose_weight_norm_interface``) write PyTorch's composite: the 2-norm of ``v`` over
every dim but ``dim``, kept (``linalg_vector_norm``; over all dims for ``dim
== -1``, ``weight_norm(dim=None)``), ``g`` divided by it, ``v`` times that.

Left alone, with the reason: not ``(v, g, dim)``; ``dim`` not a constant, other
than -1 or a dim of ``v`` (-1 not for the interface); ``v``, ``g`` or the result not ranked value tensors
of one dtype, f32 or f64 (for f16 torch computes in another order); ``g`` of
another rank than ``v`` (0-d allowed with ``dim == -1``); a result typed
otherwise than ``v``, a norm otherwise than ``v`` kept at ``dim``.
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .torch_ir import (
    VTensor,
    bool_constant,
    compatible,
    constant_int,
    create,
    int_constant,
    int_list,
    none_constant,
    ranked_refusal,
    static_info_cast,
    vtensor,
)


def plan_weight_norm(op, interface: bool = False) -> tuple[VTensor, int] | str:
    """(v's type, dim) for ``_weight_norm(v, g, dim)`` (``_weight_norm_interface``, which also returns the
    norm, where ``interface``), or why it is left alone."""
    if len(op.operands) != 3 or len(op.results) != (2 if interface else 1):
        return f"not {'_weight_norm_interface' if interface else '_weight_norm'}(v, g, dim) -> its results"
    v, g, dim_value = op.operands
    vt, gt, rt = vtensor(v.type), vtensor(g.type), vtensor(op.results[0].type)
    why = ranked_refusal("v, g or a result", (vt, gt, rt, *(vtensor(r.type) for r in op.results[1:])))
    if why is not None:
        return why
    dim = constant_int(dim_value)
    if dim is None:
        return "dim is not a torch.constant.int"
    if dim != -1 and not 0 <= dim < vt.rank:
        return f"dim {dim}: neither -1 (all dims) nor a dim of a rank-{vt.rank} v"
    if not vt.dtype == gt.dtype == rt.dtype or vt.dtype not in ("f32", "f64"):
        return f"v {vt.dtype}, g {gt.dtype}, result {rt.dtype}: not one dtype of f32 and f64"
    if gt.rank != vt.rank and not (dim == -1 and gt.rank == 0):
        return f"g of rank {gt.rank}, v of rank {vt.rank}"
    if not compatible(vt, rt):
        return f"the result {rt.ir_type()} is not typed as v"
    if interface:
        if dim == -1:
            return "dim -1 in _weight_norm_interface (torch's fused kernel takes the first or last dim)"
        kept = vt.with_sizes(tuple(s if d == dim else 1 for d, s in enumerate(vt.sizes)))
        if not compatible(kept, vtensor(op.results[1].type)):
            return f"the norm is not typed as {kept.ir_type()}"
    return vt, dim


def build(op, rewriter, vt: VTensor, dim: int):
    """``op``'s results: the weight ``v * (g / norm)``, and the norm where ``op`` returns it."""
    v, g, _ = op.operands
    others = [d for d in range(vt.rank) if d != dim]
    kept = vt.with_sizes(tuple(s if d == dim else 1 for d, s in enumerate(vt.sizes)))
    with rewriter.ip, op.location:
        norm = create(
            "torch.aten.linalg_vector_norm",
            [kept.ir_type()],
            [v, int_constant(2), int_list(others), bool_constant(True), none_constant()],
        ).result
        scale = create("torch.aten.div.Tensor", [kept.ir_type()], [g, norm]).result
        weight = create("torch.aten.mul.Tensor", [op.results[0].type], [v, scale]).result
        if len(op.results) == 1:
            return [weight]
        return [weight, static_info_cast(norm, kept, vtensor(op.results[1].type))]


@pattern("torch.operator")
def decompose_weight_norm(op, rewriter):
    op = op.operation
    if ir.StringAttr(op.attributes["name"]).value != "torch.aten._weight_norm":
        return rewriter.fail("not torch.aten._weight_norm")
    plan = plan_weight_norm(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    rewriter.replace_op(op, build(op, rewriter, *plan))
    return True


@pattern("torch.aten._weight_norm_interface")
def decompose_weight_norm_interface(op, rewriter):
    op = op.operation
    plan = plan_weight_norm(op, interface=True)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    rewriter.replace_op(op, build(op, rewriter, *plan))
    return True

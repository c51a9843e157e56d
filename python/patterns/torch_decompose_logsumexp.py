"""Patterns on ``torch.aten.logsumexp``: written out as PyTorch's own decomposition of it.

torch-mlir defines ``aten.logsumexp`` but neither decomposes nor lowers it,
and IREE's frontend does not either: a program calling ``torch.logsumexp``
(exported by iree-turbine as the op) fails IREE's input conversion on the
constants feeding it (``failed to legalize operation 'torch.constant.bool'``
or ``'torch.constant.int'``; opt-py's fuzz campaign, issue 38).

``decompose_logsumexp`` writes what ``torch._refs.logsumexp`` (the
decomposition registered for ``aten.logsumexp``) computes, in the input's
dtype: ``m = amax(x, dims, keepdim=True)``, ``m`` set to 0 where it is
infinite, then ``log(sum(exp(x - m), dims, keepdim)) + m`` (``m`` squeezed
where ``keepdim`` is false). f16 and bf16 sums accumulate in f32 and round
once, as torch's CPU sum does.

Left alone, with the reason: an unranked input or result, or a 0-d input;
an input that is not a float (torch computes integers in the default float)
or a result of another dtype; dims that are not a list of constant ints, an
empty list, a dim out of range or repeated; ``keepdim`` not a constant; a
result whose shape is not the reduction's.
"""

from __future__ import annotations

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import (
    FLOATS,
    SCALAR_TYPE,
    VTensor,
    bool_constant,
    compatible,
    constant_bool,
    constant_int,
    create,
    float_constant,
    int_constant,
    none_constant,
    ranked_refusal,
    vtensor,
)


def reduced_dims(dims, rank: int) -> list[int] | str:
    """The dims ``dims`` (a ``!torch.list<int>`` value) name, each in ``[0, rank)``, or why not."""
    listed = defining_op(dims)
    if listed is None or listed.name != "torch.prim.ListConstruct":
        return "dims are not a torch.prim.ListConstruct"
    values = [constant_int(v) for v in listed.operands]
    if any(v is None for v in values):
        return "a dim is not a constant int"
    if not values:
        return "an empty dim list (torch's decomposition raises on it)"
    if any(not -rank <= v < rank for v in values):
        return f"a dim out of range for rank {rank} (torch raises)"
    out = [v % rank for v in values]
    if len(set(out)) != len(out):
        return "a dim repeated (torch raises)"
    return out


@pattern("torch.aten.logsumexp")
def decompose_logsumexp(op, rewriter):
    op = op.operation
    x, dims, keep = op.operands
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    refusal = ranked_refusal("the input or the result", (xt, rt))
    if refusal is not None:
        return rewriter.fail(refusal)
    if xt.rank == 0:
        return rewriter.fail("a 0-d input")
    if xt.dtype not in FLOATS:
        return rewriter.fail(f"a {xt.dtype} input: torch computes it in the default float")
    if rt.dtype != xt.dtype:
        return rewriter.fail(f"a {rt.dtype} result of a {xt.dtype} input")
    reduced = reduced_dims(dims, xt.rank)
    if isinstance(reduced, str):
        return rewriter.fail(reduced)
    keepdim = constant_bool(keep)
    if keepdim is None:
        return rewriter.fail("keepdim is not a constant bool")
    kept = xt.with_sizes(1 if d in reduced else s for d, s in enumerate(xt.sizes))
    squeezed = xt.with_sizes(s for d, s in enumerate(xt.sizes) if d not in reduced)
    if not compatible(rt, kept if keepdim else squeezed):
        return rewriter.fail("the result's shape is not the reduction's")
    with rewriter.ip, op.location:
        result = build(x, xt, dims, keepdim, reduced, kept, rt)
    rewriter.replace_op(op, [result])
    return True


def build(x, xt: VTensor, dims, keepdim: bool, reduced: list[int], kept: VTensor, rt: VTensor):
    """``log(sum(exp(x - m), dims, keepdim)) + m``, ``m`` the finite max (``torch._refs.logsumexp``)."""
    one = int_constant(1)
    mask = kept.with_dtype("i1")
    m = create("torch.aten.amax", [kept.ir_type()], [x, dims, bool_constant(True)]).result
    size = create("torch.aten.abs", [kept.ir_type()], [m]).result
    infinite = create("torch.aten.eq.Scalar", [mask.ir_type()], [size, float_constant(float("inf"))]).result
    m = create("torch.aten.masked_fill.Scalar", [kept.ir_type()], [m, infinite, float_constant(0.0)]).result
    shifted = create("torch.aten.sub.Tensor", [xt.ir_type()], [x, m, one]).result
    e = create("torch.aten.exp", [xt.ir_type()], [shifted]).result
    summed = rt.with_dtype("f32") if xt.dtype in ("f16", "bf16") else rt
    accumulate = none_constant() if summed == rt else int_constant(SCALAR_TYPE["f32"])
    s = create("torch.aten.sum.dim_IntList", [summed.ir_type()], [e, dims, bool_constant(keepdim), accumulate]).result
    if summed != rt:
        code = int_constant(SCALAR_TYPE[rt.dtype])
        s = create("torch.prims.convert_element_type", [rt.ir_type()], [s, code]).result
    logged = create("torch.aten.log", [rt.ir_type()], [s]).result
    if not keepdim:
        shape = kept
        for d in sorted(reduced, reverse=True):
            shape = shape.with_sizes(n for k, n in enumerate(shape.sizes) if k != d)
            m = create("torch.aten.squeeze.dim", [shape.ir_type()], [m, int_constant(d)]).result
    return create("torch.aten.add.Tensor", [rt.ir_type()], [logged, m, one]).result

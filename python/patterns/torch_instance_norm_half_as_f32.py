"""Patterns on ``torch.aten.instance_norm`` of an f16 or bf16 input: the same norm computed in f32 and rounded
once to the dtype, as PyTorch computes it.

PyTorch's instance norm is its batch norm over ``(1, N * C, *spatial)``,
whose CPU kernel computes the statistics and the normalization of f16 and
bf16 inputs in f32 (its ``opmath`` type) and rounds the result once. The
torch-mlir of IREE 3.13 decomposes ``instance_norm`` in the input's dtype: a
mean and a variance accumulated in f16 over the spatial size, wrong by far
more than f16's rounding once that size is large (the figures are on the
page).

``instance_norm_half_as_f32`` converts the input, weight and bias to f32,
applies the op's own ``instance_norm`` (the f32 decomposition IREE lowers
right) and converts the result back to the input's dtype.

Left alone, with the reason: an op of another arity; an input or result that
is not a ranked value tensor; a dtype other than f16 and bf16 (nothing to
widen); a weight or bias of another dtype; statistics not computed from the
input (``use_input_stats`` not constant true, or running statistics given).
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import constant_bool, convert, create, is_none, ranked_refusal, vtensor

HALF = ("f16", "bf16")


@pattern("torch.aten.instance_norm")
def instance_norm_half_as_f32(op, rewriter):
    op = op.operation
    if len(op.operands) != 9 or len(op.results) != 1:
        return rewriter.fail("not instance_norm with 9 operands and one result")
    x, weight, bias, mean, var, use_input_stats = op.operands[:6]
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    why = ranked_refusal("the input or the result", (xt, rt))
    if why is not None:
        return rewriter.fail(why)
    if xt.dtype not in HALF or rt.dtype != xt.dtype:
        return rewriter.fail(f"a {xt.dtype} input and {rt.dtype} result: not f16 or bf16")
    affine = [v for v in (weight, bias) if not is_none(v)]
    types = [vtensor(v.type) for v in affine]
    if any(t is None or t.dtype != xt.dtype for t in types):
        return rewriter.fail(f"a weight or bias that is not a ranked {xt.dtype} tensor")
    if constant_bool(use_input_stats) is not True or not (is_none(mean) and is_none(var)):
        return rewriter.fail("statistics not computed from the input alone (use_input_stats, running stats)")
    with rewriter.ip, op.location:
        wide = {v: convert(v, t, "f32") for v, t in zip(affine, types)}
        operands = [convert(x, xt, "f32"), *(wide.get(v, v) for v in (weight, bias)), *op.operands[3:]]
        normed = create("torch.aten.instance_norm", [rt.with_dtype("f32").ir_type()], operands).result
        result = convert(normed, rt.with_dtype("f32"), rt.dtype)
    rewriter.replace_op(op, [result])
    return True

"""Patterns on ``torch.aten.xlogy.Tensor``: ``x * log(y)``, 0 where ``x == 0``, NaN where ``y`` is, as PyTorch
defines it.

torch-mlir declares ``aten.xlogy.Tensor`` but has no decomposition or lowering
for it: ``failed to legalize operation 'torch.aten.xlogy.Tensor'``.
wav2vec2-style Gumbel quantizers (wav2vec2, WavLM, UniSpeech pre-training)
compute their codebook perplexity with ``torch.xlogy``, as do entropies.

``decompose_xlogy`` writes PyTorch's kernel (``xlogy`` in ATen's
``BinaryOps``): NaN where ``y`` is NaN, else 0 where ``x == 0``, else ``x *
log(y)``. The operands are converted to the result dtype first, as torch
promotes (integers and bools to f32, the default dtype); f16 and bf16 are
computed in f32 and rounded once at the end, as torch's CPU kernel does.
Broadcasting is the ops' own.

Left alone, with the reason: an operand or the result that is not a ranked
value tensor; a result dtype that is not torch's promotion of the operands'
(integral promotions made float); a dtype outside ``torch_ir``'s table.
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import FLOATS, VTensor, convert, create, float_constant, ranked_refusal, result_type, vtensor

COMPUTE = {"f16": "f32", "bf16": "f32", "f32": "f32", "f64": "f64"}  # the dtype torch's CPU kernel computes in


def xlogy_dtype(x: VTensor, y: VTensor) -> str | None:
    """The dtype of ``torch.xlogy(x, y)``: their promotion, integers and bools made f32; None where unknown."""
    dtype = result_type([x, y])
    if dtype is None:
        return None
    return dtype if dtype in FLOATS else "f32"


def build_xlogy(x, xt: VTensor, y, yt: VTensor, rt: VTensor):
    """``xlogy(x, y)`` typed ``rt``, computed in ``COMPUTE[rt.dtype]``."""
    dtype = COMPUTE[rt.dtype]
    xc, yc, out = xt.with_dtype(dtype), yt.with_dtype(dtype), rt.with_dtype(dtype)
    x, y = convert(x, xt, dtype), convert(y, yt, dtype)
    log_y = create("torch.aten.log", [yc.ir_type()], [y]).result
    product = create("torch.aten.mul.Tensor", [out.ir_type()], [x, log_y]).result
    zero = float_constant(0.0)
    x_zero = create("torch.aten.eq.Scalar", [xc.with_dtype("i1").ir_type()], [x, zero]).result
    value = create("torch.aten.where.ScalarSelf", [out.ir_type()], [x_zero, zero, product]).result
    y_nan = create("torch.aten.isnan", [yc.with_dtype("i1").ir_type()], [y]).result
    value = create("torch.aten.where.self", [out.ir_type()], [y_nan, y, value]).result
    return convert(value, out, rt.dtype)


@pattern("torch.aten.xlogy.Tensor")
def decompose_xlogy(op, rewriter):
    op = op.operation
    x, y = op.operands
    xt, yt, rt = vtensor(x.type), vtensor(y.type), vtensor(op.results[0].type)
    why = ranked_refusal("an operand or the result", (xt, yt, rt))
    if why is not None:
        return rewriter.fail(why)
    dtype = xlogy_dtype(xt, yt)
    if dtype is None:
        return rewriter.fail(f"operands {xt.dtype} and {yt.dtype}: a dtype outside the promotion table (torch_ir)")
    if rt.dtype != dtype:
        return rewriter.fail(f"the result's dtype {rt.dtype} is not torch's {dtype} for {xt.dtype} and {yt.dtype}")
    with rewriter.ip, op.location:
        value = build_xlogy(x, xt, y, yt, rt)
    rewriter.replace_op(op, [value])
    return True

"""Patterns on ``torch.aten._scaled_mm``: an fp8 matmul with tensor-wise or row-wise scales, as PyTorch's CPU
kernel computes it in f32.

torch-mlir has a TOSA lowering for ``aten._scaled_mm`` but none to linalg, so
IREE leaves it unconverted (``failed to legalize operation
'torch.constant.bool'``). FP8 inference exports it (transformers' fbgemm-fp8
and compressed-tensors integrations, diffusers' fp8 quantizer).

``decompose_scaled_mm`` writes what PyTorch's CPU kernel computes
(``_scaled_mm_out_cpu_emulated``): both operands converted to f32 (exact from
any fp8 format) and multiplied by their scales, tensor-wise (one element) or
row-wise (``[M, 1]``, ``[1, N]``), an f32 matmul, the bias added in f32, the
sum converted to ``out_dtype``.

Left alone, with the reason: operands that are not 2-d fp8 value tensors;
scales that are not f32 tensor-wise or row-wise (block scales: torch's CPU
kernel raises); a ``scale_result`` (fp8 outputs); an ``out_dtype`` that is not
a constant f32, f16 or bf16 (``None`` keeps the fp8 dtype); a bias that is not
1-d ``[N]`` of f32, f16 or bf16; a result typed otherwise than ``[M, N]`` of
``out_dtype``.
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import SCALAR_TYPE, VTensor, compatible, constant_int, convert, create, int_constant, is_none, vtensor

FP8 = ("f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ")
OUT = {SCALAR_TYPE[d]: d for d in ("f32", "f16", "bf16")}


def scale_refusal(t: VTensor | None, which: str, rows: int | None, row_dim: int) -> str | None:
    """Why a scale of type ``t`` is neither tensor-wise (one element) nor row-wise (``rows`` along
    ``row_dim`` of a 2-d ``[M, 1]`` / ``[1, N]``, a dynamic size taken for a matching one), or None."""
    if t is None or t.dtype != "f32":
        return f"{which} is not an f32 ranked !torch.vtensor"
    if all(s == 1 for s in t.sizes) and t.rank <= 2:
        return None
    if t.rank == 2 and t.sizes[1 - row_dim] == 1 and (None in (t.sizes[row_dim], rows) or t.sizes[row_dim] == rows):
        return None
    return f"{which} {t.ir_type()} is neither tensor-wise nor row-wise (block scales: torch's CPU kernel raises)"


def plan_scaled_mm(op):
    """(a, b, scale_a, scale_b, bias or None, types, out dtype, result type) for ``op``, or why not."""
    if len(op.operands) != 8 or len(op.results) != 1:
        return "not _scaled_mm(a, b, scale_a, scale_b, bias, scale_result, out_dtype, use_fast_accum)"
    a, b, sa, sb, bias, scale_result, out_dtype, _ = op.operands
    at, bt, rt = vtensor(a.type), vtensor(b.type), vtensor(op.results[0].type)
    if any(t is None or t.rank != 2 or t.dtype not in FP8 for t in (at, bt)):
        return "a or b is not a 2-d fp8 ranked !torch.vtensor"
    why = scale_refusal(vtensor(sa.type), "scale_a", at.sizes[0], 0) or scale_refusal(
        vtensor(sb.type), "scale_b", bt.sizes[1], 1
    )
    if why is not None:
        return why
    if not is_none(scale_result):
        return "a scale_result (fp8 outputs)"
    dtype = OUT.get(constant_int(out_dtype))
    if dtype is None:
        return "out_dtype is not a constant f32, f16 or bf16"
    if rt is None or not compatible(VTensor((at.sizes[0], bt.sizes[1]), dtype), rt):
        return f"the result is not [M, N] of {dtype}"
    if not is_none(bias):
        bias_t = vtensor(bias.type)
        if bias_t is None or bias_t.rank != 1 or bias_t.dtype not in OUT.values():
            return "a bias that is not a 1-d f32, f16 or bf16 ranked !torch.vtensor"
        n = bt.sizes[1] if bt.sizes[1] is not None else rt.sizes[1]
        if not compatible(bias_t.with_dtype("f32"), VTensor((n,), "f32")):
            return f"a bias {bias_t.ir_type()} that is not [N]"
    return a, b, sa, sb, None if is_none(bias) else bias, (at, bt), dtype, rt


def scaled(x, t: VTensor, scale):
    """``x`` (fp8, type ``t``) in f32 times ``scale``."""
    f32 = t.with_dtype("f32")
    return create("torch.aten.mul.Tensor", [f32.ir_type()], [convert(x, t, "f32"), scale]).result


@pattern("torch.aten._scaled_mm")
def decompose_scaled_mm(op, rewriter):
    op = op.operation
    plan = plan_scaled_mm(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    a, b, sa, sb, bias, (at, bt), dtype, rt = plan
    product = VTensor((at.sizes[0], bt.sizes[1]), "f32")
    with rewriter.ip, op.location:
        out = create("torch.aten.mm", [product.ir_type()], [scaled(a, at, sa), scaled(b, bt, sb)]).result
        if bias is not None:
            out = create("torch.aten.add.Tensor", [product.ir_type()], [out, bias, int_constant(1)]).result
        out = convert(out, product, dtype)
        if product.with_dtype(dtype) != rt:
            out = create("torch.tensor_static_info_cast", [rt.ir_type()], [out]).result
    rewriter.replace_op(op, [out])
    return True

"""Patterns on ``torch.aten.gelu``: the tanh approximation written out with sqrt(2/pi), as PyTorch computes it.

torch-mlir lowers ``gelu(x, approximate="tanh")`` (``TorchToLinalg``) with
0.7977240352174656 where the formula has sqrt(2/pi) = 0.7978845608028654, so
every model with torch's tanh GELU (transformers' ``gelu_pytorch_tanh``:
Gemma) differs from PyTorch wherever the tanh is not saturated.

``decompose_gelu_tanh`` writes PyTorch's own computation (its CPU kernel and
its decomposition, ``torch._decomp``): ``0.5 * x * (1 + tanh(kBeta * (x +
kKappa * x*x*x)))`` with ``kBeta`` = sqrt(2)*(2/sqrt(pi))*0.5 and ``kKappa``
= 0.044715, each as a ``torch.constant.float`` that the lowering rounds to
x's dtype, as ``const scalar_t kBeta`` does in the kernel. Every op it writes
(``mul``, ``add``, ``tanh``) has a lowering that computes in x's dtype.

Left alone, with the reason: ``approximate`` not a ``torch.constant.str``,
or not "tanh" ("none" is lowered with erf, as torch does); an unranked
input or result, or a result whose type is not the input's; a dtype other
than f32 and f64 (torch computes f16 and bf16 in f32 and rounds once;
integers raise).
"""

from __future__ import annotations

import math

from ..authoring import pattern
from .torch_ir import (
    compatible,
    constant_str,
    create,
    float_constant,
    int_constant,
    ranked_refusal,
    static_info_cast,
    vtensor,
)

K_BETA = math.sqrt(2.0) * (2.0 / math.sqrt(math.pi)) * 0.5  # M_SQRT2 * M_2_SQRTPI * 0.5 in torch's kernel
K_KAPPA = 0.044715
DTYPES = ("f32", "f64")  # where torch computes in x's own dtype


def plan_gelu_tanh(op) -> str | None:
    """Why ``gelu(x, approximate)`` is left alone, or None where it is written out."""
    if len(op.operands) != 2 or len(op.results) != 1:
        return "not gelu(self, approximate) -> tensor"
    approximate = constant_str(op.operands[1])
    if approximate is None:
        return "approximate is not a torch.constant.str"
    if approximate != "tanh":
        return f'approximate is "{approximate}", not "tanh"'
    xt, rt = vtensor(op.operands[0].type), vtensor(op.results[0].type)
    refusal = ranked_refusal("the input or the result", (xt, rt))
    if refusal is not None:
        return refusal
    if xt.dtype not in DTYPES:
        return f"a {xt.dtype} input: torch computes in x's dtype only for {', '.join(DTYPES)}"
    if not compatible(xt, rt):
        return "the result's type is not the input's"
    return None


def build_gelu_tanh(x, t):
    """``0.5 * x * (1 + tanh(K_BETA * (x + K_KAPPA * x*x*x)))`` for ``x`` of type ``t``, in torch's order."""
    ty = [t.ir_type()]
    one, kappa, beta = int_constant(1), float_constant(K_KAPPA), float_constant(K_BETA)
    f_one, half = float_constant(1.0), float_constant(0.5)
    cube = create("torch.aten.mul.Tensor", ty, [create("torch.aten.mul.Tensor", ty, [x, x]).result, x]).result
    scaled = create("torch.aten.mul.Scalar", ty, [cube, kappa]).result
    inner = create("torch.aten.add.Tensor", ty, [x, scaled, one]).result
    inner = create("torch.aten.mul.Scalar", ty, [inner, beta]).result
    tanh = create("torch.aten.tanh", ty, [inner]).result
    right = create("torch.aten.add.Scalar", ty, [tanh, f_one, one]).result
    left = create("torch.aten.mul.Scalar", ty, [x, half]).result
    return create("torch.aten.mul.Tensor", ty, [left, right]).result


@pattern("torch.aten.gelu")
def decompose_gelu_tanh(op, rewriter):
    op = op.operation
    why = plan_gelu_tanh(op)
    if why is not None:
        return rewriter.fail(why)
    x = op.operands[0]
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    with rewriter.ip, op.location:
        value = static_info_cast(build_gelu_tanh(x, xt), xt, rt)
    rewriter.replace_op(op, [value])
    return True

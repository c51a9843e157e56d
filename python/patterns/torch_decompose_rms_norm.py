"""Patterns on ``torch.aten.rms_norm`` whose weight has a dynamic size: the
normalization written in torch ops, as PyTorch computes it.

torch-mlir's decomposition of ``aten.rms_norm`` leaves the op alone when its
weight's shape is not static (``torch.nn.RMSNorm`` exported with dynamic
shapes); IREE's backend conversion then stops at the constants it left:
``failed to legalize operation 'torch.constant.int'``.

``decompose_rms_norm`` writes ATen's composite ``rms_norm``: in the op-math
dtype (f32 for f16 and bf16), ``x * rsqrt(mean(x^2 over the last
len(normalized_shape) dims, keepdim) + eps)``, rounded to the input's dtype,
then times the weight in that dtype. ``eps`` None is the op-math dtype's
machine epsilon (f32's for f16 and bf16, as ATen takes it).

Left alone, with the reason: an operand or the result that is not a ranked
value tensor; a weight that is None or of static shape (torch-mlir
decomposes those); a normalized_shape that is not a list of constant ints, or
longer than the input's rank, or of another length than the weight's rank;
eps not a constant number nor None; an input that is not f16, bf16, f32 or
f64, or a weight or result of another dtype than the input's.
"""

from __future__ import annotations

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import (
    FLOATS,
    VTensor,
    bool_constant,
    constant_int,
    constant_number,
    convert,
    create,
    float_constant,
    int_constant,
    int_list,
    is_none,
    none_constant,
    ranked_refusal,
    static_info_cast,
    vtensor,
)

OPMATH = {"f16": "f32", "bf16": "f32", "f32": "f32", "f64": "f64"}  # the dtype ATen's composite computes in
EPS = {"f32": 2.0**-23, "f64": 2.0**-52}  # torch.finfo(dtype).eps


def constant_ints(value) -> list[int] | None:
    """The ints of a ``torch.prim.ListConstruct`` of ``torch.constant.int``, or None."""
    op = defining_op(value)
    if op is None or op.name != "torch.prim.ListConstruct":
        return None
    ints = [constant_int(v) for v in op.operands]
    return None if any(i is None for i in ints) else ints


def refusal(xt, wt, rt, shape, eps_known: bool) -> str | None:
    """Why an ``rms_norm`` of these types and normalized_shape (``eps_known``: eps a constant or None) is left alone."""
    why = ranked_refusal("an operand or the result", (xt, wt, rt))
    if why is not None:
        return why
    if None not in wt.sizes:
        return "a weight of static shape (torch-mlir decomposes it)"
    if shape is None:
        return "a normalized_shape that is not a list of constant ints"
    if not 0 < len(shape) <= xt.rank or len(shape) != wt.rank:
        return f"a normalized_shape of {len(shape)} dims for an input of rank {xt.rank} and a weight of {wt.rank}"
    if not eps_known:
        return "an eps that is neither a constant number nor None"
    if xt.dtype not in FLOATS:
        return f"a {xt.dtype} input: not f16, bf16, f32 nor f64"
    if not xt.dtype == wt.dtype == rt.dtype or rt.rank != xt.rank:
        return f"input {xt.dtype}, weight {wt.dtype} and result {rt.dtype}: not one dtype and rank"
    return None


def build_rms_norm(x, xt: VTensor, weight, eps: float, n: int, rt: VTensor):
    """``rms_norm(x, x's last n dims, weight, eps)`` typed ``rt``."""
    dtype = OPMATH[xt.dtype]
    xc = xt.with_dtype(dtype)
    xf = convert(x, xt, dtype)
    dims = list(range(xt.rank - n, xt.rank))
    reduced = xc.with_sizes([1 if d in dims else s for d, s in enumerate(xt.sizes)])
    squares = create("torch.aten.mul.Tensor", [xc.ir_type()], [xf, xf]).result
    mean = create(
        "torch.aten.mean.dim",
        [reduced.ir_type()],
        [squares, int_list(dims), bool_constant(True), none_constant()],
    ).result
    shifted = create("torch.aten.add.Scalar", [reduced.ir_type()], [mean, float_constant(eps), int_constant(1)]).result
    scale = create("torch.aten.rsqrt", [reduced.ir_type()], [shifted]).result
    normed = create("torch.aten.mul.Tensor", [xc.ir_type()], [xf, scale]).result
    normed = convert(normed, xc, xt.dtype)
    value = create("torch.aten.mul.Tensor", [xt.ir_type()], [normed, weight]).result
    return static_info_cast(value, xt, rt)


@pattern("torch.aten.rms_norm")
def decompose_rms_norm(op, rewriter):
    op = op.operation
    x, shape_list, weight, eps_value = op.operands
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    wt = vtensor(weight.type)
    if wt is None and is_none(weight):
        return rewriter.fail("a None weight (torch-mlir decomposes it)")
    eps = EPS[OPMATH.get(xt.dtype if xt else "", "f32")] if is_none(eps_value) else constant_number(eps_value)
    why = refusal(xt, wt, rt, constant_ints(shape_list), eps is not None)
    if why is not None:
        return rewriter.fail(why)
    with rewriter.ip, op.location:
        value = build_rms_norm(x, xt, weight, float(eps), len(wt.sizes), rt)
    rewriter.replace_op(op, [value])
    return True

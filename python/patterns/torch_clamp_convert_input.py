"""Clamps whose input has another dtype than the result: the input converted to the result's dtype first, as
torch does.

torch computes ``clamp(x, min, max)`` in its promoted dtype: ``x.to(result
dtype)``, then the comparisons (ATen's ``clamp`` meta; ``clamp.Tensor`` casts
every operand to the common dtype). torch-mlir's linalg lowering of
``aten.clamp`` and ``clamp.Tensor`` (and of ``clamp_min``/``clamp_max``,
``clamp_min.Tensor``, which it decomposes into them) converts the bounds to
the result's element type but compares the input as it comes: an integer
input with a float bound (``clamp(si64, -2.5, 2.5) -> f32``) gives
``'arith.cmpf' op operand #0 must be floating-point-like``; a bool input with
an int bound, or an f16/si32 input with an f32/si64 bound tensor, gives a
compare of two types. ``convert_input`` writes the same op on
``torch.prims.convert_element_type(x, result dtype)`` (its lowering carries
the source's signedness).

Left alone, with the reason: an input already of the result's dtype; an input
or result that is not a ranked value tensor, or a bound tensor that is not; a
dtype outside ``torch_ir``'s table; a result dtype that is not torch's
promotion of the operands (scalars promote only across categories).
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import FLOATS, SCALAR_TYPE, convert, create, ranked_refusal, result_type, vtensor


def scalar_promotion(dtype: str, bounds) -> tuple[str, ...]:
    """The result dtypes torch may give a tensor of ``dtype`` clamped by scalar bounds of types ``bounds``:
    a float bound makes an integral tensor float (the default dtype), an int bound makes a bool one si64."""
    if "!torch.float" in bounds and dtype not in FLOATS:
        return FLOATS
    if "!torch.int" in bounds and dtype == "i1":
        return ("si64",)
    return (dtype,)


def promotion_refusal(op, xt, rt) -> str | None:
    """Why the op's result dtype is not torch's promotion of its operands, or None."""
    bounds = [b.type for b in op.operands[1:] if str(b.type) != "!torch.none"]
    if op.name.endswith(".Tensor"):
        types = [vtensor(t) for t in bounds]
        why = ranked_refusal("a bound", types)
        if why is not None:
            return why
        dtype = result_type([xt, *types])
        if dtype is None:
            return f"a dtype outside torch_ir's table among {xt.dtype}, {', '.join(t.dtype for t in types)}"
        return None if dtype == rt.dtype else f"the result's dtype {rt.dtype} is not torch's {dtype}"
    if any(str(t) not in ("!torch.int", "!torch.float") for t in bounds):
        return "a bound that is not a !torch.int nor a !torch.float"
    allowed = scalar_promotion(xt.dtype, [str(t) for t in bounds])
    return None if rt.dtype in allowed else f"the result's dtype {rt.dtype} is not torch's for a {xt.dtype} input"


def convert_input(op, rewriter):
    """``op`` on its input converted to the result's dtype (one function, five roots)."""
    op = op.operation
    x = op.operands[0]
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    why = ranked_refusal("the input or the result", (xt, rt))
    if why is not None:
        return rewriter.fail(why)
    if xt.dtype == rt.dtype:
        return rewriter.fail(f"the input is already {rt.dtype}, the result's dtype")
    if xt.dtype not in SCALAR_TYPE or rt.dtype not in SCALAR_TYPE:
        return rewriter.fail(f"{xt.dtype} -> {rt.dtype}: a dtype outside torch_ir's table")
    why = promotion_refusal(op, xt, rt)
    if why is not None:
        return rewriter.fail(why)
    with rewriter.ip, op.location:
        converted = convert(x, xt, rt.dtype)
        new = create(op.name, [op.results[0].type], [converted, *op.operands[1:]])
    rewriter.replace_op(op, new)
    return True


convert_clamp_input = pattern("torch.aten.clamp", name="convert_clamp_input")(convert_input)
convert_clamp_min_input = pattern("torch.aten.clamp_min", name="convert_clamp_min_input")(convert_input)
convert_clamp_max_input = pattern("torch.aten.clamp_max", name="convert_clamp_max_input")(convert_input)
convert_clamp_tensor_input = pattern("torch.aten.clamp.Tensor", name="convert_clamp_tensor_input")(convert_input)
convert_clamp_min_tensor_input = pattern("torch.aten.clamp_min.Tensor", name="convert_clamp_min_tensor_input")(
    convert_input
)

"""Patterns on ``torch.aten.isfinite``: ``abs(x) < inf`` for floats, all true for integers and bools.

torch-mlir declares ``aten.isfinite`` but neither decomposes nor lowers it to
linalg (only its StableHLO backend has it): ``failed to legalize operation
'torch.aten.isfinite'`` on every input (torch-mlir's ``IsInfiniteModule_basic``).
Its neighbours lower: ``isinf`` as ``abs(x) == inf``, ``isnan`` as ``x != x``.

``decompose_isfinite`` writes, for a float ``x``, ``abs(x) < inf``
(``aten.abs`` and ``aten.lt.Scalar``, which torch-mlir lowers to an ordered
compare): true for every finite value, false for +-inf and for NaN, as
``torch.isfinite`` answers. An integer or bool ``x`` is finite everywhere:
``ones_like(x, dtype=bool)``, as torch answers.

Left alone, with the reason: an input or result that is not a ranked value
tensor; a result that is not bool; an input dtype that is not one of
``torch_ir``'s integers, bool, f16, bf16, f32 or f64 (complex: torch asks both
parts).
"""

from __future__ import annotations

import math

from ..authoring import pattern
from .torch_ir import (
    FLOATS,
    INTEGERS,
    SCALAR_TYPE,
    create,
    float_constant,
    int_constant,
    none_constant,
    ranked_refusal,
    vtensor,
)


@pattern("torch.aten.isfinite")
def decompose_isfinite(op, rewriter):
    op = op.operation
    (x,) = op.operands
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    why = ranked_refusal("the input or the result", (xt, rt))
    if why is not None:
        return rewriter.fail(why)
    if rt.dtype != "i1":
        return rewriter.fail(f"a {rt.dtype} result: torch's isfinite is bool")
    if xt.dtype not in (*FLOATS, *INTEGERS, "i1"):
        return rewriter.fail(f"a {xt.dtype} input: not an integer, bool, f16, bf16, f32 nor f64")
    with rewriter.ip, op.location:
        if xt.dtype in FLOATS:
            magnitude = create("torch.aten.abs", [xt.ir_type()], [x]).result
            value = create("torch.aten.lt.Scalar", [rt.ir_type()], [magnitude, float_constant(math.inf)]).result
        else:
            none = none_constant()
            bool_code = int_constant(SCALAR_TYPE["i1"])
            value = create("torch.aten.ones_like", [rt.ir_type()], [x, bool_code, none, none, none, none]).result
    rewriter.replace_op(op, [value])
    return True

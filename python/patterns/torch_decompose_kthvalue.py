"""Patterns on ``torch.aten.kthvalue``: the k-th smallest along a dim from a smallest-k top-k, NaN counted last
as torch counts it, the index the first position holding that value.

torch-mlir lowers ``aten.kthvalue`` to ``tm_tensor.topk``, which IREE's
``torch-iree-tm-tensor-to-linalg-ext`` does not convert: the op then fails its
verifier (``'tm_tensor.topk' op region block must end with a linalg_ext.yield
i1!``), so every kthvalue fails stock (I-BERT takes percentiles with it).

``decompose_kthvalue`` writes it with ``aten.topk(largest=False)``, which
lowers. Integers: the top-k's last value and index. Floats, where torch orders
NaN last: the top-k runs with NaN replaced by +inf, the value is NaN where
fewer than ``k`` elements are numbers; the index is the first position equal
to that value (NaN matching NaN), the value read back from there (so -0.0
and 0.0 come back as stored).

Left alone, with the reason: ``k``, ``dim`` or ``keepdim`` not constants; not a
ranked integer or float tensor of ``torch_ir``'s table; ``k < 1`` over a dynamic
size; results typed otherwise.
"""

from __future__ import annotations

import math

from ..authoring import pattern
from .torch_ir import (
    FLOATS,
    INTEGERS,
    SCALAR_TYPE,
    VTensor,
    bool_constant,
    compatible,
    constant_bool,
    constant_int,
    create,
    dim_size,
    float_constant,
    int_constant,
    int_list,
    none_constant,
    ranked_refusal,
    vtensor,
)


def plan_kthvalue(op):
    """(input type, k, dim, keepdim) for ``op``, or why it is left alone."""
    if len(op.operands) != 4 or len(op.results) != 2:
        return "not kthvalue(self, k, dim, keepdim) -> (values, indices)"
    _, k_value, dim_value, keepdim_value = op.operands
    k, dim, keepdim = constant_int(k_value), constant_int(dim_value), constant_bool(keepdim_value)
    if k is None or dim is None or keepdim is None:
        return "k, dim or keepdim is not a constant"
    xt, vt, it = (vtensor(v.type) for v in (op.operands[0], *op.results))
    why = ranked_refusal("the input or a result", (xt, vt, it))
    if why is not None:
        return why
    if xt.dtype not in INTEGERS + FLOATS:
        return f"a {xt.dtype} input: not an integer nor a float of the table (torch_ir)"
    dim %= xt.rank  # torch-mlir's verifier holds dim in range, k in [1, n] for a static n, rank >= 1
    if k < 1:
        return f"k = {k} over a dynamic size (torch raises)"
    kept = xt.with_sizes(tuple(1 if d == dim else s for d, s in enumerate(xt.sizes)))
    want = kept if keepdim else kept.with_sizes(kept.sizes[:dim] + kept.sizes[dim + 1 :])
    if not (compatible(want, vt) and compatible(want.with_dtype("si64"), it)):
        return f"the results are not {want.ir_type()} and its si64 indices"
    return xt, k, dim, keepdim


def smallest_k(key, t: VTensor, k: int, dim: int, results=(0, 1)):
    """The ``results`` (0: values, 1: indices) of ``topk(key, k, dim, largest=False)``, each sliced to its
    last (``k - 1``), typed ``t`` with ``dim`` of size 1."""
    top = t.with_sizes(tuple(k if d == dim else s for d, s in enumerate(t.sizes)))
    kept = t.with_sizes(tuple(1 if d == dim else s for d, s in enumerate(t.sizes)))
    topk = create(
        "torch.aten.topk",
        [top.ir_type(), top.with_dtype("si64").ir_type()],
        [key, int_constant(k), int_constant(dim), bool_constant(False), bool_constant(True)],
    )
    bounds = [int_constant(dim), int_constant(k - 1), int_constant(k), int_constant(1)]
    types = (kept, kept.with_dtype("si64"))
    return tuple(
        create("torch.aten.slice.Tensor", [types[i].ir_type()], [topk.results[i], *bounds]).result for i in results
    )


def first_position(match, t: VTensor, x, dim: int):
    """The first index along ``dim`` where ``match`` (i1, shaped as ``t``) holds, keeping ``dim`` (si64):
    ``min(where(match, arange(n), n))``."""
    n = dim_size(x, t, dim)
    none = none_constant()
    line = VTensor((t.sizes[dim],), "si64")
    positions = create(
        "torch.aten.arange", [line.ir_type()], [n, int_constant(SCALAR_TYPE["si64"]), none, none, none]
    ).result
    along = VTensor(tuple(t.sizes[dim] if d == dim else 1 for d in range(t.rank)), "si64")
    positions = create(
        "torch.aten.view", [along.ir_type()], [positions, int_list([n if d == dim else 1 for d in range(t.rank)])]
    ).result
    candidates = create("torch.aten.where.ScalarOther", [t.with_dtype("si64").ir_type()], [match, positions, n]).result
    kept = t.with_sizes(tuple(1 if d == dim else s for d, s in enumerate(t.sizes))).with_dtype("si64")
    return create("torch.aten.amin", [kept.ir_type()], [candidates, int_list([dim]), bool_constant(True)]).result


def float_kthvalue(x, t: VTensor, k: int, dim: int):
    """(value, index) of the k-th smallest of floats ``x`` along ``dim``, NaN last, keeping ``dim``."""
    flags, kept = t.with_dtype("i1"), t.with_sizes(tuple(1 if d == dim else s for d, s in enumerate(t.sizes)))
    nan = create("torch.aten.isnan", [flags.ir_type()], [x]).result
    key = create("torch.aten.where.ScalarSelf", [t.ir_type()], [nan, float_constant(math.inf), x]).result
    (value,) = smallest_k(key, t, k, dim, results=(0,))
    number = create("torch.aten.bitwise_not", [flags.ir_type()], [nan]).result
    counted = create(
        "torch.aten.sum.dim_IntList",
        [kept.with_dtype("si64").ir_type()],
        [number, int_list([dim]), bool_constant(True), int_constant(SCALAR_TYPE["si64"])],
    ).result
    past = create("torch.aten.lt.Scalar", [kept.with_dtype("i1").ir_type()], [counted, int_constant(k)]).result
    value = create("torch.aten.where.ScalarSelf", [kept.ir_type()], [past, float_constant(math.nan), value]).result
    equal = create("torch.aten.eq.Tensor", [flags.ir_type()], [x, value]).result
    nan_past = create("torch.aten.bitwise_and.Tensor", [flags.ir_type()], [nan, past]).result
    match = create("torch.aten.bitwise_or.Tensor", [flags.ir_type()], [equal, nan_past]).result
    index = first_position(match, t, x, dim)
    return create(
        "torch.aten.gather", [kept.ir_type()], [x, int_constant(dim), index, bool_constant(False)]
    ).result, index


def build_kthvalue(x, xt: VTensor, k: int, dim: int, keepdim: bool):
    """(values, indices) of ``kthvalue(x, k, dim, keepdim)``."""
    value, index = float_kthvalue(x, xt, k, dim) if xt.dtype in FLOATS else smallest_k(x, xt, k, dim)
    if keepdim:
        return value, index
    kept = vtensor(value.type)
    out = kept.with_sizes(kept.sizes[:dim] + kept.sizes[dim + 1 :])
    value = create("torch.aten.squeeze.dim", [out.ir_type()], [value, int_constant(dim)]).result
    index = create("torch.aten.squeeze.dim", [out.with_dtype("si64").ir_type()], [index, int_constant(dim)]).result
    return value, index


@pattern("torch.aten.kthvalue")
def decompose_kthvalue(op, rewriter):
    op = op.operation
    plan = plan_kthvalue(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    xt, k, dim, keepdim = plan
    with rewriter.ip, op.location:
        value, index = build_kthvalue(op.operands[0], xt, k, dim, keepdim)
        results = []
        for v, r in zip((value, index), op.results):
            if str(v.type) != str(r.type):
                v = create("torch.tensor_static_info_cast", [r.type], [v]).result
            results.append(v)
    rewriter.replace_op(op, results)
    return True

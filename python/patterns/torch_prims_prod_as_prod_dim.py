"""Patterns on ``torch.prims.prod``: a chain of ``torch.aten.prod.dim_int``, one per reduced dim.

torch-mlir has no lowering for the primitive ``prims.prod(input, dims,
output_dtype)`` (``failed to legalize operation 'torch.prims.prod'``), while
``aten.prod.dim_int`` lowers. With ``output_dtype`` None the product keeps the
input's dtype, as ``prod.dim_int`` with dtype None does for floats;
``prims_prod_as_prod_dim`` reduces the dims from the highest down, so each
index still names its dim, with keepdim false.

Left alone, with the reason: the input or result not a ranked value tensor;
dims not distinct constant ints in [0, rank) (prims assert on negative ones);
an ``output_dtype`` given; a dtype that is not a float (an integer
``prod.dim_int`` with dtype None widens to si64, not the primitive's dtype); a
result whose sizes are not the input's left by the dims.
"""

from __future__ import annotations

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import (
    FLOATS,
    bool_constant,
    compatible,
    constant_int,
    create,
    int_constant,
    is_none,
    none_constant,
    ranked_refusal,
    static_info_cast,
    vtensor,
)


def constant_dims(value, rank: int) -> list[int] | None:
    """The dims of a ``torch.prim.ListConstruct`` of distinct constant ints in ``[0, rank)``; None otherwise
    (prims take canonical dims: torch asserts on a negative one)."""
    listed = defining_op(value)
    if listed is None or listed.name != "torch.prim.ListConstruct":
        return None
    dims = [constant_int(v) for v in listed.operands]
    if None in dims or not all(0 <= d < rank for d in dims):
        return None
    return dims if len(set(dims)) == len(dims) else None


@pattern("torch.prims.prod")
def prims_prod_as_prod_dim(op, rewriter):
    op = op.operation
    x, dims_value, dtype = op.operands
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    why = ranked_refusal("the input or the result", (xt, rt))
    if why is not None:
        return rewriter.fail(why)
    if not is_none(dtype):
        return rewriter.fail("an output_dtype is given")
    if xt.dtype not in FLOATS or rt.dtype != xt.dtype:
        return rewriter.fail(f"dtypes {xt.dtype} -> {rt.dtype}: not one float dtype")
    dims = constant_dims(dims_value, xt.rank)
    if dims is None:
        return rewriter.fail("dims are not distinct constant ints in [0, rank)")
    kept = xt.with_sizes([s for d, s in enumerate(xt.sizes) if d not in dims])
    if not compatible(kept, rt):
        return rewriter.fail(f"the result {rt.sizes} is not the input's sizes {kept.sizes} left by dims {dims}")
    with rewriter.ip, op.location:
        value, t = x, xt
        for d in sorted(dims, reverse=True):
            t = t.with_sizes(t.sizes[:d] + t.sizes[d + 1 :])
            args = [value, int_constant(d), bool_constant(False), none_constant()]
            value = create("torch.aten.prod.dim_int", [t.ir_type()], args).result
        value = static_info_cast(value, t, rt)
    rewriter.replace_op(op, [value])
    return True

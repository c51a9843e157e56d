"""Patterns on torch's pools (``avg_pool1d/2d/3d``, ``max_pool1d/2d/3d``) of an unbatched input: the same pool
over a batch of one, which IREE's torch frontend lowers.

torch pools a ``(C, *spatial)`` input as one batch. torch-mlir's linalg
lowering of these ops reads the input as ``(N, C, *spatial)`` whatever its
rank: an unbatched ``avg_pool2d`` builds a rank-3 ``linalg.pooling_nchw_sum``
that fails to verify, ``avg_pool1d`` and ``avg_pool3d`` crash the compiler,
and the max pools fail to legalize (the errors are on the page).

``pool_unbatched_as_batched`` pools ``x.unsqueeze(0)`` with the op's own
arguments and squeezes dim 0 from the result: the values are the same, as
torch's own kernel does the same.

Left alone, with the reason: an input or result that is not a ranked value
tensor; an input whose rank is not the pool's spatial rank + 1; a result of
another rank or dtype. ``max_pool*_with_indices`` is not matched.
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import create, int_constant, ranked_refusal, vtensor

# op -> its spatial dims (max_pool*_with_indices, two results, is another op)
POOLS = {
    "torch.aten.avg_pool1d": 1,
    "torch.aten.avg_pool2d": 2,
    "torch.aten.avg_pool3d": 3,
    "torch.aten.max_pool1d": 1,
    "torch.aten.max_pool2d": 2,
    "torch.aten.max_pool3d": 3,
}


def pool_unbatched_as_batched(op, rewriter):
    op = op.operation
    spatial = POOLS[op.name]
    xt, rt = vtensor(op.operands[0].type), vtensor(op.results[0].type)
    why = ranked_refusal("the input or the result", (xt, rt))
    if why is not None:
        return rewriter.fail(why)
    if xt.rank != spatial + 1:
        return rewriter.fail(f"a rank-{xt.rank} input: not unbatched (rank {spatial + 1})")
    if rt.rank != xt.rank or rt.dtype != xt.dtype:
        return rewriter.fail(f"the result is not a rank-{xt.rank} {xt.dtype} tensor")
    batched = xt.with_sizes((1, *xt.sizes))
    with rewriter.ip, op.location:
        zero = int_constant(0)
        x = create("torch.aten.unsqueeze", [batched.ir_type()], [op.operands[0], zero]).result
        pooled = create(op.name, [rt.with_sizes((1, *rt.sizes)).ir_type()], [x, *op.operands[1:]]).result
        result = create("torch.aten.squeeze.dim", [op.results[0].type], [pooled, zero]).result
    rewriter.replace_op(op, [result])
    return True


PATTERNS = [pattern(name)(pool_unbatched_as_batched) for name in POOLS]

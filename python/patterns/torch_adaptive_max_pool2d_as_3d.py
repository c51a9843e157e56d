"""Patterns on ``torch.aten.adaptive_max_pool2d``: the same pool as a 3-d one over a unit depth, which IREE's
torch frontend lowers for every size.

IREE runs torch-mlir's ``torch-decompose-complex-ops`` with the other adaptive
pools kept legal but not ``adaptive_max_pool2d``, so its decomposition into
``max_pool2d`` runs, which holds only where each dim's windows have one size
and stride: elsewhere it gives another output size, a zero stride or a dynamic
kernel, and the program fails (the errors are on its page). torch-mlir's
linalg lowering of the adaptive pools computes each window's bounds as
PyTorch does, and ``adaptive_max_pool3d`` reaches it.

``adaptive_max_pool2d_as_3d`` pools ``x.unsqueeze(-3)`` with output size ``(1,
oh, ow)`` and squeezes that dim from both results: a depth of one is one window,
and the 3-d pool's flat index ``d * H * W + h * W + w`` is the 2-d one's, as
``d`` is 0.

Left alone, with the reason: an output size that is not two constant ints; an
input that is not a ranked value tensor of rank 3 or 4; results typed
otherwise than ``[..., oh, ow]``; static sizes where the decomposition holds.
"""

from __future__ import annotations

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import compatible, constant_int, create, int_constant, int_list, ranked_refusal, vtensor


def fixed_windows(size: int | None, out: int) -> bool:
    """Whether torch-mlir's decomposition holds along a dim of static ``size`` pooled to ``out``: the
    stride is at least 1 and its runtime checks pass (one window size, one stride)."""
    if size is None or size < out:
        return False
    rem = size % out
    return out > rem * (out - 1) and (rem == 0 or out % rem == 0)


def output_size(value) -> list[int] | None:
    listed = defining_op(value)
    if listed is None or listed.name != "torch.prim.ListConstruct":
        return None
    sizes = [constant_int(v) for v in listed.operands]
    return None if len(sizes) != 2 or None in sizes else sizes


@pattern("torch.aten.adaptive_max_pool2d")
def adaptive_max_pool2d_as_3d(op, rewriter):
    op = op.operation
    if len(op.operands) != 2 or len(op.results) != 2:
        return rewriter.fail("not adaptive_max_pool2d(self, output_size) -> (values, indices)")
    out = output_size(op.operands[1])
    if out is None or min(out) < 1:
        return rewriter.fail("the output size is not two constant ints >= 1")
    xt, vt, it = (vtensor(v.type) for v in (op.operands[0], *op.results))
    why = ranked_refusal("the input or a result", (xt, vt, it))
    if why is not None:
        return rewriter.fail(why)
    if xt.rank not in (3, 4):
        return rewriter.fail(f"a rank-{xt.rank} input (torch takes rank 3 or 4)")
    pooled = xt.with_sizes((*xt.sizes[:-2], *out))
    if not (compatible(pooled, vt) and compatible(pooled.with_dtype("si64"), it)):
        return rewriter.fail(f"the results are not {pooled.ir_type()} and its si64 indices")
    if all(fixed_windows(s, o) for s, o in zip(xt.sizes[-2:], out)):
        return rewriter.fail("static sizes with fixed windows: stock's max_pool2d decomposition holds")
    deep = xt.with_sizes((*xt.sizes[:-2], 1, *xt.sizes[-2:]))
    deep_out = pooled.with_sizes((*pooled.sizes[:-2], 1, *out))
    with rewriter.ip, op.location:
        depth = int_constant(-3)
        x = create("torch.aten.unsqueeze", [deep.ir_type()], [op.operands[0], depth]).result
        pool = create(
            "torch.aten.adaptive_max_pool3d",
            [deep_out.ir_type(), deep_out.with_dtype("si64").ir_type()],
            [x, int_list([1, *out])],
        )
        results = [
            create("torch.aten.squeeze.dim", [r.type], [v, depth]).result for v, r in zip(pool.results, op.results)
        ]
    rewriter.replace_op(op, results)
    return True

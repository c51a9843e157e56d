"""Patterns on ``torch.prim.ListUnpack`` of a ``torch.aten.split.Tensor`` whose split size is not a constant: each
chunk as the slice it is.

``x.chunk(3, 1)`` on a dynamic dim exports a split by ``(d + 2) // 3``, unpacked
into its chunks: torch-mlir decomposes ``split.Tensor`` only for a constant
size, so split and unpack reach the end of IREE's torch frontend unconverted
(``failed to legalize operation 'torch.constant.int'``).

``unpack_split_as_slices`` writes chunk ``i`` of ``n`` as ``slice.Tensor(x,
dim, i * s, (i + 1) * s)``, the last up to the end. Exact where the unpack
holds: torch's split gives ``ceil(d / s)`` chunks, all of size ``s`` but the
last; a program unpacking ``n`` of them raises in torch unless there are
``n``, and then chunk ``i < n - 1`` is ``x[i*s:(i+1)*s]`` and the last
``x[(n-1)*s:]``.

Left alone, with the reason: an unpack of anything but a ``split.Tensor``; a
split read by anything else too; a dim that is not a constant; an unranked
input or chunk; a constant split size (torch-mlir decomposes it).
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import INT64_MAX, constant_int, create, int_constant, ranked_refusal, vtensor

INT = "!torch.int"


@pattern("torch.prim.ListUnpack")
def unpack_split_as_slices(op, rewriter):
    op = op.operation
    split = defining_op(op.operands[0])
    if split is None or split.name != "torch.aten.split.Tensor":
        return rewriter.fail("not an unpack of torch.aten.split.Tensor")
    if len(list(split.results[0].uses)) != 1:
        return rewriter.fail("the split is read by something besides this unpack")
    x, size, dim_value = split.operands
    t = vtensor(x.type)
    refusal = ranked_refusal("the input or a chunk", [t, *(vtensor(r.type) for r in op.results)])
    if refusal is not None:
        return rewriter.fail(refusal)
    dim = constant_int(dim_value)
    if dim is None:
        return rewriter.fail("the split's dim is not a constant")
    if constant_int(size) is not None:
        return rewriter.fail("a constant split size (torch-mlir decomposes it)")
    n = len(op.results)
    int_type = ir.Type.parse(INT)
    chunks = []
    with rewriter.ip, op.location:
        one = int_constant(1)
        for i in range(n):
            start = create("torch.aten.mul.int", [int_type], [size, int_constant(i)]).result
            if i + 1 < n:
                end = create("torch.aten.mul.int", [int_type], [size, int_constant(i + 1)]).result
            else:
                end = int_constant(INT64_MAX)
            chunk = create("torch.aten.slice.Tensor", [op.results[i].type], [x, dim_value, start, end, one])
            chunks.append(chunk.result)
    rewriter.replace_op(op, chunks)
    rewriter.erase_op(split)
    return True

"""A linalg op whose iteration space is empty is its init: its body never runs.

Root cause. IREE's ``iree-flow-annotate-dispatches`` costs each op as the
product of its static loop ranges, with an overflow check that divides by
the range: a range of 0 kills the compiler (SIGFPE). A matmul with K = 0
(torch-mlir's ``MatmulZeroK_basic``), a reduction over an empty dim, a
convolution over 0 channels reach it with a non-empty result (ops whose
result is empty IREE elides first).

``empty_loop_to_init`` replaces the results of a named linalg op with
reduction loops (a contraction, convolution, pooling or ``linalg.reduce``)
that has a loop of static range 0 by its inits: by linalg's semantics the
body runs once per point of the iteration space, here never, so each result
is its ``outs`` operand, whatever the body (``torch.mm`` of a Kx0 by a 0xN:
its zero fill; an accumulating matmul: its accumulator). Ranges are read from
the operands' static sizes indexed by a dim alone. Left alone: ops whose
ranges are all non-zero or dynamic (a range that is 0 only at run time does
not reach the division), ops with an empty result, buffer semantics, and
``linalg.generic`` (IREE folds an empty generic to its init itself: a K = 0
matmul written as a generic compiles and is right).
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern

# linalg's named ops that have reduction loops (elementwise ops, fills and copies have none, so an empty range
# empties their result; generics IREE folds). Named one by one: a pattern is rooted on an op name.
CONTRACTIONS = (
    "linalg.batch_matmul",
    "linalg.batch_matvec",
    "linalg.batch_mmt4d",
    "linalg.batch_reduce_matmul",
    "linalg.batch_vecmat",
    "linalg.contract",
    "linalg.dot",
    "linalg.matmul",
    "linalg.matvec",
    "linalg.mmt4d",
    "linalg.quantized_batch_matmul",
    "linalg.quantized_matmul",
    "linalg.vecmat",
)
CONVOLUTIONS = tuple(
    f"linalg.{n}"
    for n in (
        "conv_1d conv_1d_ncw_fcw conv_1d_nwc_wcf conv_2d conv_2d_nchw_fchw conv_2d_nchw_fchw_q conv_2d_ngchw_fgchw "
        "conv_2d_ngchw_gfchw conv_2d_ngchw_gfchw_q conv_2d_nhwc_fhwc conv_2d_nhwc_fhwc_q conv_2d_nhwc_hwcf "
        "conv_2d_nhwc_hwcf_q conv_2d_nhwgc_gfhwc conv_2d_nhwgc_gfhwc_q conv_3d conv_3d_ncdhw_fcdhw conv_3d_ndhwc_dhwcf "
        "conv_3d_ndhwc_dhwcf_q depthwise_conv_1d_ncw_cw depthwise_conv_1d_nwc_wc depthwise_conv_1d_nwc_wcm "
        "depthwise_conv_2d_nchw_chw depthwise_conv_2d_nhwc_hwc depthwise_conv_2d_nhwc_hwc_q depthwise_conv_2d_nhwc_hwcm "
        "depthwise_conv_2d_nhwc_hwcm_q depthwise_conv_3d_ncdhw_cdhw depthwise_conv_3d_ndhwc_dhwc "
        "depthwise_conv_3d_ndhwc_dhwcm pooling_nchw_max pooling_nchw_sum pooling_ncw_max pooling_ncw_sum "
        "pooling_ndhwc_max pooling_ndhwc_min pooling_ndhwc_sum pooling_nhwc_max pooling_nhwc_max_unsigned "
        "pooling_nhwc_min pooling_nhwc_min_unsigned pooling_nhwc_sum pooling_nwc_max pooling_nwc_max_unsigned "
        "pooling_nwc_min pooling_nwc_min_unsigned pooling_nwc_sum"
    ).split()
)
ROOTS = ("linalg.reduce", *CONTRACTIONS, *CONVOLUTIONS)


def empty_loops(op) -> list[int]:
    """The loops of ``op`` with a static range of 0: dims an operand of static size 0 is indexed by alone."""
    if not any(_has_static_zero(v.type) for v in op.operands):
        return []  # the common case, decided without linalg's indexing maps (their import costs ~0.2 s cold)
    from iree.compiler.dialects import linalg

    empty = set()
    for value, m in zip(op.operands, linalg.get_indexing_maps(op)):
        if not isinstance(value.type, ir.RankedTensorType):
            continue
        t = ir.RankedTensorType(value.type)
        for k, e in enumerate(ir.AffineMapAttr(m).value.results):
            if isinstance(e, ir.AffineDimExpr) and not t.is_dynamic_dim(k) and t.get_dim_size(k) == 0:
                empty.add(e.position)
    return sorted(empty)


def _has_static_zero(type_) -> bool:
    if not isinstance(type_, ir.RankedTensorType):
        return False
    t = ir.RankedTensorType(type_)
    return any(not t.is_dynamic_dim(k) and t.get_dim_size(k) == 0 for k in range(t.rank))


def _refusal(op) -> str | None:
    results = list(op.results)
    if not results or not all(isinstance(r.type, ir.RankedTensorType) for r in results):
        return "not on tensors (buffer semantics, or no result)"
    if any(_has_static_zero(r.type) for r in results):
        return "an empty result (IREE elides it before dispatches are formed)"
    if not empty_loops(op):
        return "no loop of static range 0"
    return None


def _empty_loop_to_init(op, rewriter):
    op = op.operation
    refusal = _refusal(op)
    if refusal is not None:
        return rewriter.fail(refusal)
    # Destination-passing style: the outs operands come last, each typed as its result (linalg verifies it).
    rewriter.replace_op(op, list(op.operands)[-len(op.results) :])
    return True


# One pattern per root, all the same function.
PATTERNS = tuple(pattern(root, name="empty_loop_to_init")(_empty_loop_to_init) for root in ROOTS)

"""Patterns on ``torch.aten.pixel_unshuffle``: a view, a permute and a reshape, with dynamic sizes.

torch-mlir's own decomposition of ``pixel_unshuffle`` fails to lower where the
spatial sizes are dynamic (``'tensor.collapse_shape' op expected dimension 2
of collapsed type to be static value of 24``). PyTorch defines
``pixel_unshuffle(x, r)`` on ``[..., C, H, W]`` as the view ``[..., C, H/r, r,
W/r, r]``, permuted to ``[..., C, r, r, H/r, W/r]`` and reshaped to ``[...,
C*r*r, H/r, W/r]``; ``pixel_unshuffle_as_view`` writes exactly that, each size
a constant where static, else ``aten.size.int`` (divided by ``r`` with
``floordiv.int``), then casts to the result type.

Left alone, with the reason: the input or result not a ranked value tensor, of
rank under 3, or of another dtype; ``r`` not a constant int >= 1; a static H
or W that ``r`` does not divide (torch raises); a result type not the one the
rewrite gives. A dynamic H or W that ``r`` does not divide makes torch raise;
the rewrite's view then fails or is undefined, as for any program torch refuses.
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import (
    compatible,
    constant_int,
    create,
    dim_size,
    int_constant,
    int_list,
    ranked_refusal,
    static_info_cast,
    vtensor,
)


def int_op(name: str, a, b):
    """``torch.aten.<name>.int a, b`` on ``!torch.int`` values."""
    return create(f"torch.aten.{name}.int", [a.type], [a, b]).result


@pattern("torch.aten.pixel_unshuffle")
def pixel_unshuffle_as_view(op, rewriter):
    op = op.operation
    x, factor = op.operands
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    why = ranked_refusal("the input or the result", (xt, rt))
    if why is not None:
        return rewriter.fail(why)
    r = constant_int(factor)
    if r is None or r < 1:
        return rewriter.fail("the downscale factor is not a constant int >= 1")
    if xt.rank < 3 or rt.dtype != xt.dtype:
        return rewriter.fail(f"input rank {xt.rank} ({xt.dtype}) -> {rt.dtype}: not rank >= 3 of one dtype")
    *lead, c, h, w = xt.sizes
    if any(s is not None and s % r for s in (h, w)):
        return rewriter.fail(f"spatial sizes {h}, {w} not divisible by {r} (torch raises)")
    out = xt.with_sizes(
        [*lead, None if c is None else c * r * r, None if h is None else h // r, None if w is None else w // r]
    )
    if not compatible(out, rt):
        return rewriter.fail(f"the result {rt.sizes} is not pixel_unshuffle's {out.sizes}")
    n = len(lead)
    with rewriter.ip, op.location:
        sizes = [dim_size(x, xt, d) for d in range(xt.rank)]
        rv = int_constant(r)
        ho = int_op("floordiv", sizes[n + 1], rv) if h is None else int_constant(h // r)
        wo = int_op("floordiv", sizes[n + 2], rv) if w is None else int_constant(w // r)
        cc = int_op("mul", sizes[n], int_constant(r * r)) if c is None else int_constant(c * r * r)
        split = xt.with_sizes([*lead, c, out.sizes[n + 1], r, out.sizes[n + 2], r])
        view = create("torch.aten.view", [split.ir_type()], [x, int_list([*sizes[:n], sizes[n], ho, r, wo, r])]).result
        order = [*range(n), n, n + 2, n + 4, n + 1, n + 3]
        moved = split.with_sizes([split.sizes[d] for d in order])
        permuted = create("torch.aten.permute", [moved.ir_type()], [view, int_list(order)]).result
        shape = int_list([*sizes[:n], cc, ho, wo])
        value = create("torch.aten.reshape", [out.ir_type()], [permuted, shape]).result
        value = static_info_cast(value, out, rt)
    rewriter.replace_op(op, [value])
    return True

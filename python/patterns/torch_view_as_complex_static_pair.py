"""Patterns on ``torch.aten.view_as_complex`` of a tensor whose last dim is dynamic: the same view of the
tensor typed with that dim 2, the only size torch allows there.

IREE 3.13's ``torch-iree-bitcast-tensor`` (``BitCastViewComplex``,
BitCastTensor.cpp) writes the view as an ``iree_tensor_ext.bitcast`` and
gives the result the input's dynamic sizes as its own: right where the
input's last dim (the real/imaginary pair) is static, one size too many where
it is dynamic, as in a program exported with every dim dynamic
(``torch.view_as_complex`` of a ``[?, ?]`` tensor): ``'iree_tensor_ext.bitcast'
op value set has 1 dynamic dimensions but only 2 dimension values are
attached``.

``view_as_complex_static_pair`` types the input's last dim as 2 with a
``torch.tensor_static_info_cast`` and views that: torch raises unless the last
dim is 2 (and its stride 1), so on every input torch accepts the cast states a
fact, and IREE's lowering sees the static pair it handles.

Left alone, with the reason: an input or result that is not a ranked value
tensor; an input whose last dim is static (stock lowers it); a 0-d input
(torch raises); an input dtype torch does not view as complex (f16, f32, f64).
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import create, ranked_refusal, static_info_cast, vtensor

VIEWABLE = ("f16", "f32", "f64")  # the dtypes torch.view_as_complex takes


@pattern("torch.aten.view_as_complex")
def view_as_complex_static_pair(op, rewriter):
    op = op.operation
    x = op.operands[0]
    t = vtensor(x.type)
    refusal = ranked_refusal("the input or the result", [t, vtensor(op.results[0].type)])
    if refusal is not None:
        return rewriter.fail(refusal)
    if t.rank == 0:
        return rewriter.fail("a 0-d input (torch raises)")
    if t.sizes[-1] is not None:
        return rewriter.fail(f"the last dim is static ({t.sizes[-1]}): stock lowers it")
    if t.dtype not in VIEWABLE:
        return rewriter.fail(f"dtype {t.dtype} is not one torch views as complex")
    with rewriter.ip, op.location:
        pair = static_info_cast(x, t, t.with_sizes((*t.sizes[:-1], 2)))
        new = create("torch.aten.view_as_complex", [op.results[0].type], [pair])
    rewriter.replace_op(op, new)
    return True

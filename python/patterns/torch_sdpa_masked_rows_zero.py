"""Attention rows whose mask hides every key are 0, as PyTorch returns them, not NaN.

Root cause. PyTorch (2.5 on, 2.13 here) computes a query row that a mask
hides from every key as 0: the scores s + mask are all -inf, and its
``_safe_softmax`` gives that row zero weights (then 0 @ v). IREE lowers
``torch.aten.scaled_dot_product_attention`` to ``iree_linalg_ext.attention``,
whose online softmax takes the row's max (-inf) and computes exp(-inf -
-inf): NaN. torch-mlir's ``ScaledDotProductAttentionBoolMaskModule_basic``
(``randn > 0.5`` masks, some rows all false) gets NaN there.

``fully_masked_rows_zero`` computes the same attention with such rows
unmasked, then gives each of them 0 * its output: ``any = any(mask, -1)``
(for a float mask: any entry not -inf), ``mask' = mask | !any`` (float:
``where(any, mask, 0)``), ``out = where(any, attn(mask'), 0 * attn(mask'))``.
Rows with a visible key are stock's op, bit for bit; a hidden row is 0 where
torch's is, NaN where torch's is (a NaN or +inf score, an infinite value:
the unmasked row is then NaN or inf, and 0 times it NaN), but for a row of
scores all -inf before masking (NaN here, 0 in torch). Left alone: a dropout or causal flag that is not a constant 0/false
(random, or torch refuses a mask with is_causal), no mask, masks of other
dtypes, unranked tensors.
"""

from __future__ import annotations

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import (
    FLOATS,
    bool_constant,
    constant_bool,
    constant_int,
    constant_number,
    create,
    float_constant,
    int_constant,
    vtensor,
)


def _op(value, name: str):
    """The op named ``name`` defining ``value``, or None."""
    op = defining_op(value)
    return op if op is not None and op.name == name else None


def _any_over_keys_of(value, mask) -> bool:
    """Whether ``value`` is ``any.dim(mask, -1, keepdim=true)``."""
    op = _op(value, "torch.aten.any.dim")
    return op is not None and op.operands[0] == mask and constant_int(op.operands[1]) == -1


def unmasked_already(mask) -> bool:
    """Whether ``mask`` is this pattern's own ``mask | !any(mask)`` (or the float form
    ``where(any(mask != -inf), mask, 0)``): the attention it feeds has no fully masked row left."""
    both = _op(mask, "torch.aten.logical_or")
    if both is not None:
        hidden = _op(both.operands[1], "torch.aten.logical_not")
        return hidden is not None and _any_over_keys_of(hidden.operands[0], both.operands[0])
    where = _op(mask, "torch.aten.where.ScalarOther")
    if where is not None:
        anyrow = _op(where.operands[0], "torch.aten.any.dim")
        visible = _op(anyrow.operands[0], "torch.aten.ne.Scalar") if anyrow is not None else None
        return visible is not None and _any_over_keys_of(where.operands[0], visible.result)
    return False


def _refusal(op) -> str | None:
    q, k, v, mask, dropout, causal = list(op.operands)[:6]
    types = [vtensor(x.type) for x in (q, k, v)] + [vtensor(op.results[0].type)]
    if any(t is None for t in types):
        return "q, k, v or the result is not a ranked !torch.vtensor"
    if str(mask.type) == "!torch.none":
        return "no mask"
    mt = vtensor(mask.type)
    if mt is None or mt.rank == 0:
        return "the mask is not a ranked !torch.vtensor of rank >= 1"
    if mt.dtype != "i1" and mt.dtype not in FLOATS:
        return f"a {mt.dtype} mask (torch takes bool or float masks)"
    if unmasked_already(mask):
        return "its fully masked rows are unmasked already (this pattern's own mask)"
    if constant_number(dropout) != 0:
        return "dropout_p is not the constant 0 (random)"
    if constant_bool(causal) is not False:
        return "is_causal is not the constant false (torch refuses a mask with it)"
    return None


@pattern("torch.aten.scaled_dot_product_attention")
def fully_masked_rows_zero(op, rewriter):
    op = op.operation
    refusal = _refusal(op)
    if refusal is not None:
        return rewriter.fail(refusal)
    operands = list(op.operands)
    mask, mt = operands[3], vtensor(operands[3].type)
    row = mt.with_sizes((*mt.sizes[:-1], 1)).with_dtype("i1")
    keys = mt.with_dtype("i1")
    out_t = op.results[0].type
    with rewriter.ip, op.location:
        if mt.dtype == "i1":
            visible = mask
        else:
            visible = create("torch.aten.ne.Scalar", [keys.ir_type()], [mask, float_constant(float("-inf"))]).result
        dims_last = int_constant(-1)
        anyrow = create("torch.aten.any.dim", [row.ir_type()], [visible, dims_last, bool_constant(True)]).result
        if mt.dtype == "i1":
            hidden = create("torch.aten.logical_not", [row.ir_type()], [anyrow]).result
            unmasked = create("torch.aten.logical_or", [mt.ir_type()], [mask, hidden]).result
        else:
            unmasked = create(
                "torch.aten.where.ScalarOther", [mt.ir_type()], [anyrow, mask, float_constant(0.0)]
            ).result
        attn = create(op.name, [out_t], [*operands[:3], unmasked, *operands[4:]]).result
        zero_or_nan = create("torch.aten.mul.Scalar", [out_t], [attn, int_constant(0)]).result
        new = create("torch.aten.where.self", [out_t], [anyrow, attn, zero_or_nan])
    rewriter.replace_op(op, new)
    return True

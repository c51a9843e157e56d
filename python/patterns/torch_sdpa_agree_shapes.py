"""SDPA's query, key, value, mask and result typed alike: the static sizes one proves, a mask of the query's rank.

Root cause. torch-mlir's ``convert-torch-to-tmtensor`` lowers
``scaled_dot_product_attention`` by types, taking the operands' static sizes
to agree: a [L,S] mask is "collapsed" into [1,L,S], a dynamic query batch
expanded into a static result, a static head dim or key length compared with
a dynamic one, a dynamic key batch against a static query batch not converted.

``agree_shapes`` unsqueezes a lower-rank mask to the query's rank (torch
broadcasts it from the left) and gives each dim group the static size one
member has (``tensor_static_info_cast``): batch (q, k, v, result, a mask dim
not 1), L (q, result, mask), S (k, v, mask), E (q, k), Ev (v, result); the
result is cast back. E, S, L, Ev are equal in torch; batch and mask dims may
broadcast, so they are refined only under ``torch.assume_strict_symbolic_shapes``
(IREE sets it: a dynamic dim never broadcasts). Left alone, with the reason:
unranked or rank < 3 or unequal ranks, a higher-rank mask, enable_gqa, causal
with a mask, static sizes that disagree, a batch broadcast among q, k, v,
types that agree or only a result less static (the lowering casts it).
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import constant_bool, create, int_constant, is_none, static_info_cast, vtensor

STRICT = "torch.assume_strict_symbolic_shapes"


def _strict(op) -> bool:
    """Whether the function around ``op`` assumes strict symbolic shapes (no dynamic dim broadcasts)."""
    p = op.parent
    while p is not None and p.name not in ("func.func", "builtin.module"):
        p = p.parent
    return p is not None and p.name == "func.func" and STRICT in p.attributes


def _groups(n: int, m: int | None, strict: bool):
    """The dims that must have one size: lists of (operand index, dim); operands q=0, k=1, v=2, mask=3,
    result=4; the mask (of rank ``m`` once unsqueezed to ``n``) only where ``strict``."""
    mask = (lambda d: [(3, d)]) if m is not None and strict else (lambda d: [])
    batch = [[(0, i), (1, i), (2, i), (4, i), *mask(i)] for i in range(n - 2)] if strict else []
    return [
        *batch,
        [(0, n - 2), (4, n - 2), *mask(n - 2)],  # L
        [(1, n - 2), (2, n - 2), *mask(n - 1)],  # S
        [(0, n - 1), (1, n - 1)],  # E
        [(2, n - 1), (4, n - 1)],  # Ev
    ]


def _refusal(op, types) -> str | None:
    q, k, v, mask, r = types
    if any(t is None for t in (q, k, v, r)):
        return "q, k, v or the result is not a ranked !torch.vtensor"
    if len({q.rank, k.rank, v.rank, r.rank}) != 1 or q.rank < 3:
        return "q, k, v and the result are not of one rank >= 3 (the lowering's batch dim)"
    operands = list(op.operands)
    if constant_bool(operands[7]) is not False:
        return "enable_gqa is not the constant false (head counts differ on purpose)"
    if not is_none(operands[3]):
        if mask is None or mask.rank > q.rank:
            return "the mask is not a ranked !torch.vtensor of at most the query's rank"
        if constant_bool(operands[5]) is not False:
            return "a mask with is_causal not the constant false (torch refuses it)"
    return None


def _agreed(types, n: int, strict: bool):
    """The sizes each of q, k, v, mask, result takes, or a reason to leave the op alone."""
    sizes = [list(t.sizes) if t is not None else None for t in types]
    if sizes[3] is not None:
        sizes[3] = [1] * (n - len(sizes[3])) + sizes[3]
    for i in range(n - 2):  # a static 1 in q, k or v broadcasts: the lowering does not
        qkv = [sizes[j][i] for j in range(3)]
        if 1 in qkv and any(s != 1 for s in qkv):
            return f"batch dim {i} is broadcast among q, k, v ({qkv}): the lowering does not broadcast them"
    for group in _groups(n, types[3].rank if types[3] is not None else None, strict):
        members = [(j, d) for j, d in group if not (j == 3 and sizes[3][d] == 1)]  # a mask's 1 broadcasts
        static = {sizes[j][d] for j, d in members} - {None}
        if len(static) > 1:
            return f"static sizes {sorted(static)} of one dim disagree (torch raises)"
        if static:
            (size,) = static
            for j, d in members:
                sizes[j][d] = size
    return sizes


@pattern("torch.aten.scaled_dot_product_attention")
def agree_shapes(op, rewriter):
    op = op.operation
    operands = list(op.operands)
    types = [vtensor(x.type) for x in operands[:4]] + [vtensor(op.results[0].type)]
    refusal = _refusal(op, types)
    if refusal is not None:
        return rewriter.fail(refusal)
    n, strict = types[0].rank, _strict(op)
    sizes = _agreed(types, n, strict)
    if isinstance(sizes, str):
        return rewriter.fail(sizes)
    new = [t.with_sizes(s) if t is not None else None for t, s in zip(types, sizes)]
    if new[:4] == types[:4]:
        if new != types:
            return rewriter.fail("only the result is less static than q, k, v prove (the lowering casts it)")
        return rewriter.fail("the types agree already" + ("" if strict else f" (batch and mask dims: no {STRICT})"))
    with rewriter.ip, op.location:
        values = operands[:4]
        for j in range(3):
            values[j] = static_info_cast(values[j], types[j], new[j])
        if types[3] is not None:
            mask, mt = values[3], types[3]
            while mt.rank < n:
                mt = mt.with_sizes((1, *mt.sizes))
                mask = create("torch.aten.unsqueeze", [mt.ir_type()], [mask, int_constant(0)]).result
            values[3] = static_info_cast(mask, mt, new[3])
        attn = create(op.name, [new[4].ir_type()], [*values, *operands[4:]]).result
        result = static_info_cast(attn, new[4], types[4])
    rewriter.replace_op(op, [result])
    return True

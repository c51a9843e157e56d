"""Patterns on a torch view that splits one dynamic dim into constant sizes: its result typed with those dims
dynamic, then cast back, so IREE lowers it as a reshape given every size.

IREE's torch frontend (``torch-scalarize-shapes``) turns ``x.view(b, s, 12, 32)``
of a ``[?, ?, ?]`` x, with ``b, s = x.size()``, into ``unflatten.int(x, 2, [12,
32])``, whose torch-mlir lowering expands x's dynamic dim into the all-static
group (it refines its source only where the whole result is static):
``'tensor.expand_shape' op expected dimension 2 of collapsed type to be static
value of 384``. ``x.unflatten(2, (12, 32))`` itself fails alike.

The patterns rebuild the op with the split dims of its result dynamic and
``torch.tensor_static_info_cast`` the result back: the lowering then takes its
``tensor.reshape`` path, given every size. Exact on every input torch accepts:
a view's result dims are the sizes it is given, zero-size inputs included
(``zeros(0, 5, 7).view(0, 5, 12, 32)`` is valid); x's type is untouched.

Left alone, with the reason: an unranked input or result; sizes not a list; not
one dim split, the others kept; a static split dim, a static result, an unflatten
into two sizes one of them 1 (stock lowers these); a split size not a constant
>= 0, or a result type without them.
"""

from __future__ import annotations

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import VTensor, constant_int, create, ranked_refusal, static_info_cast, vtensor


def _size_dim(item, x) -> int | None:
    """The dim ``item`` is ``torch.aten.size.int(x, dim)`` of (a constant dim), or None."""
    op = defining_op(item)
    if op is None or op.name != "torch.aten.size.int" or op.operands[0] != x:
        return None
    return constant_int(op.operands[1])


def _kept(size: int | None, item, x, dim: int) -> bool:
    """Whether ``item``, given as the view's size where x has ``size`` at ``dim``, provably keeps that dim,
    as torch-scalarize-shapes matches it: x's own ``size.int`` at that dim, or the same constant."""
    if _size_dim(item, x) == dim:
        return True  # on a static dim the frontend folds it to that constant first
    return size is not None and constant_int(item) == size


def split_group(x, items) -> tuple[int, int] | str:
    """(d, m): the view of ``x`` by sizes ``items`` keeps x's dims but ``d``, split into the ``m`` constant sizes
    ``items[d:d + m]`` (as torch-scalarize-shapes matches it before it unflattens); else why it is left alone."""
    t = vtensor(x.type)
    rank, out = t.rank, len(items)
    left = 0
    while left < min(rank, out) and _kept(t.sizes[left], items[left], x, left):
        left += 1
    right = 0
    while right < min(rank, out) - left and _kept(
        t.sizes[rank - 1 - right], items[out - 1 - right], x, rank - 1 - right
    ):
        right += 1
    if rank - left - right != 1 or out - left - right < 2:
        return (
            "not a split of one of the input's dims into several, the others kept (the frontend does not unflatten it)"
        )
    return left, out - left - right


def group_refusal(x, d: int, group, result: VTensor) -> str | None:
    """Why the split of dim ``d`` of ``x`` into sizes ``group`` (values) at result dims ``d..`` is left alone."""
    if vtensor(x.type).sizes[d] is not None:
        return f"the split dim {d} is static: stock lowers it"
    sizes = [constant_int(v) for v in group]
    if any(s is None or s < 0 for s in sizes):
        return "a split size that is not a constant >= 0 (-1 or computed): the group is not all static"
    if tuple(sizes) != result.sizes[d : d + len(sizes)]:
        return f"the result type's dims {d}.. are not the split sizes {sizes}"
    if None not in result.sizes:
        return "a static result: stock refines the input and lowers it"
    return None


def _retype(op, rewriter, d: int, m: int, result: VTensor):
    """``op`` rebuilt with result dims ``d..d+m`` dynamic, its result cast back to ``result``."""
    loose = result.with_sizes((*result.sizes[:d], *(None,) * m, *result.sizes[d + m :]))
    with rewriter.ip, op.location:
        new = create(op.name, [loose.ir_type()], list(op.operands))
        value = static_info_cast(new.result, loose, result)
    rewriter.replace_op(op, [value])
    return True


def _list_items(value):
    op = defining_op(value)
    return list(op.operands) if op is not None and op.name == "torch.prim.ListConstruct" else None


def _view(op, rewriter):
    op = op.operation
    x, sizes = op.operands
    t, result = vtensor(x.type), vtensor(op.results[0].type)
    refusal = ranked_refusal("the input or the result", [t, result])
    if refusal is not None:
        return rewriter.fail(refusal)
    items = _list_items(sizes)
    if items is None or len(items) != result.rank:
        return rewriter.fail("the sizes are not a torch.prim.ListConstruct of the result's rank")
    split = split_group(x, items)
    if isinstance(split, str):
        return rewriter.fail(split)
    d, m = split
    refusal = group_refusal(x, d, items[d : d + m], result)
    if refusal is not None:
        return rewriter.fail(refusal)
    return _retype(op, rewriter, d, m, result)


view_split_as_reshape = pattern("torch.aten.view", name="view_split_as_reshape")(_view)
unsafe_view_split_as_reshape = pattern("torch.aten._unsafe_view", name="unsafe_view_split_as_reshape")(_view)
reshape_split_as_reshape = pattern("torch.aten.reshape", name="reshape_split_as_reshape")(_view)


@pattern("torch.aten.unflatten.int")
def unflatten_split_as_reshape(op, rewriter):
    op = op.operation
    x, dim_value, sizes = op.operands
    t, result = vtensor(x.type), vtensor(op.results[0].type)
    dim = constant_int(dim_value)
    refusal = ranked_refusal("the input or the result", [t, result], dim)
    if refusal is not None:
        return rewriter.fail(refusal)
    if dim is None:
        return rewriter.fail("the dim is not a constant")
    items = _list_items(sizes)
    if items is None or len(items) < 2 or result.rank != t.rank + len(items) - 1:
        return rewriter.fail("the sizes are not a torch.prim.ListConstruct of two or more, the result's rank")
    if len(items) == 2 and 1 in (constant_int(v) for v in items):
        return rewriter.fail(
            "two sizes, one of them 1: torch-mlir's canonicalizer makes it an unsqueeze, which stock lowers"
        )
    d = dim % t.rank
    refusal = group_refusal(x, d, items, result)
    if refusal is not None:
        return rewriter.fail(refusal)
    return _retype(op, rewriter, d, len(items), result)

"""Patterns on ``torch.aten.meshgrid`` unpacked: each grid a view of its input expanded, as value tensors.

``torch.meshgrid`` exports as ``torch.aten.meshgrid[.indexing]`` of a list,
unpacked by ``torch.prim.ListUnpack``. IREE's torch frontend runs torch-mlir's
``torch-recompose-complex-ops`` first, which writes each grid as ``aten.view``
then ``aten.expand`` typed ``!torch.tensor`` (non-value tensors with no shape,
which torch-mlir's own pipeline refines later and IREE's never does), so every
program fails (``type of return operand 0 ('!torch.tensor') doesn't match``).
Vision models build coordinates this way (DINOv3's RoPE, DETR's reference points).

``decompose_meshgrid`` writes the same view and expand, typed as value tensors:
grid ``i`` of inputs sized ``n_0 .. n_{k-1}`` is input ``i`` viewed as ``n_i``
at dim ``i`` and 1 elsewhere, expanded to ``[n_0, .., n_{k-1}]``; with
``indexing="xy"`` the first two dims swap places (torch's definition).
Left alone, with the reason: indexing not a constant "ij" or "xy"; the
grids read otherwise than by one ``torch.prim.ListUnpack``; the tensors not a
``torch.prim.ListConstruct`` of 0-d or 1-d ranked value tensors of one dtype
(torch raises for others); a grid typed otherwise than the shape they give.
"""

from __future__ import annotations

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import (
    VTensor,
    bool_constant,
    compatible,
    constant_str,
    create,
    dim_size,
    int_list,
    static_info_cast,
    vtensor,
)


def indexing_of(grid) -> str | None:
    """The indexing of a meshgrid op: "ij" for ``aten.meshgrid`` (torch's default), the constant string
    of ``aten.meshgrid.indexing``, or None where it is not a constant."""
    if grid.name == "torch.aten.meshgrid":
        return "ij"
    return constant_str(grid.operands[1]) if len(grid.operands) == 2 else None


def plan_meshgrid(grid):
    """(the unpack, inputs, their types, indexing, the grids' shape) for ``grid``, or why it is left alone."""
    indexing = indexing_of(grid)
    if indexing not in ("ij", "xy"):
        return "indexing is not a constant 'ij' or 'xy'"
    users = [use.owner for use in grid.results[0].uses]
    if len(users) != 1 or users[0].name != "torch.prim.ListUnpack":
        return "the grids are not read by one torch.prim.ListUnpack alone"
    unpack = users[0]
    listed = defining_op(grid.operands[0])
    if listed is None or listed.name != "torch.prim.ListConstruct":
        return "the tensors are not a torch.prim.ListConstruct"
    inputs = list(listed.operands)
    types = [vtensor(v.type) for v in inputs]
    if not inputs or any(t is None or t.rank > 1 for t in types):
        return "the tensors are not 0-d or 1-d ranked !torch.vtensor (torch raises for others)"
    if len({t.dtype for t in types}) != 1:
        return "the tensors differ in dtype (torch raises)"
    if len(unpack.results) != len(inputs):
        return "the unpack's result count is not the number of tensors"
    sizes = [t.sizes[0] if t.rank else 1 for t in types]
    if indexing == "xy" and len(sizes) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    shape = VTensor(tuple(sizes), types[0].dtype)
    if any(vtensor(r.type) is None or not compatible(shape, vtensor(r.type)) for r in unpack.results):
        return f"a grid is not typed as the {shape.ir_type()} the tensors give"
    return unpack, inputs, types, indexing, shape


def build_grid(x, dim: int, shape: VTensor, full):
    """Input ``x`` (0-d or 1-d) viewed as its size at ``dim`` and 1 elsewhere, expanded to ``full`` (the
    grid's sizes as ``!torch.int``; ``full[dim]`` is ``x``'s), typed ``shape``."""
    view = VTensor(tuple(shape.sizes[d] if d == dim else 1 for d in range(shape.rank)), shape.dtype)
    items = [full[d] if d == dim else 1 for d in range(shape.rank)]
    viewed = create("torch.aten.view", [view.ir_type()], [x, int_list(items)]).result
    return create("torch.aten.expand", [shape.ir_type()], [viewed, int_list(full), bool_constant(False)]).result


def decompose(op, rewriter):
    grid = op.operation
    plan = plan_meshgrid(grid)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    unpack, inputs, types, indexing, shape = plan
    # The dim each input varies along: its own position, the first two swapped for "xy".
    dims = list(range(len(inputs)))
    if indexing == "xy" and len(dims) > 1:
        dims[0], dims[1] = 1, 0
    with rewriter.ip, grid.location:
        sizes = [dim_size(x, t, 0) if t.rank else 1 for x, t in zip(inputs, types)]
        full = [sizes[dims.index(d)] for d in range(shape.rank)]
        values = [build_grid(x, d, shape, full) for x, d in zip(inputs, dims)]
        values = [static_info_cast(v, shape, vtensor(r.type)) for v, r in zip(values, unpack.results)]
    rewriter.replace_op(unpack, values)
    rewriter.erase_op(grid)
    return True


decompose_meshgrid = pattern("torch.aten.meshgrid", name="decompose_meshgrid")(decompose)
decompose_meshgrid_indexing = pattern("torch.aten.meshgrid.indexing", name="decompose_meshgrid_indexing")(decompose)

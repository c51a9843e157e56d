"""A copy, made by a dispatch, for each in-place operand whose value is shared.

A ``flow.dispatch`` that writes an operand in place (``tied_operands``) whose
value has other uses leaves copy-on-write to stream, which stock IREE 3.13
gets wrong twice (issue 14, second cause): its concurrency scheduling can move
the writer before the reader's copy, and the ABI's fold of
``export(import(%view))`` returns the very buffer view the writer writes.

``copy_shared_tied_operands`` gives such an operand a copy made right before
the writer by a new dispatch with an executable of its own, and lets the
writer write the copy. No shared value is then written in place: the copy
precedes its one use by an SSA edge, the original is only read. A dispatch,
not ``flow.tensor.clone`` (stream elides and reorders clones); one executable
per copy (stream's CSE would merge two copies of one value). Values are
followed through ``flow.tensor.reshape`` / ``flow.tensor.bitcast``. Left alone:
block-argument roots, splats (stream re-splats per use), encodings, element
types other than integers and floats, ``flow.tensor.update``.
docs/passes/copy-shared-tied-operand.md traces both causes through IREE.
"""

from __future__ import annotations

from dataclasses import dataclass

from iree.compiler import ir

from .ir_utils import defining_op, operand_segments, operation

_VIEWS = ("flow.tensor.reshape", "flow.tensor.bitcast")
_FUNCS = ("util.func", "func.func")


def _dynamic_dims(ty) -> int:
    shape = ir.ShapedType(ty)
    return sum(1 for i in range(shape.rank) if shape.is_dynamic_dim(i))


def _tied_arguments(op) -> list[int]:
    if "tied_operands" not in op.attributes:
        return []
    return sorted({ir.IntegerAttr(a).value for a in ir.ArrayAttr(op.attributes["tied_operands"])} - {-1})


def root_of(value):
    """The value ``value`` is a view of, through reshapes and bitcasts."""
    d = defining_op(value)
    while d is not None and d.name in _VIEWS:
        value = d.operands[0]
        d = defining_op(value)
    return value


def leaf_uses(value) -> int:
    """Uses of ``value`` and of its views, views themselves not counted."""
    n = 0
    for u in value.uses:
        user = operation(u.owner)
        if user.name in _VIEWS and u.operand_number == 0:
            n += sum(leaf_uses(r) for r in user.results)
        else:
            n += 1
    return n


# Uses of a buffer view that read its shape, never its contents.
_METADATA = (
    "hal.buffer_view.dim",
    "hal.buffer_view.rank",
    "hal.buffer_view.element_type",
    "hal.buffer_view.encoding_type",
)


def shared(value) -> str | None:
    """Why writing ``value`` in place is unsafe in stock IREE (None: it is not shared)."""
    d = defining_op(value)
    if d is not None and d.name == "flow.tensor.splat":
        # Stream gives each in-place use of a splat a splat of its own: copy-on-write's
        # clone of a ``stream.async.splat`` becomes a second splat (``PropagateCloneableOps``),
        # which is not pure, so no CSE merges it back, and it reads nothing a writer changes.
        return None
    root = root_of(value)
    d = defining_op(root)
    if d is None:
        return None
    if leaf_uses(root) > 1:
        return "the value has other uses"
    if d.name == "hal.tensor.import" and buffer_view_read_elsewhere(d):
        return "the value is an imported buffer view that has other uses"
    return None


def buffer_view_read_elsewhere(imported) -> bool:
    """Whether the buffer view a ``hal.tensor.import`` imports has uses other than the import
    that may read its contents (returned, imported again)."""
    return any(
        operation(u.owner).name not in _METADATA for u in imported.operands[0].uses if operation(u.owner) != imported
    )


def copyable(ty) -> str | None:
    """Why a tensor of type ``ty`` cannot be copied by the generated dispatch (None: it can)."""
    if not isinstance(ty, ir.RankedTensorType):
        return "not a ranked tensor"
    if ty.encoding is not None:
        return "the tensor has an encoding"
    if not isinstance(ty.element_type, (ir.IntegerType, ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)):
        return "the element type is not an integer or float"
    return None


@dataclass
class Site:
    """Operand ``operand`` of dispatch ``user`` (argument ``argument``), with its dynamic dims."""

    user: object
    operand: int
    argument: int
    dims: list


def argument_dims(dispatch, k: int) -> list:
    """The dynamic dims of dispatch argument ``k`` (its slice of the ``argument_dims`` segment)."""
    seg = operand_segments(dispatch)
    args = list(dispatch.operands)[seg[0] : seg[0] + seg[1]]
    dims = list(dispatch.operands)[seg[0] + seg[1] : seg[0] + seg[1] + seg[2]]
    start = sum(_dynamic_dims(a.type) for a in args[:k] if isinstance(a.type, ir.ShapedType))
    return dims[start : start + _dynamic_dims(args[k].type)]


def sites(module) -> list[Site]:
    """The in-place dispatch operands to copy, in program order."""
    out = []
    for f in operation(module).regions[0].blocks[0].operations:
        f = operation(f)
        if f.name not in _FUNCS:
            continue

        def visit(op):
            op = operation(op)
            if op.name == "flow.dispatch":
                seg = operand_segments(op)
                for k in _tied_arguments(op):
                    v = op.operands[seg[0] + k]
                    if copyable(v.type) is None and shared(v) is not None:
                        out.append(Site(op, seg[0] + k, k, argument_dims(op, k)))
            return ir.WalkResult.ADVANCE

        f.walk(visit)
    return out


def fresh_symbol(base: str, taken: set[str]) -> str:
    k = 0
    while f"{base}_{k}" in taken:
        k += 1
    taken.add(f"{base}_{k}")
    return f"{base}_{k}"


def _sizes(shape) -> list[str]:
    out, j = [], 0
    for i in range(shape.rank):
        if shape.is_dynamic_dim(i):
            out.append(f"%d{j}")
            j += 1
        else:
            out.append(str(shape.get_dim_size(i)))
    return out


def copy_executable(name: str, ty) -> str:
    """A flow.executable whose one export copies a ``ty`` tensor (its dynamic dims are the workload)."""
    shape = ir.ShapedType(ty)
    n, rank, t, elem = _dynamic_dims(ty), shape.rank, str(ty), str(shape.element_type)
    ro = f"!iree_tensor_ext.dispatch.tensor<readonly:{t}>"
    wo = f"!iree_tensor_ext.dispatch.tensor<writeonly:{t}>"
    dims = ", ".join(f"%d{i}" for i in range(n))
    shaped = f"{{{dims}}}" if n else ""
    where = (
        f"offsets = [{', '.join(['0'] * rank)}], sizes = [{', '.join(_sizes(shape))}], "
        f"strides = [{', '.join(['1'] * rank)}]"
    )
    ids = ", ".join(f"i{i}" for i in range(rank))
    identity = f"affine_map<({ids}) -> ({ids})>"
    parallel = ", ".join(['"parallel"'] * rank)
    body = [f"%d{i} = iree_tensor_ext.dispatch.workload.ordinal %a{i}, {i} : index" for i in range(n)]
    if n:
        body += [
            f"%in = flow.dispatch.tie_shape %src : {ro}{shaped}",
            f"%out = flow.dispatch.tie_shape %dst : {wo}{shaped}",
        ]
    src, dst = ("%in", "%out") if n else ("%src", "%dst")
    body += [
        f"%t = iree_tensor_ext.dispatch.tensor.load {src}, {where} : {ro}{shaped} -> {t}",
        f"%e = tensor.empty({dims}) : {t}",
        f"%c = linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = [{parallel}]}} "
        f"ins(%t : {t}) outs(%e : {t}) {{",
        f"^bb0(%x: {elem}, %y: {elem}):",
        f"  linalg.yield %x : {elem}",
        f"}} -> {t}",
        f"iree_tensor_ext.dispatch.tensor.store %c, {dst}, {where} : {t} -> {wo}{shaped}",
        "return",
    ]
    workload = ", ".join(f"%w{i}" for i in range(n))
    return "\n".join(
        [
            f"flow.executable private @{name} {{",
            f"  flow.executable.export public @{name} workgroups({', '.join(f'%w{i}: index' for i in range(n))})"
            " -> (index, index, index) {",
            f"    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice({workload})",
            "    flow.return %x, %y, %z : index, index, index",
            "  }",
            "  builtin.module {",
            f"    func.func @{name}(%src: {ro}{''.join(f', %a{i}: index' for i in range(n))}, %dst: {wo}) {{",
            *(f"      {b}" for b in body),
            "    }",
            "  }",
            "}",
        ]
    )


def copy_before(site: Site, name: str, anchor) -> None:
    """Make ``site.user`` write a copy of its operand, made by a dispatch of a new executable
    ``@name`` (inserted before ``anchor``, the top-level op holding the user)."""
    user = site.user
    value = user.operands[site.operand]
    exe = ir.Module.parse(copy_executable(name, value.type), user.context)
    for o in list(exe.body.operations):
        operation(o).move_before(anchor)
    n = len(site.dims)
    copy = ir.Operation.create(
        "flow.dispatch",
        results=[value.type],
        operands=[*site.dims, value, *site.dims, *site.dims, *site.dims],
        attributes={
            "entry_points": ir.ArrayAttr.get([ir.SymbolRefAttr.get([name, name])]),
            "operandSegmentSizes": ir.DenseI32ArrayAttr.get([n, 1 + n, n, n]),
            "tied_operands": ir.ArrayAttr.get([ir.IntegerAttr.get(ir.IndexType.get(), -1)]),
        },
        loc=user.location,
        ip=ir.InsertionPoint(user),
    )
    user.operands[site.operand] = copy.results[0]


def copy_sites(module, plan: list[Site], base: str) -> list:
    """Give each site of ``plan`` its copy, by a dispatch of a new executable ``@<base>_N``;
    returns the dispatches whose operand was given a copy (one per operand)."""
    body = operation(module).regions[0].blocks[0]
    taken = {
        ir.StringAttr(operation(o).attributes["sym_name"]).value
        for o in body.operations
        if "sym_name" in operation(o).attributes
    }
    for site in plan:
        anchor = site.user
        while operation(anchor.parent).name != "builtin.module":
            anchor = operation(anchor.parent)
        copy_before(site, fresh_symbol(base, taken), anchor)
    return [site.user for site in plan]


def copy_shared_tied_operands(module) -> list:
    """The rewrite on a module; returns the dispatches whose operand was given a copy (one per operand)."""
    return copy_sites(module, sites(module), "__copy_tied_operand")  # all decisions first, then the edits

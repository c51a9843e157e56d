"""A copy, made by a dispatch, for each in-place operand whose value is shared.

The bug (stock IREE 3.13, issue 14, the second root cause). A ``flow.dispatch``
that writes an operand in place (``tied_operands``: the scatter of
``index_put`` / ``one_hot`` / ``index_add``) leaves copy-on-write to stream
when the operand's value has other uses. Stream gets it wrong in two ways:

1. The reader's copy is reordered after the writer.
   ``iree-stream-materialize-copy-on-write`` clones the value per use;
   ``iree-stream-elide-async-copies`` then removes the clone that was the
   value's last use, so the writer ties the original while an earlier
   ``stream.async.clone`` keeps the reader's copy. That is right in program
   order, but ``iree-stream-schedule-concurrency`` does not keep it: a wave
   of several ops is wrapped in ``stream.async.concurrent`` and inserted
   right after the last op defining one of its inputs, and then the block is
   sorted topologically, on the assumption that "SSA values imply ordering".
   A tied write is ordered after the reads of its operand by no SSA edge: the
   wave holding the writer lands before the clone (a single-op wave, left in
   place), and the clone copies the written data. Seen when a value reaches
   a scatter and a ``return`` through a ``flow.tensor.reshape`` (lowered to a
   clone) and the scatter has an independent op to run beside (random seeds
   312 and 417: ``like + 1`` over a 2-D shape, returned beside its scatter).
2. An argument is returned as itself. At the ABI phase the canonicalizer
   folds ``hal.tensor.export(hal.tensor.import(%view))`` into ``%view``, so
   ``return %x, scatter(outs %x)`` returns the caller's buffer view; the
   import then has one use, the in-place scatter, so stream writes the
   caller's buffer, and the returned ``%x`` holds the scatter's writes
   (static and dynamic shapes).

The fix, at the end of the flow phase (``--inject flow:<this pass>``): give
the in-place operand its own copy, made by a new dispatch that reads the
value and writes a fresh tensor, each copy calling its own executable. After
the rewrite no value that has other uses is written in place: the copy has
one use, the writer, which it precedes by an SSA edge no scheduler can
break; the original is only read (copy-on-write finds nothing to do, and
there is no clone to elide or reorder). A copy is a dispatch, not a
``flow.tensor.clone``: stream elides and reorders clones (a clone added by
hand, with or without ``util.optimization_barrier``, is still wrong), and
each copy has its own executable so that stream's CSE (dispatches are pure)
cannot merge two copies of one value back into one shared, written value.

Sound: the copy holds the operand's value (a dispatch reads only its
operands), it is placed right before the writer, where the operand and its
dims are defined, and the writer then writes a value nothing else sees, so
every other use reads the unwritten value, as value semantics require. It
costs one copy of the tensor per rewritten operand; stock copy-on-write
copies too, except where it (wrongly) shares the storage.

Rewritten: an operand listed in a ``flow.dispatch``'s ``tied_operands`` whose
value, followed back through ``flow.tensor.reshape`` / ``flow.tensor.bitcast``
to its root and forward through those views again, has another use, or
whose root is a ``hal.tensor.import`` of a buffer view that has another use
(e.g. is returned; ``hal.buffer_view.dim`` and the like read no contents
and do not count). Left alone: a root that is a block argument (its other
uses are unknown here), an operand that is a ``flow.tensor.splat`` (stream
re-splats per in-place use, see ``shared``), tensors with an encoding,
element types other than integers and floats, and other in-place writers
(``flow.tensor.update``).
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
    if d.name == "hal.tensor.import" and any(
        operation(u.owner).name not in _METADATA for u in d.operands[0].uses if operation(u.owner) != d
    ):
        return "the value is an imported buffer view that has other uses"
    return None


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


def _fresh(base: str, taken: set[str]) -> str:
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


def copy_shared_tied_operands(module) -> int:
    """The rewrite on a module; returns the number of operands given a copy."""
    body = operation(module).regions[0].blocks[0]
    taken = {
        ir.StringAttr(operation(o).attributes["sym_name"]).value
        for o in body.operations
        if "sym_name" in operation(o).attributes
    }
    plan = sites(module)  # all decisions first, then the edits
    for site in plan:
        anchor = site.user
        while operation(anchor.parent).name != "builtin.module":
            anchor = operation(anchor.parent)
        copy_before(site, _fresh("__copy_tied_operand", taken), anchor)
    return len(plan)

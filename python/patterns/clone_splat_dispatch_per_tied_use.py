"""One copy of a splat-like dispatch per in-place use, each with its own executable.

A ``flow.dispatch`` with no tensor operands (IREE's ``zeros_like`` over a
dynamic shape) that is the destination of an in-place (tied) use and has
another use needs a copy per in-place use. Stream makes one by re-dispatching
it, then merges the identical re-dispatches with CSE (``stream.async.dispatch``
is pure), so two writers share one buffer (stock IREE 3.13, issue 14).

``clone_splat_dispatches_per_tied_use`` gives each in-place use its own copy
of the dispatch calling its own copy of the executable, which no CSE can
merge. Sound: the dispatch reads nothing but its scalar operands, so the
copy, placed where those dominate, computes the same value; stream meant to
recompute it per in-place use anyway. The operand-free dispatches of one
callee in a function form a group (stream may merge any of them once their
operands fold equal): if some use reads, every in-place use gets a copy;
if every use is in place, all but one do. Uses are followed through
``flow.tensor.reshape`` / ``flow.tensor.bitcast``, replayed on the copy.
docs/passes/clone-splat-dispatch-per-tied-use.md traces the bug through stream.
"""

from __future__ import annotations

from dataclasses import dataclass

from iree.compiler import ir

from .ir_utils import operation

_VIEWS = ("flow.tensor.reshape", "flow.tensor.bitcast")
_FUNCS = ("util.func", "func.func")


@dataclass
class Use:
    """An operand of ``user`` reached from a dispatch result through ``chain`` (view ops)."""

    user: object
    operand: int
    chain: tuple  # view ops from the dispatch result to the operand, outermost last
    in_place: bool
    dispatch: object
    result: int


def _body(module):
    return operation(module).regions[0].blocks[0]


def _segments(op) -> list[int]:
    return list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))


def dispatch_arguments(op) -> list:
    """The ``arguments`` segment of a flow.dispatch (workload, arguments, argument_dims, result_dims)."""
    seg = _segments(op)
    return list(op.operands)[seg[0] : seg[0] + seg[1]]


def _tied_arguments(op) -> set[int]:
    if "tied_operands" not in op.attributes:
        return set()
    return {ir.IntegerAttr(a).value for a in ir.ArrayAttr(op.attributes["tied_operands"])} - {-1}


def splat_like(op) -> str | None:
    """Why ``op`` is not a splat-like dispatch (None when it is one)."""
    if op.name != "flow.dispatch":
        return "not a flow.dispatch"
    if any(isinstance(v.type, ir.ShapedType) for v in dispatch_arguments(op)):
        return "the dispatch consumes a tensor: stream keeps a real copy for its in-place uses"
    if len(ir.ArrayAttr(op.attributes["entry_points"])) != 1:
        return "the dispatch has several entry points"
    return None


def in_place(user, operand: int) -> bool:
    if user.name == "flow.tensor.update":
        return operand == 0
    if user.name == "flow.dispatch":
        seg = _segments(user)
        k = operand - seg[0]
        return 0 <= k < seg[1] and k in _tied_arguments(user)
    return False


def uses_of(dispatch) -> list[Use]:
    out = []

    def visit(value, chain, result):
        for u in value.uses:
            user = operation(u.owner)
            if user.name in _VIEWS and u.operand_number == 0:
                for r in user.results:
                    visit(r, chain + (user,), result)
                continue
            out.append(Use(user, u.operand_number, chain, in_place(user, u.operand_number), dispatch, result))

    for i, r in enumerate(dispatch.results):
        visit(r, (), i)
    return out


def uses_to_copy(uses: list[Use]) -> list[Use]:
    """The in-place uses that need a copy of their dispatch (see the module docstring)."""
    tied = [u for u in uses if u.in_place]
    # A read beside them: every in-place use is copied. Otherwise one keeps
    # the original (a single in-place use, alone, keeps it: nothing to copy).
    return tied if len(tied) < len(uses) else tied[1:]


def _symbol(attr) -> tuple[str, str]:
    ref = ir.SymbolRefAttr(attr)
    return ref.value[0], ref.value[-1]


def executables(module) -> dict[str, object]:
    return {
        ir.StringAttr(o.attributes["sym_name"]).value: operation(o)
        for o in _body(module).operations
        if operation(o).name == "flow.executable"
    }


def groups(module) -> list[list]:
    """Splat-like dispatches per (function, callee), in program order."""
    out = []
    for f in _body(module).operations:
        f = operation(f)
        if f.name not in _FUNCS:
            continue
        by_callee: dict[str, list] = {}

        def collect(op, by_callee=by_callee):
            op = operation(op)
            if op.name == "flow.dispatch" and splat_like(op) is None:
                by_callee.setdefault(str(op.attributes["entry_points"]), []).append(op)
            return ir.WalkResult.ADVANCE

        f.walk(collect)
        out.extend(by_callee.values())
    return out


def _fresh_name(base: str, taken: set[str]) -> str:
    k = 0
    while f"{base}_tied_use_{k}" in taken:
        k += 1
    name = f"{base}_tied_use_{k}"
    taken.add(name)
    return name


def _export_of(exe, export: str):
    """The ``flow.executable.export`` named ``export`` and the name of the function it refers to."""
    for o in exe.regions[0].blocks[0].operations:
        o = operation(o)
        if o.name == "flow.executable.export" and ir.StringAttr(o.attributes["sym_name"]).value == export:
            ref = o.attributes["function_ref"] if "function_ref" in o.attributes else None
            return o, (ir.FlatSymbolRefAttr(ref).value if ref is not None else export)
    return None, None


def _inner_functions(exe):
    for o in exe.regions[0].blocks[0].operations:
        if operation(o).name == "builtin.module":
            for f in operation(o).regions[0].blocks[0].operations:
                if operation(f).name == "func.func":
                    yield operation(f)


def exportable(exe, export: str) -> str | None:
    """Why the copy of ``exe`` could not be given distinct export and function names (None: it can)."""
    op, fn = _export_of(exe, export)
    if op is None:
        return f"no export @{export} in the executable"
    if not any(ir.StringAttr(f.attributes["sym_name"]).value == fn for f in _inner_functions(exe)):
        return f"the export's function @{fn} is not a func.func of the executable"
    return None


def _rename_export(exe, export: str, new_exe_name: str) -> str:
    """Rename the copy's export and its function: backends link all executables into one object, where
    function names must be unique. Returns the new export name."""
    op, fn = _export_of(exe, export)
    new_fn = f"{new_exe_name}_{fn}"
    for f in _inner_functions(exe):
        if ir.StringAttr(f.attributes["sym_name"]).value == fn:
            f.attributes["sym_name"] = ir.StringAttr.get(new_fn)
    op.attributes["function_ref"] = ir.FlatSymbolRefAttr.get(new_fn)
    op.attributes["sym_name"] = ir.StringAttr.get(new_fn)
    return new_fn


def copy_for_use(use: Use, exe, taken: set[str]):
    """Copy ``use.dispatch`` (and its executable) before ``use.user`` and make the use read the copy."""
    exe_name, export = _symbol(ir.ArrayAttr(use.dispatch.attributes["entry_points"])[0])
    new_exe = exe.clone(ip=ir.InsertionPoint(exe))
    new_name = _fresh_name(exe_name, taken)
    new_exe.attributes["sym_name"] = ir.StringAttr.get(new_name)
    new_export = _rename_export(new_exe, export, new_name)
    ip = ir.InsertionPoint(use.user)
    copy = use.dispatch.clone(ip=ip)
    copy.attributes["entry_points"] = ir.ArrayAttr.get([ir.SymbolRefAttr.get([new_name, new_export])])
    value = copy.results[use.result]
    for view in use.chain:
        v = view.clone(ip=ip)
        v.operands[0] = value
        value = v.results[0]
    use.user.operands[use.operand] = value
    return copy


def clone_splat_dispatches_per_tied_use(module) -> list:
    """The rewrite on a module; returns the ops whose in-place use was given a copy."""
    exes = executables(module)
    taken = {
        ir.StringAttr(o.attributes["sym_name"]).value for o in _body(module).operations if "sym_name" in o.attributes
    }
    plan = []
    for group in groups(module):
        exe_name, _ = _symbol(ir.ArrayAttr(group[0].attributes["entry_points"])[0])
        if exe_name not in exes:
            continue  # callee not a flow.executable of this module: leave the group alone
        if exportable(exes[exe_name], _symbol(ir.ArrayAttr(group[0].attributes["entry_points"])[0])[1]):
            continue
        uses = [u for d in group for u in uses_of(d)]
        plan.extend((u, exes[exe_name]) for u in uses_to_copy(uses))
    for use, exe in plan:  # all decisions first, then the edits
        copy_for_use(use, exe, taken)
    return [use.user for use, _ in plan]

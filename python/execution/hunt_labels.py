"""What each dispatch trace observes, read from the IR after the ``flow`` phase.

IREE's ``iree-flow-inject-dispatch-tracing`` puts a ``flow.tensor.trace`` of
a dispatch's tensor operands before it and of its results after it.
``label_traces`` renames each trace key ``hunt <site> <key>`` and records,
per site, which SSA values it traces: IREE deduplicates executables, so a key
alone does not say which call ran, and an SSA value is what makes the
single-build check exact. It also records what a reproducer needs: each
``flow.dispatch``'s operands (index operands as constants or dims of traced
values), which values hold the same data, and the ``flow.executable`` texts.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Site:
    """One flow.tensor.trace op."""

    dispatch: str  # the entry point's name
    kind: str  # "inputs" or "outputs"
    values: list[int]  # value ids, in trace order
    call: int  # the flow.dispatch it belongs to (index into Labels.calls)


@dataclass
class Call:
    """One flow.dispatch op, as much as a reproducer needs."""

    executable: str  # symbol of its flow.executable
    entry: str  # the entry_points attribute as text: @ex::@fn
    workload: list  # ScalarRef
    operands: list  # ("tensor", vid, type, [ScalarRef dims]) or ("scalar", ScalarRef, type)
    results: list  # (vid, type, tied operand index or -1, [ScalarRef dims])


# A ScalarRef is ("const", "attribute text"), ("dim", vid, axis) or None (unknown).


@dataclass
class Labels:
    function: str = ""
    sites: list[Site] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)  # vid -> SSA name in the flow IR
    roots: dict[int, int] = field(default_factory=dict)  # vid -> vid holding the same data
    arguments: dict[int, int] = field(default_factory=dict)  # vid -> function argument index
    results: list = field(default_factory=list)  # function result k -> vid (None: not a tensor export)
    top_level: set = field(default_factory=set)  # vids defined in the function's entry block
    executables: dict[str, str] = field(default_factory=dict)  # symbol -> flow.executable text

    def root(self, vid: int) -> int:
        while vid in self.roots:
            vid = self.roots[vid]
        return vid


def label_traces(module) -> Labels:
    """Rename every dispatch trace key ``hunt <site> <key>`` and record what it observes.

    Labels the one function holding traces (the exported function, or its
    ``$async`` twin); more than one such function is reported as an error.
    """
    from iree.compiler import ir

    from ..patterns.ir_utils import operation

    body = operation(module).regions[0].blocks[0]
    labels = Labels()
    func = _traced_function(body)
    if func is None:
        return labels
    labels.function = ir.StringAttr(func.attributes["sym_name"]).value
    for op in map(operation, body.operations):
        if op.name == "flow.executable":
            labels.executables[ir.StringAttr(op.attributes["sym_name"]).value] = op.get_asm(use_local_scope=True)
    reader = _Reader(labels)
    for block in func.regions[0].blocks:
        for op in block.operations:
            reader.visit(operation(op), block == func.regions[0].blocks[0])
    for i, (op, seen) in enumerate(reader.traces):
        key = ir.StringAttr(op.attributes["key"]).value
        head, _, kind = key.rpartition(" ")
        call = seen if kind == "inputs" else seen - 1
        n = sum(1 for x in op.operands if isinstance(x.type, ir.ShapedType))
        labels.sites.append(Site(head.rpartition("::")[2], kind, [reader.vid(v) for v in list(op.operands)[:n]], call))
        op.attributes["key"] = ir.StringAttr.get(f"hunt {i} {key}")
    labels.calls = [reader.call(d) for d in reader.dispatches]
    return labels


def _traced_function(body):
    """The one ``util.func`` holding traces, or None."""
    from ..errors import OptPyError
    from ..patterns.ir_utils import operation

    funcs = [
        op
        for op in map(operation, body.operations)
        if op.name == "util.func"
        and any(operation(o).name == "flow.tensor.trace" for b in op.regions[0].blocks for o in b.operations)
    ]
    if len(funcs) > 1:
        raise OptPyError("dispatch traces in more than one function; --per-dispatch handles one")
    return funcs[0] if funcs else None


class _Reader:
    """Numbers SSA values (vids) and records what each op of the traced function says about them."""

    def __init__(self, labels: Labels):
        self.labels = labels
        self.ids: dict = {}
        self.dim_source: dict = {}  # index SSA value -> ("dim", vid, axis)
        self.traces: list = []  # (flow.tensor.trace op, dispatches seen before it)
        self.dispatches: list = []

    def vid(self, value) -> int:
        if value not in self.ids:
            n = self.ids[value] = len(self.ids)
            try:
                self.labels.names[n] = value.get_name()
            except Exception:  # noqa: BLE001 - a name is only for the report
                self.labels.names[n] = f"value#{n}"
        return self.ids[value]

    def visit(self, o, in_entry: bool) -> None:
        from iree.compiler import ir

        from ..patterns.ir_utils import defining_op

        labels = self.labels
        for r in o.results:
            v = self.vid(r)
            if in_entry:
                labels.top_level.add(v)
        if o.name == "flow.tensor.trace":
            n = sum(1 for x in o.operands if isinstance(x.type, ir.ShapedType))
            self._note_dims(list(o.operands)[:n], list(o.operands)[n:])
            self.traces.append((o, len(self.dispatches)))
        elif o.name == "flow.dispatch":
            self.dispatches.append(o)
        elif o.name == "flow.tensor.reshape":
            labels.roots[self.vid(o.results[0])] = self.vid(o.operands[0])
        elif o.name == "hal.tensor.barrier":
            for i, r in enumerate(o.results):
                labels.roots[self.vid(r)] = self.vid(o.operands[i])
        elif o.name == "hal.tensor.import" and isinstance(o.operands[0], ir.BlockArgument):
            labels.arguments[self.vid(o.results[0])] = o.operands[0].arg_number
        elif o.name in ("util.return", "func.return") and in_entry:
            for r in o.operands:
                d = defining_op(r)
                labels.results.append(
                    self.vid(d.operands[0]) if d is not None and d.name == "hal.tensor.export" else None
                )

    def _note_dims(self, values, dims) -> None:
        from iree.compiler import ir

        dims = list(dims)
        for v in values:
            t = v.type
            if isinstance(t, ir.RankedTensorType):
                for axis in range(t.rank):
                    if t.is_dynamic_dim(axis):
                        self.dim_source.setdefault(dims.pop(0), ("dim", self.vid(v), axis))

    def scalar(self, value):
        """The ScalarRef of an index or scalar operand."""
        from ..patterns.ir_utils import defining_op

        d = defining_op(value)
        if d is not None and d.name == "arith.constant":
            return ("const", str(d.attributes["value"]))
        return self.dim_source.get(value)

    def call(self, d) -> Call:
        from iree.compiler import ir

        from ..patterns.ir_utils import operand_segments

        n_work, n_args, n_arg_dims, _ = operand_segments(d)
        ops = list(d.operands)
        work, args = ops[:n_work], ops[n_work : n_work + n_args]
        arg_dims = ops[n_work + n_args : n_work + n_args + n_arg_dims]
        res_dims = ops[n_work + n_args + n_arg_dims :]
        operands = []
        for a in args:
            k = _dynamic_dims(a.type)
            if isinstance(a.type, ir.RankedTensorType):
                operands.append(("tensor", self.vid(a), str(a.type), [self.scalar(x) for x in arg_dims[:k]]))
                arg_dims = arg_dims[k:]
            else:
                operands.append(("scalar", self.scalar(a), str(a.type)))
        tied = list(ir.ArrayAttr(d.attributes["tied_operands"])) if "tied_operands" in d.attributes else []
        results = []
        for i, r in enumerate(d.results):
            k = _dynamic_dims(r.type)
            tie = ir.IntegerAttr(tied[i]).value if i < len(tied) else -1
            results.append((self.vid(r), str(r.type), tie, [self.scalar(x) for x in res_dims[:k]]))
            res_dims = res_dims[k:]
        entry = ir.ArrayAttr(d.attributes["entry_points"])[0]
        executable = str(entry).split("::")[0].lstrip("@").strip('"')
        return Call(executable, str(entry), [self.scalar(x) for x in work], operands, results)


def _dynamic_dims(t) -> int:
    from iree.compiler import ir

    return sum(1 for j in range(t.rank) if t.is_dynamic_dim(j)) if isinstance(t, ir.RankedTensorType) else 0

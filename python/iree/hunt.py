"""Find the first dispatch whose results are wrong (``opt-py compare --per-dispatch``).

The values come from IREE's own dispatch tracing: its pass
``iree-flow-inject-dispatch-tracing`` (what ``--iree-flow-trace-dispatch-tensors``
adds at the end of the flow phase; that flag is global, which the in-process
compiler cannot set per compilation, so the hunter injects the pass after the
``flow`` phase, where it places the same traces) puts a ``flow.tensor.trace``
of a dispatch's tensor operands before it and of its results after it. At run time each trace reaches the HAL module's debug
sink; ``iree.runtime.HalModuleDebugSink`` hands over the buffer views
themselves, so the values are exact and arrive in execution order
(``iree-run-module`` prints the same traces as text rounded to six digits).
The program runs in a child process: a miscompiled dispatch may crash.

After the ``flow`` phase, where the traces are in place, ``label_traces``
renames each trace key ``hunt <site> <key>`` and records, per site, which SSA
values it traces: IREE deduplicates executables, so a key alone does not say
which call ran, and an SSA value is what makes the single-build check exact:

* **A vs B** (two builds): the first dispatch call, in execution order, whose
  traced outputs differ at the dtype tolerances of ``e2e.tolerances``.
* **consistency** (one build, no oracle): one SSA value must hold the same
  bits wherever it is observed -- as a function argument, as a dispatch's
  output, as a later dispatch's input, as a function result (through
  ``flow.tensor.reshape`` and ``hal.tensor.barrier``, which keep the data).
  A value that changed between its producer and a consumer is an aliasing or
  allocation bug: the producer's result did not survive. Only values defined
  in a function's top-level block are checked (a loop redefines its values).

Tracing adds uses of every dispatch result; IREE's allocation can differ from
the untraced program's, so a bug may move (or, rarely, hide). The hunter
reports on the traced program and says whether its results match the
untraced program's.

A dispatch call can be cut out as a program of its own (``reproducer``): the
``flow.executable`` as it was after the ``flow`` phase, and a ``func.func``
calling it with ``flow.dispatch`` on its traced inputs, with every index
operand a constant read from the traced shapes. IREE compiles such a program
from input level, so ``opt-py compare`` runs it like any other.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

import numpy as np

from ..errors import OptPyError
from . import e2e

LABEL_PHASE = "flow"
TRACE_INJECTION = f"{LABEL_PHASE}:builtin.module(util.func(iree-flow-inject-dispatch-tracing))"


# --------------------------------------------------------------------------
# Labels: what each trace observes, read from the IR after the flow phase
# --------------------------------------------------------------------------


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


def _op(x):
    return getattr(x, "operation", x)


def _segments(op) -> list[int]:
    from iree.compiler import ir

    return list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))


def label_traces(module) -> Labels:
    """Rename every dispatch trace key ``hunt <site> <key>`` and record what it observes.

    Labels the one function holding traces (the exported function, or its
    ``$async`` twin); more than one such function is reported as an error.
    """
    from iree.compiler import ir

    body = _op(module).regions[0].blocks[0]
    funcs = [
        op
        for op in body.operations
        if _op(op).name == "util.func"
        and any(_op(o).name == "flow.tensor.trace" for b in _op(op).regions[0].blocks for o in b.operations)
    ]
    labels = Labels()
    if not funcs:
        return labels
    if len(funcs) > 1:
        raise OptPyError("dispatch traces in more than one function; --per-dispatch handles one")
    func = _op(funcs[0])
    labels.function = ir.StringAttr(func.attributes["sym_name"]).value
    for op in body.operations:
        if _op(op).name == "flow.executable":
            labels.executables[ir.StringAttr(_op(op).attributes["sym_name"]).value] = _op(op).get_asm(
                use_local_scope=True
            )

    ids: dict = {}

    def vid(value) -> int:
        if value not in ids:
            ids[value] = len(ids)
            try:
                labels.names[ids[value]] = value.get_name()
            except Exception:  # noqa: BLE001 - a name is only for the report
                labels.names[ids[value]] = f"value#{ids[value]}"
        return ids[value]

    entry = func.regions[0].blocks[0]
    dim_source: dict = {}  # index SSA value -> ("dim", vid, axis)

    def note_dims(values, dims):
        dims = list(dims)
        for v in values:
            t = v.type
            if isinstance(t, ir.RankedTensorType):
                for axis in range(t.rank):
                    if t.is_dynamic_dim(axis):
                        dim_source.setdefault(dims.pop(0), ("dim", vid(v), axis))

    traces, dispatches = [], []
    for block in func.regions[0].blocks:
        for o in block.operations:
            o = _op(o)
            for r in o.results:
                v = vid(r)
                if block == entry:
                    labels.top_level.add(v)
            if o.name == "flow.tensor.trace":
                n = sum(1 for x in o.operands if isinstance(x.type, ir.ShapedType))
                note_dims(list(o.operands)[:n], list(o.operands)[n:])
                traces.append((o, len(dispatches)))
            elif o.name == "flow.dispatch":
                dispatches.append(o)
            elif o.name == "flow.tensor.reshape":
                labels.roots[vid(o.results[0])] = vid(o.operands[0])
            elif o.name == "hal.tensor.barrier":
                for i, r in enumerate(o.results):
                    labels.roots[vid(r)] = vid(o.operands[i])
            elif o.name == "hal.tensor.import":
                src = o.operands[0]
                if isinstance(src, ir.BlockArgument):
                    labels.arguments[vid(o.results[0])] = src.arg_number
            elif o.name in ("util.return", "func.return") and block == entry:
                for r in o.operands:
                    d = r.owner
                    d = _op(d) if not isinstance(d, ir.Block) else None
                    labels.results.append(
                        vid(d.operands[0]) if d is not None and d.name == "hal.tensor.export" else None
                    )
    for i, (o, seen) in enumerate(traces):
        key = ir.StringAttr(o.attributes["key"]).value
        head, _, kind = key.rpartition(" ")
        name = head.rpartition("::")[2]
        call = seen if kind == "inputs" else seen - 1
        n = sum(1 for x in o.operands if isinstance(x.type, ir.ShapedType))
        labels.sites.append(Site(name, kind, [vid(v) for v in list(o.operands)[:n]], call))
        o.attributes["key"] = ir.StringAttr.get(f"hunt {i} {key}")
    for d in dispatches:
        labels.calls.append(_call(d, vid, dim_source))
    return labels


def _scalar(value, dim_source):
    from iree.compiler import ir

    owner = value.owner
    if not isinstance(owner, ir.Block) and _op(owner).name == "arith.constant":
        return ("const", str(_op(owner).attributes["value"]))
    return dim_source.get(value)


def _call(d, vid, dim_source) -> Call:
    from iree.compiler import ir

    n_work, n_args, n_arg_dims, n_res_dims = _segments(d)
    ops = list(d.operands)
    work, args = ops[:n_work], ops[n_work : n_work + n_args]
    arg_dims = ops[n_work + n_args : n_work + n_args + n_arg_dims]
    res_dims = ops[n_work + n_args + n_arg_dims :]
    operands = []
    for a in args:
        t = a.type
        if isinstance(t, ir.RankedTensorType):
            k = sum(1 for i in range(t.rank) if t.is_dynamic_dim(i))
            operands.append(("tensor", vid(a), str(t), [_scalar(x, dim_source) for x in arg_dims[:k]]))
            arg_dims = arg_dims[k:]
        else:
            operands.append(("scalar", _scalar(a, dim_source), str(t)))
    tied = list(ir.ArrayAttr(d.attributes["tied_operands"])) if "tied_operands" in d.attributes else []
    results = []
    for i, r in enumerate(d.results):
        t = r.type
        k = sum(1 for j in range(t.rank) if t.is_dynamic_dim(j)) if isinstance(t, ir.RankedTensorType) else 0
        tie = ir.IntegerAttr(tied[i]).value if i < len(tied) else -1
        results.append((vid(r), str(t), tie, [_scalar(x, dim_source) for x in res_dims[:k]]))
        res_dims = res_dims[k:]
    entry = ir.ArrayAttr(d.attributes["entry_points"])[0]
    return Call(
        str(entry).split("::")[0].lstrip("@").strip('"'),
        str(entry),
        [_scalar(x, dim_source) for x in work],
        operands,
        results,
    )


# --------------------------------------------------------------------------
# Compiling and running with traces
# --------------------------------------------------------------------------


@dataclass
class Build:
    """How to compile one side: a target and injections."""

    target: e2e.Target
    inject: tuple = ()
    inject_codegen: tuple = ()
    flags: tuple = ()


def compile_traced(path: str, build: Build, trace: bool = True) -> tuple[bytes, Labels]:
    """The .vmfb of ``path`` with dispatch traces labelled, and the labels."""
    got: list[Labels] = []
    inject = (*build.inject, TRACE_INJECTION) if trace else build.inject
    vmfb = e2e.compile_program(
        path,
        build.target,
        inject=inject,
        inject_codegen=build.inject_codegen,
        extra_flags=build.flags,
        after_phase={LABEL_PHASE: [lambda m: got.append(label_traces(m))]} if trace else None,
    )
    return vmfb, (got[0] if got else Labels())


_RUNNER = r"""
import os, sys
import numpy as np
import iree.runtime as rt

vmfb, device, function, out = sys.argv[1:5]
dev = rt.get_device(device)
inst = rt.VmInstance()
keys = open(os.path.join(out, "keys.txt"), "w")
count = [0]

def sink(key, views):
    arrays = [np.asarray(rt.DeviceArray(dev, v, implicit_host_transfer=True).to_host()) for v in views]
    np.savez(os.path.join(out, "e%d.npz" % count[0]), *arrays)
    keys.write(key + "\n")
    keys.flush()
    count[0] += 1

hal = rt.create_hal_module(inst, dev, debug_sink=rt.HalModuleDebugSink(sink))
with open(vmfb, "rb") as f:
    module = rt.VmModule.copy_buffer(inst, f.read())
ctx = rt.VmContext(inst, modules=[hal, module])
fn = module.lookup_function(function)
if fn is None:
    sys.stderr.write("no function '%s' in the module\n" % function)
    sys.stderr.flush()
    os._exit(3)
args = []
for a in sys.argv[5:]:
    kind, path = a.split(":", 1)
    x = np.load(path)
    args.append(x.item() if kind == "s" else x)
res = rt.FunctionInvoker(ctx, dev, fn)(*args)
res = list(res) if isinstance(res, (list, tuple)) else [res]
np.savez(os.path.join(out, "results.npz"), *[np.asarray(r.to_host() if hasattr(r, "to_host") else r) for r in res])
keys.close()
sys.stdout.flush()
os._exit(0)  # skip interpreter teardown: the runtime's objects outlive it
"""


@dataclass
class Event:
    site: int
    arrays: list


@dataclass
class Trace:
    events: list[Event]
    results: list


def run_traced(vmfb: bytes, target: e2e.Target, function: str, inputs, timeout: float = 600) -> Trace:
    """Run in a child process; every trace's arrays in execution order, and the results."""
    with tempfile.TemporaryDirectory() as tmp:
        module = os.path.join(tmp, "m.vmfb")
        with open(module, "wb") as f:
            f.write(vmfb)
        args = [sys.executable, "-c", _RUNNER, module, target.device, function, tmp]
        for i, a in enumerate(inputs):
            p = os.path.join(tmp, f"in{i}.npy")
            np.save(p, a)
            args.append(("s:" if isinstance(a, np.generic) else "t:") + p)
        try:
            proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise OptPyError(f"the traced program did not finish in {timeout} s") from None
        if proc.returncode != 0:
            tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
            raise OptPyError(f"the traced program failed (exit {proc.returncode}):\n{tail}")
        events = []
        with open(os.path.join(tmp, "keys.txt")) as f:
            for i, key in enumerate(f.read().splitlines()):
                words = key.split(" ", 2)
                if words[0] != "hunt":
                    continue  # a trace the program makes itself
                with np.load(os.path.join(tmp, f"e{i}.npz")) as z:
                    events.append(Event(int(words[1]), [z[f"arr_{j}"] for j in range(len(z.files))]))
        with np.load(os.path.join(tmp, "results.npz")) as z:
            results = [z[f"arr_{j}"] for j in range(len(z.files))]
    return Trace(events, results)


# --------------------------------------------------------------------------
# Dispatch calls as they ran
# --------------------------------------------------------------------------


@dataclass
class Ran:
    """One dispatch call as it ran: its traced inputs and outputs."""

    ordinal: int  # position in execution order
    call: int  # index into Labels.calls
    dispatch: str
    inputs: list  # (vid, array)
    outputs: list  # (vid, array)


def calls_as_ran(labels: Labels, trace: Trace) -> list[Ran]:
    ran: list[Ran] = []
    for ev in trace.events:
        site = labels.sites[ev.site]
        pairs = list(zip(site.values, ev.arrays))
        if site.kind == "inputs":
            ran.append(Ran(len(ran), site.call, site.dispatch, pairs, []))
        elif ran and ran[-1].call == site.call and not ran[-1].outputs:
            ran[-1].outputs = pairs
        else:  # outputs with no inputs trace (IREE traces both; be safe)
            ran.append(Ran(len(ran), site.call, site.dispatch, [], pairs))
    return ran


# --------------------------------------------------------------------------
# Finding the first difference
# --------------------------------------------------------------------------


@dataclass
class Finding:
    """The first dispatch call whose results differ."""

    how: str  # "a-vs-b" or "consistency"
    ran: Ran | None  # the blamed dispatch call (None: outside any dispatch)
    outputs: list  # e2e.Difference per output of the blamed call (a-vs-b) or the changed value
    message: str  # one paragraph saying what differs
    reference: list = field(default_factory=list)  # arrays the blamed call should have produced
    observed: list = field(default_factory=list)  # arrays it (or its consumer) showed instead


def first_difference(la: Labels, ta: Trace, lb: Labels, tb: Trace, rtol=None, atol=None) -> Finding | None:
    """The first call, in execution order, whose traced inputs or outputs differ between A and B."""
    ra, rb = calls_as_ran(la, ta), calls_as_ran(lb, tb)
    for x, y in zip(ra, rb):
        if x.dispatch != y.dispatch:
            raise OptPyError(
                f"the two builds run different dispatches (call {x.ordinal}: A runs {x.dispatch}, "
                f"B runs {y.dispatch}); a per-dispatch comparison needs the same dispatches"
            )
        ins = e2e.compare([a for _, a in y.inputs], [a for _, a in x.inputs], rtol, atol)
        if not all(d.same for d in ins):
            bad = ", ".join(str(d.index) for d in ins if not d.same)
            return Finding(
                "a-vs-b",
                y,
                ins,
                f"the inputs ({bad}) of dispatch call {y.ordinal} ({y.dispatch}) differ "
                "though every earlier dispatch's outputs agree: the difference arises outside the "
                "dispatches, between the previous dispatch and this one",
                [a for _, a in x.inputs],
                [a for _, a in y.inputs],
            )
        outs = e2e.compare([a for _, a in y.outputs], [a for _, a in x.outputs], rtol, atol)
        if not all(d.same for d in outs):
            bad = ", ".join(str(d.index) for d in outs if not d.same)
            return Finding(
                "a-vs-b",
                y,
                outs,
                f"dispatch call {y.ordinal} ({y.dispatch}): same inputs, different outputs ({bad})",
                [a for _, a in x.outputs],
                [a for _, a in y.outputs],
            )
    if len(ra) != len(rb):
        raise OptPyError(f"A ran {len(ra)} dispatch calls and B {len(rb)}: a per-dispatch comparison needs the same")
    res = e2e.compare(tb.results, ta.results, rtol, atol)
    if not all(d.same for d in res):
        return Finding(
            "a-vs-b",
            None,
            res,
            "every dispatch agrees but the function's results differ: the difference arises after the last dispatch",
            ta.results,
            tb.results,
        )
    return None


def _same_bits(x, y) -> bool:
    x, y = np.asarray(x).ravel(), np.asarray(y).ravel()
    if x.shape != y.shape or x.dtype != y.dtype:
        return False
    return bool(np.array_equal(x, y, equal_nan=np.issubdtype(x.dtype, np.inexact)))


def check_consistency(labels: Labels, trace: Trace, inputs) -> Finding | None:
    """The first observation of an SSA value whose bits differ from its producer's.

    No second build needed: a dispatch's traced output must reach every later
    consumer (a dispatch input, a function result) unchanged.
    """
    ran = calls_as_ran(labels, trace)
    record: dict[int, tuple] = {}  # root vid -> (array, description, Ran or None, output index)
    for v, k in labels.arguments.items():
        if k < len(inputs) and not isinstance(inputs[k], np.generic):
            record[labels.root(v)] = (inputs[k], f"function argument {k}", None, k)

    def check(v, arr, where) -> Finding | None:
        if v not in labels.top_level and v not in labels.arguments:
            return None
        r = labels.root(v)
        if r not in record:
            record[r] = (arr, where, None, 0)
            return None
        ref, made, producer, index = record[r]
        if _same_bits(ref, arr):
            return None
        ref = np.asarray(ref).reshape(np.shape(arr)) if np.size(ref) == np.size(arr) else ref
        diff = e2e.compare([arr], [ref], 0.0, 0.0)[0]
        diff.index = index
        name = labels.names.get(r, "?")
        return Finding(
            "consistency",
            producer,
            [diff],
            f"value {name}, {made}, changed before it reached {where}: {diff.mismatched} of "
            f"{diff.total} elements differ (max abs {diff.max_abs:.3g}). What was produced did not "
            "survive to its consumer: an aliasing or allocation bug, or a later dispatch writing "
            "over it",
            [ref],
            [arr],
        )

    for c in ran:
        for j, (v, arr) in enumerate(c.inputs):
            f = check(v, arr, f"input {j} of dispatch call {c.ordinal} ({c.dispatch})")
            if f:
                return f
        for j, (v, arr) in enumerate(c.outputs):
            record[labels.root(v)] = (arr, f"output {j} of dispatch call {c.ordinal} ({c.dispatch})", c, j)
    for k, v in enumerate(labels.results):
        if v is not None and k < len(trace.results):
            f = check(v, trace.results[k], f"function result {k}")
            if f:
                return f
    return None


# --------------------------------------------------------------------------
# A dispatch call as a program of its own
# --------------------------------------------------------------------------


def reproducer(labels: Labels, ran: Ran, shapes: dict[int, tuple]) -> tuple[str, list[int]]:
    """(program text, vids of its arguments in order) calling ``ran``'s dispatch alone.

    ``shapes``: vid -> shape of every traced value (the index operands are read
    from them). Raises OptPyError when an operand's value cannot be known.
    """
    call = labels.calls[ran.call]
    consts: dict[str, str] = {}

    def scalar(ref, what) -> str:
        if ref is None:
            raise OptPyError(
                f"cannot cut dispatch {ran.dispatch} out: the value of its {what} is not known from the traces"
            )
        if ref[0] == "const":
            text = ref[1]
        else:
            if ref[1] not in shapes:
                raise OptPyError(f"cannot cut dispatch {ran.dispatch} out: its {what} is a dim of an untraced value")
            text = f"{shapes[ref[1]][ref[2]]} : index"
        return consts.setdefault(text, f"%c{len(consts)}")

    args, arg_types, arg_vids, operands, operand_types = [], [], [], [], []
    for i, o in enumerate(call.operands):
        if o[0] == "tensor":
            name = f"%arg{len(args)}"
            args.append(name)
            arg_types.append(o[2])
            arg_vids.append(o[1])
            dims = [scalar(d, f"operand {i}'s shape") for d in o[3]]
            operands.append(name)
            operand_types.append(o[2] + (f"{{{', '.join(dims)}}}" if dims else ""))
        else:
            operands.append(scalar(o[1], f"operand {i}"))
            operand_types.append(o[2])
    work = [scalar(w, "workload") for w in call.workload]
    res_text, res_types = [], []
    for _vid, t, tie, dims in call.results:
        dims = [scalar(d, "result shape") for d in dims]
        shape = f"{{{', '.join(dims)}}}" if dims else ""
        res_text.append((operands[tie] if tie >= 0 else t) + shape)
        res_types.append(t)
    defs = "".join(f"    {n} = arith.constant {t}\n" for t, n in consts.items())
    results = "%r" if len(res_types) == 1 else f"%r:{len(res_types)}"
    ret = ", ".join("%r" if len(res_types) == 1 else f"%r#{i}" for i in range(len(res_types)))
    arrow = res_text[0] if len(res_text) == 1 else f"({', '.join(res_text)})"
    text = (
        f"// dispatch call {ran.ordinal} ({ran.dispatch}) alone, cut out by opt-py compare --per-dispatch\n"
        "module {\n"
        + "\n".join("  " + line for line in labels.executables[call.executable].splitlines())
        + "\n"
        + f"  func.func @main({', '.join(f'{a}: {t}' for a, t in zip(args, arg_types))}) -> "
        + f"({', '.join(res_types)}) {{\n{defs}"
        + f"    {results} = flow.dispatch {call.entry}[{', '.join(work)}]({', '.join(operands)}) : "
        + f"({', '.join(operand_types)}) -> {arrow}\n"
        + f"    return {ret} : {', '.join(res_types)}\n  }}\n}}\n"
    )
    return text, arg_vids


def traced_shapes(labels: Labels, trace: Trace) -> dict[int, tuple]:
    shapes = {}
    for ev in trace.events:
        for v, a in zip(labels.sites[ev.site].values, ev.arrays):
            shapes.setdefault(v, np.shape(a))
    return shapes


def run_alone(labels: Labels, trace: Trace, ran: Ran, build: Build, path_dir: str) -> tuple[str, list, list]:
    """Write ``ran`` as a program into ``path_dir``, compile it (``build``) and run it on its traced inputs.

    Returns (program path, its inputs, its outputs).
    """
    text, vids = reproducer(labels, ran, traced_shapes(labels, trace))
    observed = dict(ran.inputs)
    inputs = [observed[v] for v in vids]
    path = os.path.join(path_dir, "dispatch.mlir")
    with open(path, "w") as f:
        f.write(text)
    vmfb = e2e.compile_program(
        path, build.target, inject=build.inject, inject_codegen=build.inject_codegen, extra_flags=build.flags
    )
    return path, inputs, e2e.run_cli(vmfb, build.target, "main", inputs, len(labels.calls[ran.call].results))


# --------------------------------------------------------------------------
# The command: opt-py compare --per-dispatch
# --------------------------------------------------------------------------


@dataclass
class Hunt:
    lines: list[str]  # the report
    finding: Finding | None
    rerun: list[str] | None = None  # arguments of `opt-py compare` that run the saved reproducer


def _describe(ran: Ran, total: int) -> str:
    return f"call {ran.ordinal} of {total}, {ran.dispatch}"


def hunt(
    path: str, function: str, inputs, a: Build, b: Build, *, rtol=None, atol=None, save: str | None = None
) -> Hunt:
    """Compile ``path`` as A and B with traces, run both on ``inputs`` and find the first wrong dispatch.

    When A and B are the same build, only the consistency check can judge.
    """
    single = a == b
    vmfb_a, la = compile_traced(path, a)
    if not la.sites:
        raise OptPyError("the program has no dispatches to trace")
    ta = run_traced(vmfb_a, a.target, function, inputs)
    ra = calls_as_ran(la, ta)
    lines = [f"A: {len(ra)} dispatch calls traced"]
    untraced = e2e.run_cli(
        e2e.compile_program(path, a.target, inject=a.inject, inject_codegen=a.inject_codegen, extra_flags=a.flags),
        a.target,
        function,
        inputs,
        len(ta.results),
    )
    if not all(d.same for d in e2e.compare(untraced, ta.results, 0.0, 0.0)):
        lines.append(
            "note: tracing changes A's results (the traced program allocates differently); "
            "the report is about the traced program"
        )
    labels, trace = la, ta
    if single:
        lines.append("A and B are the same build: checking that every value reaches its consumers unchanged")
        finding = check_consistency(la, ta, inputs)
    else:
        vmfb_b, lb = compile_traced(path, b)
        tb = run_traced(vmfb_b, b.target, function, inputs)
        lines.append(f"B: {len(calls_as_ran(lb, tb))} dispatch calls traced")
        finding = first_difference(la, ta, lb, tb, rtol, atol)
        if finding is None:
            for name, lab, tr in (("B", lb, tb), ("A", la, ta)):
                finding = check_consistency(lab, tr, inputs)
                if finding:
                    labels, trace = lab, tr
                    lines.append(f"A and B agree, but {name} is not consistent with itself:")
                    break
        elif finding.ran is not None:
            labels, trace = lb, tb
    if finding is None:
        lines.append("every dispatch agrees" if not single else "every value reaches its consumers unchanged")
        return Hunt(lines, None)
    total = len(calls_as_ran(labels, trace))
    head = "first differing dispatch" if finding.how == "a-vs-b" else "first wrong dispatch"
    lines.append(f"{head}: {_describe(finding.ran, total)}" if finding.ran else f"{head}: none (see below)")
    lines.append(finding.message)
    lines.append(
        e2e.format_report(
            finding.outputs,
            "B" if finding.how == "a-vs-b" else "consumer",
            "A" if finding.how == "a-vs-b" else "producer",
        )
    )
    if finding.ran is None:
        return Hunt(lines, finding)
    # The blamed call alone: the reproducer, run on its traced inputs (A's traced inputs in A-vs-B).
    ref_labels, ref_trace = (la, ta) if finding.how == "a-vs-b" else (labels, trace)
    ref_ran = calls_as_ran(ref_labels, ref_trace)[finding.ran.ordinal]
    rerun = None
    with tempfile.TemporaryDirectory() as tmp:
        try:
            program, alone_in, alone_a = run_alone(ref_labels, ref_trace, ref_ran, a, tmp)
        except OptPyError as e:
            lines.append(f"no reproducer: {e}")
            return Hunt(lines, finding)
        expected = [x for _, x in ref_ran.outputs]
        if finding.how == "a-vs-b":
            alone_b = run_alone(ref_labels, ref_trace, ref_ran, b, tmp)[2]
            same = all(d.same for d in e2e.compare(alone_b, alone_a, rtol, atol))
            lines.append(
                "alone, on A's traced inputs, the dispatch "
                + (
                    "gives the same outputs in A and B: the difference needs the whole program"
                    if same
                    else "still differs between A and B: the reproducer reproduces"
                )
            )
        else:
            same = all(_same_bits(x, y) for x, y in zip(alone_a, expected))
            lines.append(
                "alone, on its traced inputs, the dispatch computes "
                + (
                    "exactly its traced outputs: its code is right; its result was lost afterwards"
                    if same
                    else "other outputs than it traced in the program"
                )
            )
        if save:
            with open(program) as f:
                files = _save(save, f.read(), alone_in, expected, finding.observed)
            lines.append(f"saved in {save}: {', '.join(files)}")
            rerun = [
                os.path.join(save, "dispatch.mlir"),
                "--function",
                "main",
                *[f"--input=@{os.path.join(save, f'input{i}.npy')}" for i in range(len(alone_in))],
            ]
    return Hunt(lines, finding, rerun)


def _save(directory: str, program: str, inputs, expected, observed) -> list[str]:
    """Write the reproducer and its arrays; each file whole or not at all."""
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as e:
        raise OptPyError(f"cannot create '{directory}': {e.strerror}") from None
    files = {"dispatch.mlir": program.encode()}
    for name, arrays in (("input", inputs), ("expected", expected), ("observed", observed)):
        for i, x in enumerate(arrays):
            import io

            buf = io.BytesIO()
            np.save(buf, x)
            files[f"{name}{i}.npy"] = buf.getvalue()
    for name, data in files.items():
        tmp = os.path.join(directory, f".{name}.tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, os.path.join(directory, name))
        except OSError as e:
            raise OptPyError(f"cannot write '{os.path.join(directory, name)}': {e.strerror}") from None
    return list(files)

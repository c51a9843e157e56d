"""The first dispatch call whose results are wrong, from two traced runs or from one.

* **A vs B** (two builds): the first dispatch call, in execution order, whose
  traced outputs differ at the dtype tolerances of ``e2e.tolerances``.
* **consistency** (one build, no oracle): one SSA value must hold the same
  bits wherever it is observed -- as a function argument, as a dispatch's
  output, as a later dispatch's input, as a function result (through
  ``flow.tensor.reshape`` and ``hal.tensor.barrier``, which keep the data).
  A value that changed between its producer and a consumer is an aliasing or
  allocation bug: the producer's result did not survive. Only values defined
  in a function's top-level block are checked (a loop redefines its values).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import OptPyError
from . import e2e
from .hunt_labels import Labels
from .hunt_trace import Trace


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
        found = _differs(y, x.inputs, y.inputs, rtol, atol, _inputs_differ) or _differs(
            y, x.outputs, y.outputs, rtol, atol, _outputs_differ
        )
        if found:
            return found
    if len(ra) != len(rb):
        raise OptPyError(f"A ran {len(ra)} dispatch calls and B {len(rb)}: a per-dispatch comparison needs the same")
    res = e2e.compare(tb.results, ta.results, rtol, atol)
    if all(d.same for d in res):
        return None
    return Finding(
        "a-vs-b",
        None,
        res,
        "every dispatch agrees but the function's results differ: the difference arises after the last dispatch",
        ta.results,
        tb.results,
    )


def _inputs_differ(y: Ran, bad: str) -> str:
    return (
        f"the inputs ({bad}) of dispatch call {y.ordinal} ({y.dispatch}) differ "
        "though every earlier dispatch's outputs agree: the difference arises outside the "
        "dispatches, between the previous dispatch and this one"
    )


def _outputs_differ(y: Ran, bad: str) -> str:
    return f"dispatch call {y.ordinal} ({y.dispatch}): same inputs, different outputs ({bad})"


def _differs(y: Ran, a_pairs, b_pairs, rtol, atol, message) -> Finding | None:
    """A Finding blaming ``y`` when B's arrays (``b_pairs``) differ from A's."""
    a, b = [arr for _, arr in a_pairs], [arr for _, arr in b_pairs]
    diffs = e2e.compare(b, a, rtol, atol)
    if all(d.same for d in diffs):
        return None
    bad = ", ".join(str(d.index) for d in diffs if not d.same)
    return Finding("a-vs-b", y, diffs, message(y, bad), a, b)


def same_bits(x, y) -> bool:
    x, y = np.asarray(x).ravel(), np.asarray(y).ravel()
    if x.shape != y.shape or x.dtype != y.dtype:
        return False
    return bool(np.array_equal(x, y, equal_nan=np.issubdtype(x.dtype, np.inexact)))


def check_consistency(labels: Labels, trace: Trace, inputs) -> Finding | None:
    """The first observation of an SSA value whose bits differ from its producer's.

    No second build needed: a dispatch's traced output must reach every later
    consumer (a dispatch input, a function result) unchanged.
    """
    record: dict[int, tuple] = {}  # root vid -> (array, description, Ran or None, output index)
    for v, k in labels.arguments.items():
        if k < len(inputs) and not isinstance(inputs[k], np.generic):
            record[labels.root(v)] = (inputs[k], f"function argument {k}", None, k)
    for c in calls_as_ran(labels, trace):
        for j, (v, arr) in enumerate(c.inputs):
            f = _check(labels, record, v, arr, f"input {j} of dispatch call {c.ordinal} ({c.dispatch})")
            if f:
                return f
        for j, (v, arr) in enumerate(c.outputs):
            record[labels.root(v)] = (arr, f"output {j} of dispatch call {c.ordinal} ({c.dispatch})", c, j)
    for k, v in enumerate(labels.results):
        if v is not None and k < len(trace.results):
            f = _check(labels, record, v, trace.results[k], f"function result {k}")
            if f:
                return f
    return None


def _check(labels: Labels, record: dict, v: int, arr, where: str) -> Finding | None:
    """A Finding when ``arr``, value ``v`` observed at ``where``, is not what its producer recorded."""
    if v not in labels.top_level and v not in labels.arguments:
        return None
    r = labels.root(v)
    if r not in record:
        record[r] = (arr, where, None, 0)
        return None
    ref, made, producer, index = record[r]
    if same_bits(ref, arr):
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

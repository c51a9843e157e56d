"""Compiling a program with its dispatches traced, and running it to collect every trace.

The values come from IREE's own dispatch tracing: its pass
``iree-flow-inject-dispatch-tracing`` (what ``--iree-flow-trace-dispatch-tensors``
adds at the end of the flow phase; that flag is global, which the in-process
compiler cannot set per compilation, so the hunter injects the pass after the
``flow`` phase, where it places the same traces), labelled there by
``hunt_labels.label_traces``. At run time each trace reaches the HAL module's
debug sink; ``iree.runtime.HalModuleDebugSink`` hands over the buffer views
themselves, so the values are exact and arrive in execution order. The
program runs in worker.py's child process: a miscompiled dispatch may crash.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import OptPyError
from . import e2e
from .hunt_labels import Labels, label_traces

LABEL_PHASE = "flow"
TRACE_INJECTION = f"{LABEL_PHASE}:builtin.module(util.func(iree-flow-inject-dispatch-tracing))"


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


@dataclass
class Event:
    site: int
    arrays: list


@dataclass
class Trace:
    events: list[Event]
    results: list


def run_traced(vmfb: bytes, target: e2e.Target, function: str, inputs, timeout: float = 600) -> Trace:
    """Every trace's arrays in execution order, and the results; run in worker.py's child process
    (read-only, twice). Raises e2e.ModuleMisbehaved when the program faults or its results change
    between the calls, OptPyError when it fails."""
    from . import worker

    outcome = worker.run(worker.Request(vmfb, target.device, function, list(inputs), trace=True), timeout)
    problem = outcome.problem()
    if outcome.error and not outcome.fault:
        raise OptPyError(f"the traced program failed: {problem}")
    if problem:
        raise e2e.ModuleMisbehaved(f"the traced program {problem}")
    first = outcome.calls[0]
    events = []
    for key, arrays in first["events"]:
        words = key.split(" ", 2)
        if words[0] == "hunt":  # else a trace the program makes itself
            events.append(Event(int(words[1]), arrays))
    return Trace(events, first["results"])

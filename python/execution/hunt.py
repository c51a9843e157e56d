"""Find the first dispatch whose results are wrong (``opt-py compare --per-dispatch``).

The program is compiled with IREE's dispatch tracing and run, every trace
labelled with the SSA values it observes (hunt_trace.py, hunt_labels.py).
With two builds, the first dispatch call whose outputs differ is blamed;
with one, the first value that does not reach a consumer with the bits its
producer traced (hunt_search.py). The blamed call is then cut out as a
program of its own and run alone on its traced inputs (hunt_reproducer.py),
which tells whether its code is wrong or its result was lost afterwards.

Tracing adds uses of every dispatch result, so IREE's allocation can differ
from the untraced program's and a bug may move (or, rarely, hide): the report
is about the traced program and says whether its results match the
untraced program's. docs/guides/hunting-miscompiles.md shows a hunt end to end.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass

from ..errors import OptPyError
from . import e2e
from .hunt_labels import Labels
from .hunt_reproducer import run_alone, write_reproducer
from .hunt_search import Finding, Ran, calls_as_ran, check_consistency, first_difference, same_bits
from .hunt_trace import Build, Trace, compile_traced, run_traced


@dataclass
class Hunt:
    lines: list[str]  # the report
    finding: Finding | None
    rerun: list[str] | None = None  # arguments of `opt-py compare` that run the saved reproducer


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
    lines = [f"A: {len(calls_as_ran(la, ta))} dispatch calls traced"]
    if not _untraced_agrees(path, function, inputs, a, ta):
        lines.append(
            "note: tracing changes A's results (the traced program allocates differently); "
            "the report is about the traced program"
        )
    if single:
        lines.append("A and B are the same build: checking that every value reaches its consumers unchanged")
        finding, labels, trace = check_consistency(la, ta, inputs), la, ta
    else:
        finding, labels, trace = _a_vs_b(path, function, inputs, b, la, ta, lines, rtol, atol)
    if finding is None:
        lines.append("every dispatch agrees" if not single else "every value reaches its consumers unchanged")
        return Hunt(lines, None)
    lines += _report(finding, labels, trace)
    if finding.ran is None:
        return Hunt(lines, finding)
    # The blamed call alone: the reproducer, run on its traced inputs (A's traced inputs in A-vs-B).
    ref_labels, ref_trace = (la, ta) if finding.how == "a-vs-b" else (labels, trace)
    ref_ran = calls_as_ran(ref_labels, ref_trace)[finding.ran.ordinal]
    return _alone(finding, ref_labels, ref_trace, ref_ran, a, b, lines, rtol, atol, save)


def _untraced_agrees(path: str, function: str, inputs, build: Build, traced: Trace) -> bool:
    """Whether the program without traces gives the traced program's results, bit for bit."""
    vmfb, _ = compile_traced(path, build, trace=False)
    untraced = e2e.run_cli(vmfb, build.target, function, inputs, len(traced.results))
    return all(d.same for d in e2e.compare(untraced, traced.results, 0.0, 0.0))


def _a_vs_b(path, function, inputs, b: Build, la, ta, lines: list[str], rtol, atol):
    """(finding, labels, trace it is about): the first difference between A and B, else either
    build's own inconsistency."""
    vmfb_b, lb = compile_traced(path, b)
    tb = run_traced(vmfb_b, b.target, function, inputs)
    lines.append(f"B: {len(calls_as_ran(lb, tb))} dispatch calls traced")
    finding = first_difference(la, ta, lb, tb, rtol, atol)
    if finding is not None:
        return (finding, lb, tb) if finding.ran is not None else (finding, la, ta)
    for name, labels, trace in (("B", lb, tb), ("A", la, ta)):
        finding = check_consistency(labels, trace, inputs)
        if finding:
            lines.append(f"A and B agree, but {name} is not consistent with itself:")
            return finding, labels, trace
    return None, la, ta


def _report(finding: Finding, labels: Labels, trace: Trace) -> list[str]:
    total = len(calls_as_ran(labels, trace))
    head = "first differing dispatch" if finding.how == "a-vs-b" else "first wrong dispatch"
    blamed = f"call {finding.ran.ordinal} of {total}, {finding.ran.dispatch}" if finding.ran else "none (see below)"
    a_vs_b = finding.how == "a-vs-b"
    return [
        f"{head}: {blamed}",
        finding.message,
        e2e.format_report(finding.outputs, "B" if a_vs_b else "consumer", "A" if a_vs_b else "producer"),
    ]


def _alone(finding: Finding, labels, trace, ran: Ran, a: Build, b: Build, lines, rtol, atol, save_dir) -> Hunt:
    """Run the blamed call alone in A (and B), say what that shows, and save it where asked."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            program, alone_in, alone_a = run_alone(labels, trace, ran, a, tmp)
        except OptPyError as e:
            lines.append(f"no reproducer: {e}")
            return Hunt(lines, finding)
        expected = [x for _, x in ran.outputs]
        if finding.how == "a-vs-b":
            alone_b = run_alone(labels, trace, ran, b, tmp)[2]
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
            same = all(same_bits(x, y) for x, y in zip(alone_a, expected))
            lines.append(
                "alone, on its traced inputs, the dispatch computes "
                + (
                    "exactly its traced outputs: its code is right; its result was lost afterwards"
                    if same
                    else "other outputs than it traced in the program"
                )
            )
        if not save_dir:
            return Hunt(lines, finding)
        with open(program) as f:
            files = write_reproducer(save_dir, f.read(), alone_in, expected, finding.observed)
    lines.append(f"saved in {save_dir}: {', '.join(files)}")
    rerun = [
        os.path.join(save_dir, "dispatch.mlir"),
        "--function",
        "main",
        *[f"--input=@{os.path.join(save_dir, f'input{i}.npy')}" for i in range(len(alone_in))],
    ]
    return Hunt(lines, finding, rerun)

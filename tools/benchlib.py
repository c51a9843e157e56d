"""Shared by the benchmarks: pipeline times on one module, interleaved."""

from __future__ import annotations

import statistics
import time


def pipeline_medians(text: str, pipelines: dict[str, str], reps: int, check=None, context=None) -> dict[str, float]:
    """Median seconds of each pipeline on a fresh parse of ``text`` (parsing
    not timed), runs interleaved, the first round a warm-up. ``check(name,
    module)`` looks at each result (an assertion, a count)."""
    from iree.compiler import ir

    from opt_py import run_pipeline
    from opt_py.driver import make_context

    ctx = context or make_context()
    times = {k: [] for k in pipelines}
    for _ in range(reps + 1):
        for name, pipe in pipelines.items():
            with ctx, ir.Location.unknown():
                module = ir.Module.parse(text)
                t = time.perf_counter()
                run_pipeline(module, pipe)
                times[name].append(time.perf_counter() - t)
                if check:
                    check(name, module)
    return {k: statistics.median(v[1:]) for k, v in times.items()}

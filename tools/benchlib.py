"""Shared by the benchmarks: a command's wall time; pipeline times on one module, interleaved."""

from __future__ import annotations

import statistics
import subprocess
import time


def wall(cmd, env=None, cwd=None) -> float:
    """Seconds ``cmd`` takes to run (its output discarded); a failure ends the benchmark with its stderr."""
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    took = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(
            f"failed ({proc.returncode}): {' '.join(map(str, cmd))}\n{proc.stderr.decode(errors='replace')[-2000:]}"
        )
    return took


def pipeline_medians(text: str, pipelines: dict[str, str], reps: int, check=None, context=None) -> dict[str, float]:
    """Median seconds of each pipeline on a fresh parse of ``text`` (parsing
    not timed), runs interleaved, the first round a warm-up. ``check(name,
    module)`` looks at each result (an assertion, a count)."""
    from iree.compiler import ir
    from opt_py import run_pipeline
    from opt_py.run.engine import make_context

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


def register_floor_pass(root, name: str) -> str:
    """Register (once) a pass whose pattern re-creates each ``root`` op
    unchanged (an op with regions by one clone), marked so that it matches
    once: the cost floor of any Python rewrite of those ops through the
    bindings. ``root``: an op name, or several (one pattern each, one pass).
    Returns the pass name."""
    from dataclasses import dataclass

    from iree.compiler import ir
    from opt_py import PatternPass, pattern, register_pass

    roots = [root] if isinstance(root, str) else list(root)

    def recreate(op, rewriter):
        op = op.operation
        if "bench.floor" in op.attributes:
            return False
        with rewriter.ip, op.location:
            if len(op.regions):  # its regions too: one deep copy
                new = op.clone(ip=rewriter.ip)
                new.attributes["bench.floor"] = ir.UnitAttr.get()
            else:
                attrs = {a: op.attributes[a] for a in op.attributes}
                attrs["bench.floor"] = ir.UnitAttr.get()
                new = ir.Operation.create(
                    op.name, results=[r.type for r in op.results], operands=list(op.operands), attributes=attrs
                )
        rewriter.replace_op(op, list(new.results))
        return True

    pass_name = name

    @register_pass
    @dataclass(frozen=True)
    class FloorRewrite(PatternPass):
        name = pass_name
        anchor = "any"
        summary = f"re-create every {', '.join(roots)} once (benchmark floor)"

        def patterns(self):
            return [pattern(r)(recreate) for r in roots]

    return name

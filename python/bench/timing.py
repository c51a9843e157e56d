"""A command's wall and CPU time, served or cold; pipeline times on one module; a pass that re-creates ops as
the floor of any Python rewrite of them. Shared by the benchmarks in tools/."""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import NamedTuple


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
    from opt_py.run.api import run_pipeline
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
    from opt_py.authoring import PatternPass, pattern
    from opt_py.pipeline.registry import register_pass

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


def environments(tmp: Path) -> dict:
    """The served runs' environment (a runtime folder, so a server, of their own) and the cold runs'."""
    run = tmp / "run"
    run.mkdir(mode=0o700)
    served = {k: v for k, v in os.environ.items() if k != "OPT_PY_NO_SERVER"}
    served["XDG_RUNTIME_DIR"] = str(run)
    return {"served": served, "cold": {**served, "OPT_PY_NO_SERVER": "1"}, "run": run}


class Run(NamedTuple):
    wall: float  # seconds
    cpu: float  # user + system seconds, every thread
    stderr: str


def timed(cmd, env) -> Run:
    """``cmd`` run and timed; a failure ends the benchmark."""
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    took = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(map(str, cmd))}\n{proc.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(took, cpu, proc.stderr.decode(errors="replace"))


def served_run(cmd, env, run: Path) -> Run:
    """``cmd`` served by the server in ``run``, timed: its CPU seconds are those of the client and
    of the worker that ran it (the server's reaped children: a worker is reaped
    right after it answers, and the spare forked for the next run is counted with that run)."""
    server = _server_pid(run)
    before = _reaped_ticks(server)
    client = timed(cmd, env)
    deadline = time.monotonic() + 5
    while _reaped_ticks(server) == before and time.monotonic() < deadline:
        time.sleep(0.01)
    if _reaped_ticks(server) == before:
        raise SystemExit(f"no served run: the server in {run} reaped no worker for {' '.join(cmd)}")
    worker = (_reaped_ticks(server) - before) / os.sysconf("SC_CLK_TCK")
    return client._replace(cpu=client.cpu + worker)


def _server_pid(run: Path) -> int:
    """The pid of the warm server listening in ``run`` (its command line names its socket there)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"opt_py.tool.server" in cmdline and str(run).encode() in cmdline:
                return int(entry)
    raise SystemExit(f"no warm server in {run}")


def _reaped_ticks(pid: int) -> int:
    """cutime + cstime of ``pid``: the CPU clock ticks of its children it has waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[13]) + int(fields[14])  # fields 16 and 17 of proc(5), counted after the ")"

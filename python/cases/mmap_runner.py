"""Run a compiled module read-only (``VmModule.mmap``) in a child process: a fault is an outcome.

A module that writes its own constants crashes a process that loads it
read-only, and ``iree-run-module`` / ``VmModule.copy_buffer`` load it into
writable memory, which hides the writes. ``run_calls`` calls functions with
inputs in one context, round after round, and returns every result or the
call that faulted; ``run_checks`` runs an IREE check-test file's functions
with a ``check`` module of numpy comparisons (the runtime wheel has none).
A stand-in for the project's shared child-process runner (issue 29): merge
into it when it lands in python/iree/.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

import numpy as np

_CHILD = "from opt_py.cases.mmap_runner import _child; _child()"


@dataclass
class Outcome:
    results: list = field(default_factory=list)  # per finished call, in order: its outputs
    fault: str | None = None  # "SIGSEGV in call 4 (@f, round 1)"
    error: str | None = None  # the runtime's message, or a timeout
    lines: list = field(default_factory=list)  # what the child reported, per call or function


def _error_line(stderr: str, rc: int) -> str:
    """The exception line of a child's traceback (the runtime's status message), else its last line."""
    lines = stderr.strip().splitlines()
    raised = [x for x in lines if re.match(r"\w+(Error|Exception): ", x)]
    return ((raised or lines or [f"exit code {rc}"])[-1])[:300]


def _signal_name(rc: int) -> str:
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def _spawn(mode: str, vmfb: bytes, plan: dict, tmp: str, timeout: float):
    module = os.path.join(tmp, "m.vmfb")
    with open(module, "wb") as f:
        f.write(vmfb)
    with open(os.path.join(tmp, "plan.json"), "w") as f:
        json.dump(plan, f)
    try:
        return subprocess.run(
            [sys.executable, "-c", _CHILD, mode, tmp], capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return None


def run_calls(vmfb: bytes, calls, rounds: int = 3, device: str = "local-task", timeout: float = 120) -> Outcome:
    """Call each ``(function, inputs)`` of ``calls`` in order, ``rounds`` times, in one context."""
    out = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        for j, (_, args) in enumerate(calls):
            for i, a in enumerate(args):
                np.save(os.path.join(tmp, f"in_{j}_{i}.npy"), a)
        plan = {"device": device, "rounds": rounds, "calls": [[name, len(args)] for name, args in calls]}
        proc = _spawn("calls", vmfb, plan, tmp, timeout)
        done = 0
        while os.path.exists(os.path.join(tmp, f"done_{done}")):
            n = int(open(os.path.join(tmp, f"done_{done}")).read())
            out.results.append([np.load(os.path.join(tmp, f"out_{done}_{i}.npy")) for i in range(n)])
            done += 1
    if proc is None:
        out.error = f"did not finish in {timeout} s"
    elif proc.returncode < 0:
        name, _ = calls[done % len(calls)]
        out.fault = f"{_signal_name(proc.returncode)} in call {done} (@{name}, round {done // len(calls)})"
    elif proc.returncode != 0:
        out.error = _error_line(proc.stderr, proc.returncode)
    return out


def run_checks(vmfb: bytes, rounds: int = 2, device: str = "local-task", timeout: float = 300) -> Outcome:
    """Run every exported function of a check-test module ``rounds`` times; ``lines``: one per
    function run, "NAME ok" or "NAME FAIL: what"; a failed expectation is not an error."""
    out = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        proc = _spawn("checks", vmfb, {"device": device, "rounds": rounds}, tmp, timeout)
    if proc is None:
        out.error = f"did not finish in {timeout} s"
        return out
    out.lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode < 0:
        out.fault = f"{_signal_name(proc.returncode)} after {len(out.lines)} function runs"
    elif proc.returncode != 0:
        out.error = _error_line(proc.stderr, proc.returncode)
    return out


# --------------------------------------------------------------------------
# The child
# --------------------------------------------------------------------------


def _check_module(rt, device, failures: list):
    def host(ref):
        return rt.DeviceArray(device, ref.deref(rt.HalBufferView), implicit_host_transfer=True).to_host()

    def differ(a, b, close) -> str | None:
        x, y = host(a), host(b)
        if x.shape != y.shape:
            return f"shape {x.shape} vs {y.shape}"
        return None if close(x, y) else f"got {x.tolist()} want {y.tolist()}"[:300]

    class Check:
        def __init__(self, iface):
            pass

        def expect_true(self, v):
            if not v:
                failures.append("expect_true: got false")

        def expect_false(self, v):
            if v:
                failures.append("expect_false: got true")

        def expect_all_true(self, _device, a):
            if not np.all(host(a)):
                failures.append("expect_all_true: not all true")

        def expect_eq(self, _device, a, b):
            why = differ(a, b, np.array_equal)
            if why:
                failures.append("expect_eq: " + why)

        def expect_almost_eq(self, _device, a, b, atol, rtol):
            why = differ(a, b, lambda x, y: np.allclose(x, y, atol=atol, rtol=rtol))
            if why:
                failures.append("expect_almost_eq: " + why)

    iface = rt.PyModuleInterface("check", Check)
    iface.export("expect_true", "0i_v", Check.expect_true)
    iface.export("expect_false", "0i_v", Check.expect_false)
    iface.export("expect_all_true", "0rr_v", Check.expect_all_true)
    iface.export("expect_eq", "0rrr_v", Check.expect_eq)
    iface.export("expect_almost_eq", "0rrrff_v", Check.expect_almost_eq)
    return iface.create()


def _child() -> None:
    import iree.runtime as rt

    mode, tmp = sys.argv[1], sys.argv[2]
    plan = json.load(open(os.path.join(tmp, "plan.json")))
    config = rt.Config(plan["device"])
    module = rt.VmModule.mmap(config.vm_instance, os.path.join(tmp, "m.vmfb"))
    if mode == "calls":
        ctx = rt.SystemContext(config=config)
        ctx.add_vm_module(module)
        k = 0
        for _ in range(plan["rounds"]):
            for j, (name, n) in enumerate(plan["calls"]):
                args = [np.load(os.path.join(tmp, f"in_{j}_{i}.npy")) for i in range(n)]
                r = ctx.modules.module[name](*args)
                results = r if isinstance(r, (list, tuple)) else [r]
                for i, x in enumerate(results):
                    np.save(os.path.join(tmp, f"out_{k}_{i}.npy"), np.asarray(x.to_host()))
                with open(os.path.join(tmp, f"done_{k}"), "w") as f:
                    f.write(str(len(results)))
                k += 1
    else:
        failures: list[str] = []
        hal = rt.create_hal_module(config.vm_instance, config.device)
        ctx = rt.VmContext(config.vm_instance, modules=(hal, _check_module(rt, config.device, failures), module))
        for name in module.function_names:
            if name.startswith("__"):
                continue
            for _ in range(plan["rounds"]):
                before = len(failures)
                ctx.invoke(module.lookup_function(name), rt.VmVariantList(0), rt.VmVariantList(0))
                print(f"{name} ok" if len(failures) == before else f"{name} FAIL: {failures[before]}", flush=True)
    sys.stdout.flush()
    os._exit(0)  # skip the bindings' teardown (leak reports on stderr)

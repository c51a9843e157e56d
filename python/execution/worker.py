"""Running compiled modules in a child process that a faulting module cannot take down.

Every runtime path of opt-py (``opt-py check``, ``opt-py compare`` and the e2e
harness through ``e2e.run_runtime``, the per-dispatch hunter, the bundle
runner) runs modules here. A worker process runs one request at a time: it
loads the module read-only (``VmModule.mmap``), calls the function twice in
one context and sends back what each call returned (and what the ``check``
module or the dispatch traces saw). When the worker dies of a signal, the
request it was running is the one that faulted; the next request starts a
new worker.

Why read-only and twice: a module that writes its own constants (IREE #12233:
a constant reaching an in-place op through ``util.optimization_barrier`` or
``util.unfoldable_constant`` is bound read-write) gives other results on its
second call, and a read-only load turns the write into a SIGSEGV instead of
a silently wrong number. ``iree-run-module`` and ``VmModule.copy_buffer`` load
into writable memory and hide it. A request that faults with SIGSEGV or
SIGBUS is run once more loaded writable: when it then runs, the fault was a
write to the read-only module, which is what the verdict says.

This file imports only the standard library at the top, and iree.runtime and
numpy in the worker, nothing of opt_py: the bundle runner carries it beside
itself to machines that have only the runtime.
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

WRITE_FAULTS = ("SIGSEGV", "SIGBUS")  # what a store to a read-only mapping raises
RO_FAULT = "faulted: {signal}, the module wrote to read-only memory: likely its own constants (IREE #12233)"
LOG_LINES = 15  # of what the worker printed, shown when it dies


@dataclass
class Request:
    """What to run: ``function`` of the module at ``module`` on ``device``, ``calls`` times in one context."""

    module: str | bytes  # the .vmfb's path, or its bytes
    device: str
    function: str
    inputs: list = field(default_factory=list)
    calls: int = 2
    # Several functions in one context: (function, inputs) pairs that each call runs in this order instead
    # of ``function`` alone, its results those of every pair in turn (functions that share constants).
    sequence: list = field(default_factory=list)
    writable: bool = False  # copy_buffer (writable memory) instead of mmap (read-only)
    check: bool = False  # provide IREE's `check` module (check_runner.py) and record its expectations
    trace: bool = False  # record the dispatch traces the HAL module's debug sink receives


@dataclass
class Outcome:
    """What a request did: each completed call's ``results`` (and ``checks``, ``events``)."""

    calls: list = field(default_factory=list)
    error: str = ""  # a failing status the runtime raised, or why the request could not be run
    fault: str = ""  # the signal that ended the worker, e.g. "SIGSEGV"
    reason: str = ""  # the verdict on a fault, e.g. RO_FAULT
    log: str = ""  # the worker's last lines of output when it died

    def problem(self) -> str:
        """Why these results cannot be trusted (a fault, an error, results that change), or ""."""
        if self.fault:
            return self.reason + (f"\n{self.log}" if self.log else "")
        if self.error:
            return self.error
        return changed_between_calls(self.calls)


# --------------------------------------------------------------------------
# The parent's side
# --------------------------------------------------------------------------


class Worker:
    """A child process that runs requests one at a time; a new one starts after one dies."""

    def __init__(self):
        self._proc = None
        self._pid = None  # the process that started it: a fork's copy starts its own
        self._send = self._recv = self._log = None

    def run(self, request: Request, timeout: float | None = None) -> Outcome:
        """``request``'s outcome; a fault, a timeout or a death is the outcome, never an exception."""
        self._ensure_started()
        start = self._log.seek(0, os.SEEK_END)
        try:
            self._send.send(("call", dict(request.__dict__)))  # plain data: the worker imports no opt_py
            if not self._recv.poll(timeout):
                self.close(kill=True)
                return Outcome(error=f"timed out after {timeout:g} s")
            return Outcome(**self._recv.recv())
        except (EOFError, OSError):
            return self._died(start)

    def functions(self, module: str) -> list[tuple[str, str]]:
        """(name, calling convention) of each exported function of ``module``, in ordinal order."""
        self._ensure_started()
        start = self._log.seek(0, os.SEEK_END)
        try:
            self._send.send(("functions", module))
            answer = self._recv.recv()
        except (EOFError, OSError):
            answer = {"error": self._died(start).problem()}
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["functions"]

    def close(self, kill: bool = False) -> None:
        """Ends the worker: at once with ``kill``, else once it has read the end of its input."""
        proc, self._proc = self._proc, None
        if proc is None or self._pid != os.getpid():
            return
        if kill:
            proc.kill()
        self._send.close()
        self._recv.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._log.close()

    def _ensure_started(self) -> None:
        if self._proc is not None and self._pid == os.getpid() and self._proc.poll() is None:
            return
        if self._proc is not None and self._pid == os.getpid():
            self.close(kill=True)
        from multiprocessing.connection import Connection

        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        self._log = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), str(req_r), str(res_w)],
            pass_fds=(req_r, res_w),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
        )
        os.close(req_r)
        os.close(res_w)
        self._pid = os.getpid()
        self._send = Connection(req_w, readable=False)
        self._recv = Connection(res_r, writable=False)

    def _died(self, log_start: int) -> Outcome:
        """The outcome of the request the worker was running when it ended."""
        proc, log = self._proc, self._log
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        log.seek(log_start)
        tail = "\n".join(log.read().decode(errors="replace").strip().splitlines()[-LOG_LINES:])
        self.close()
        if code < 0:
            name = signal.Signals(-code).name
            return Outcome(fault=name, reason=f"faulted: {name}", log=tail)
        return Outcome(error=f"the worker exited with status {code}" + (f":\n{tail}" if tail else ""))


_SHARED: list[Worker] = []


def shared() -> Worker:
    """This process's worker, started on first use and ended at exit."""
    if not _SHARED:
        _SHARED.append(Worker())
        atexit.register(_SHARED[0].close)
    return _SHARED[0]


def run(request: Request, timeout: float | None = None, worker: Worker | None = None) -> Outcome:
    """Run ``request`` in ``worker`` (default: this process's); a fault a read-only load may
    explain is run again loaded writable, and the verdict says what that showed."""
    worker = worker or shared()
    outcome = worker.run(request, timeout)
    if outcome.fault not in WRITE_FAULTS or request.writable:
        return outcome
    writable = worker.run(Request(**{**request.__dict__, "writable": True}), timeout)
    if writable.fault:
        outcome.reason = f"faulted: {outcome.fault} (also when loaded writable: not a write to its own constants)"
        return outcome
    changed = changed_between_calls(writable.calls)
    then = f"its {changed}" if changed else "gives the same results twice"
    then = f"fails: {writable.error}" if writable.error else f"runs and {then}"
    outcome.reason = RO_FAULT.format(signal=outcome.fault) + f"; loaded writable, it {then}"
    return outcome


def changed_between_calls(calls: list[dict]) -> str:
    """How the second call's results (or observed values) differ from the first's, or ""."""
    if len(calls) < 2:
        return ""
    first, second = calls[0], calls[1]
    for key, what in (("results", "results"), ("checks", "expectations")):
        n, m = len(first.get(key, [])), len(second.get(key, []))
        if n != m:
            return f"results change between two calls: {n} {what} then {m}"
    for i, (x, y) in enumerate(zip(first["results"], second["results"])):
        where = first_difference(x, y)
        if where:
            return f"results change between two calls: result {i}{where}"
    for i, (x, y) in enumerate(zip(first.get("checks", []), second.get("checks", []))):
        for j, (u, v) in enumerate(zip(x["operands"], y["operands"])):
            where = first_difference(u["values"], v["values"])
            if where:
                return f"results change between two calls: expectation {i + 1}, operand {j}{where}"
    return ""


def first_difference(x, y) -> str:
    """', element [i, j]: A then B' where the arrays ``x`` and ``y`` first differ bit for bit, or ""."""
    import numpy as np

    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape or x.dtype != y.dtype:
        return f": {x.shape}/{x.dtype} then {y.shape}/{y.dtype}"
    a, b = np.ascontiguousarray(x).reshape(-1), np.ascontiguousarray(y).reshape(-1)
    if a.tobytes() == b.tobytes():
        return ""
    element = np.dtype((np.void, a.dtype.itemsize))  # bits, so that NaN == NaN and -0.0 != 0.0
    flat = int(np.flatnonzero(a.view(element) != b.view(element))[0])
    index = list(np.unravel_index(flat, x.shape)) if x.shape else []
    return f", element {[int(k) for k in index]}: {a[flat]} then {b[flat]}"


# --------------------------------------------------------------------------
# The worker's side
# --------------------------------------------------------------------------

_RUNTIME: dict = {}  # the worker's VmInstance, made once (iree.runtime caches the devices)


def serve(req_fd: int, res_fd: int) -> None:
    """The worker's loop: answer each request until the parent closes the pipe."""
    from multiprocessing.connection import Connection

    requests, answers = Connection(req_fd, writable=False), Connection(res_fd, readable=False)
    while True:
        try:
            kind, what = requests.recv()
        except EOFError:
            break
        answers.send(_functions(what) if kind == "functions" else _call(what))
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown: the runtime's objects outlive it


def _instance():
    import iree.runtime as rt

    if "instance" not in _RUNTIME:
        _RUNTIME["instance"] = rt.VmInstance()
    return rt, _RUNTIME["instance"]


def _runtime(device_uri: str):
    rt, instance = _instance()
    return rt, instance, rt.get_device(device_uri)


def _load(rt, instance, module: str | bytes, writable: bool):
    """The module loaded writable (copy_buffer) or read-only (mmap; bytes through a memory file)."""
    if writable:
        if isinstance(module, str):
            with open(module, "rb") as f:
                module = f.read()
        return rt.VmModule.copy_buffer(instance, module)
    if isinstance(module, str):
        return rt.VmModule.mmap(instance, module)
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("module.vmfb")
        try:
            os.write(fd, module)
            return rt.VmModule.mmap(instance, f"/proc/self/fd/{fd}")  # the mapping outlives the descriptor
        finally:
            os.close(fd)
    with tempfile.NamedTemporaryFile(suffix=".vmfb") as f:
        f.write(module)
        f.flush()
        return rt.VmModule.mmap(instance, f.name)


def _functions(path: str) -> dict:
    import re

    try:
        rt, instance = _instance()
        module = rt.VmModule.mmap(instance, path)
        out = []
        for name in module.function_names:
            fn = module.lookup_function(name)
            m = re.search(r"\((\d[^)]*)\)", repr(fn))
            out.append((name, m.group(1) if m else ""))
        return {"functions": out}
    except Exception as e:  # noqa: BLE001 - any failure to read the module is the answer
        return {"error": f"{type(e).__name__}: {e}"}


def _call(fields: dict) -> dict:
    """Run the request and describe each call; a runtime error ends it, with the calls done so far."""
    req = Request(**fields)
    calls: list[dict] = []
    try:
        rt, instance, device = _runtime(req.device)
        checks: list = []
        events: list = []
        modules = [_hal_module(rt, instance, device, events if req.trace else None)]
        if req.check:
            modules.append(_sibling("check_runner").check_module(rt, device, checks))
        main = _load(rt, instance, req.module, req.writable)
        context = rt.VmContext(instance, modules=[*modules, main])
        invokers = []
        for name, inputs in req.sequence or [(req.function, req.inputs)]:
            fn = main.lookup_function(name)
            if fn is None:
                return {"error": f"no function '{name}' in the module"}
            invokers.append((rt.FunctionInvoker(context, device, fn), inputs))
        for _ in range(req.calls):
            results = [r for invoke, inputs in invokers for r in _as_list(invoke(*_arguments(inputs)))]
            calls.append({"results": [_host_copy(r) for r in results], "checks": checks[:], "events": events[:]})
            checks.clear()
            events.clear()
    except Exception as e:  # noqa: BLE001 - a failing status is this request's answer
        which = f" (call {len(calls) + 1})" if calls else ""
        return {"calls": calls, "error": f"{type(e).__name__}{which}: {_short(str(e))}"}
    return {"calls": calls}


def _short(message: str) -> str:
    """A runtime error without the Python traceback the runtime wraps around an exception that a
    Python module (the check module) raised: that exception's own line is what says why."""
    if "Traceback (most recent call last)" not in message:
        return message.strip()
    lines = [ln for ln in message.splitlines() if ln and not ln.startswith((" ", "["))]
    return lines[-1].split("; while calling import")[0].strip()


def _hal_module(rt, instance, device, events: list | None):
    if events is None:
        return rt.create_hal_module(instance, device)

    def sink(key, views):
        import numpy as np

        arrays = [np.array(rt.DeviceArray(device, v, implicit_host_transfer=True).to_host()) for v in views]
        events.append((key, arrays))

    return rt.create_hal_module(instance, device, debug_sink=rt.HalModuleDebugSink(sink))


def _arguments(inputs: list) -> list:
    """Fresh copies (a call may write into its arguments); numpy scalars as primitive values."""
    import numpy as np

    return [a.item() if isinstance(a, np.generic) else np.array(a, copy=True) for a in inputs]


def _as_list(result) -> list:
    if result is None:
        return []
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _host_copy(r):
    """A host copy of a result: not a view of device memory the next call may overwrite."""
    import numpy as np

    return np.array(r.to_host() if hasattr(r, "to_host") else r, copy=True)


def _sibling(name: str):
    """The module ``name``.py beside this file (the worker runs as a file, outside any package)."""
    import importlib.util

    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(__file__), f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


if __name__ == "__main__":
    # Not this folder on the path: its files' names (e2e, bundle, ...) are not top-level packages.
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
    serve(int(sys.argv[1]), int(sys.argv[2]))

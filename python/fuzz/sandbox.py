"""A child process that runs the fuzzer's jobs, so that a compiler crash or hang is an outcome, not an end.

Compiling in process is what makes a campaign fast (the bindings and torch are
imported once per child), and what makes a crash dangerous: IREE's C++ can
kill the process it runs in. Each engine worker (a thread of the local pool, a
Dask worker's thread) therefore owns one ``Sandbox``: a child running
``execute.serve``, which announces each step (``export``, ``compile stock``,
``run fixes``, ...) before taking it. When the child dies, the step it last
announced crashed (its signal is the outcome); when a step outlives its
timeout, the child is killed and the step timed out. Either way the next job
starts a new child. Only the standard library and the job's plain data cross
the pipe.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
from multiprocessing.connection import Connection

LOG_LINES = 20


class Sandbox:
    def __init__(self, env: dict | None = None):
        self.env = env
        self._proc = None
        self._pid = None
        self._send = self._recv = self._log = None

    def call(self, job: dict, timeouts: dict[str, float]) -> dict:
        """The job's answer; or ``{"died": step, "signal"/"status", "log"}``, ``{"timeout": step, "seconds"}``.

        ``timeouts``: seconds per step kind (the word before the first space of a step's name), with
        ``"default"`` for the others.
        """
        self._ensure()
        start = self._log.seek(0, os.SEEK_END)
        step = "start"
        try:
            self._send.send(job)
            while True:
                limit = timeouts.get(step.split(" ")[0], timeouts.get("default", 600))
                if not self._recv.poll(limit):
                    self.close(kill=True)
                    return {"timeout": step, "seconds": limit}
                kind, what = self._recv.recv()
                if kind == "step":
                    step = what
                else:
                    return what
        except (EOFError, OSError):
            return self._died(step, start)

    def close(self, kill: bool = False) -> None:
        proc, self._proc = self._proc, None
        if proc is None or self._pid != os.getpid():
            return
        if kill:
            proc.kill()
        for c in (self._send, self._recv):
            c.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._log.close()

    def _ensure(self) -> None:
        if self._proc is not None and self._pid == os.getpid() and self._proc.poll() is None:
            return
        if self._proc is not None:
            self.close(kill=True)
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        self._log = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "opt_py.fuzz.execute", str(req_r), str(res_w)],
            pass_fds=(req_r, res_w),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            env=self.env,
        )
        os.close(req_r)
        os.close(res_w)
        self._pid = os.getpid()
        self._send = Connection(req_w, readable=False)
        self._recv = Connection(res_r, writable=False)

    def _died(self, step: str, log_start: int) -> dict:
        proc, log = self._proc, self._log
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        log.seek(log_start)
        tail = "\n".join(log.read().decode(errors="replace").strip().splitlines()[-LOG_LINES:])
        self.close()
        if code < 0:
            return {"died": step, "signal": signal.Signals(-code).name, "log": tail}
        return {"died": step, "status": code, "log": tail}


_LOCAL = threading.local()
_ALL: list[Sandbox] = []


def mine(env: dict | None = None) -> Sandbox:
    """This thread's sandbox (one per engine worker thread), started on first use."""
    box = getattr(_LOCAL, "box", None)
    if box is None:
        import atexit

        box = _LOCAL.box = Sandbox(env)
        if not _ALL:
            atexit.register(lambda: [b.close(kill=True) for b in _ALL])
        _ALL.append(box)
    return box

"""Where a run is, kept in a file that outlives the process: what its supervisor reads after a crash.

IREE runs in opt-py's process, so a C++ crash (SIGSEGV, SIGFPE, abort) ends
the run with no Python code left to report it. The run's supervisor (the
cold client, or the client of a served run: ``tool/client.py``) creates a
small file and names it to the job; ``attach`` opens it, and each ``step``
rewrites it with the steps now open, outermost first, one ``KIND<TAB>TEXT``
line each (kinds: ``iree``, ``stop``, ``pipeline``, ``cpp``, ``python``).
Python's ``faulthandler`` appends the Python stack of every thread after
them when the process dies of a fatal signal. ``tool/crash.py`` reads it.

A run that is itself the re-run of a crashed one (``tool/crash.py``) also
sets ``diagnosis``: IREE then writes a crash reproducer there instead of
dying, and opt-py's own C++ segments are saved before they run.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

PYTHON_STACK_MARK = "Fatal Python error"  # how faulthandler's report begins
FAILED = "failed"  # what a crash re-run remembers: the phase of IREE's that failed (iree/phases.py)

_file = {"pid": None, "fd": None}
_steps: list[str] = []
_remembered: list[str] = []
diagnosis: str | None = None  # the directory of a crash re-run, or None


def attach(path: str | None) -> None:
    """Record this process's steps in ``path`` (created by the supervisor), and its Python stack on a crash."""
    if not path:
        return
    import faulthandler

    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        stack = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return  # no record: a crash is still reported, with less detail
    _file.update(pid=os.getpid(), fd=fd)
    _steps.clear()
    _remembered.clear()
    faulthandler.enable(file=stack, all_threads=True)  # keeps the number: never closed


def attached() -> bool:
    return _file["fd"] is not None and _file["pid"] == os.getpid()


@contextmanager
def step(kind: str, text: str):
    """The run is in ``kind`` ``text`` until the block ends (normally or by an exception)."""
    if not attached():
        yield
        return
    _steps.append(f"{kind}\t{_one_line(text)}")
    _write()
    try:
        yield
    finally:
        _steps.pop()
        _write()


def remember(kind: str, text: str) -> None:
    """A line kept after every open step, until the process ends (a crash re-run's findings)."""
    if attached():
        _remembered.append(f"{kind}\t{_one_line(text)}")
        _write()


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _write() -> None:
    data = "".join(line + "\n" for line in _steps + _remembered).encode("utf-8", "replace")
    try:
        os.pwrite(_file["fd"], data, 0)
        os.ftruncate(_file["fd"], len(data))
    except OSError:
        pass


def read(path: str) -> tuple[list[tuple[str, str]], str]:
    """(the steps recorded in ``path``, outermost first, as (kind, text); the Python stack faulthandler added)."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return [], ""
    state, mark, stack = text.partition(PYTHON_STACK_MARK)
    steps = [tuple(line.split("\t", 1)) for line in state.splitlines() if "\t" in line]
    return steps, (mark + stack).strip()

"""IREE's compiler library as opt-py drives it: every use of ``iree.compiler.api``'s private parts.

``phases.py`` stops one in-process invocation after a phase and resumes it.
Two things that needs are not in the wheel's public Python API, so this
module, and no other, reaches past it:

* ``ctypes_dl._init_dylib`` and ``ctypes_dl._dylib``: the API calls the
  library through a ``ctypes.CDLL``, which releases the GIL during each call;
  a diagnostic emitted during such a call reaches Python's handler without
  the GIL and aborts the process. The library is reopened as a
  ``ctypes.PyDLL`` (``CDLL._name`` is its path), which keeps the GIL, every
  prototype the API set is copied over (``ctypes._CFuncPtr`` finds them),
  and the API module is pointed at it before a Session exists (each API
  object keeps the handle it was made with).
* ``Invocation._inv_p``: the invocation's C handle, for the library's
  ``ireeCompilerInvocationSetCompileToPhase`` / ``...SetCompileFromPhase``
  (public C API, not wrapped in Python).

The library's ``ireeCompilerSetupGlobalCL`` (public C API, not wrapped in
Python) sets LLVM's process-wide options, once per process: for a crash
re-run (``reproduce_crashes``) and for the iree-compile flags a session does
not take (``set_process_wide``).

Checked on iree-base-compiler ``CHECKED_ON``; test/unit/test_compiler_api.py
fails on another version and checks that every name in ``PRIVATE_NAMES`` exists.
"""

from __future__ import annotations

import ctypes
import os

CHECKED_ON = "3.13"
PRIVATE_NAMES = (
    "iree.compiler.api.ctypes_dl._init_dylib",
    "iree.compiler.api.ctypes_dl._dylib",
    "iree.compiler.api.Invocation._inv_p",
    "ctypes._CFuncPtr",
    "ctypes.CDLL._name",
)
REPRODUCER = "reproducer.mlir"  # the crash reproducer's name in a crash re-run's directory
PHASE_SETTERS = ("ireeCompilerInvocationSetCompileToPhase", "ireeCompilerInvocationSetCompileFromPhase")


def library():
    """The compiler library, called with the GIL held, phase setters bound; the API module uses it too."""
    from iree.compiler.api import ctypes_dl as dl

    dl._init_dylib()
    if not isinstance(dl._dylib, ctypes.PyDLL):
        dl._dylib = _reopened_with_gil(dl._dylib)
    lib = dl._dylib
    for name in PHASE_SETTERS:
        fn = getattr(lib, name)
        fn.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        fn.restype = None
    return lib


def _reopened_with_gil(cdll):
    """``cdll`` opened again as a ``ctypes.PyDLL``, with the prototypes set on ``cdll`` copied over."""
    py = ctypes.PyDLL(cdll._name)
    for name, fn in list(vars(cdll).items()):
        if isinstance(fn, ctypes._CFuncPtr):
            target = getattr(py, name)
            target.restype = fn.restype
            if fn.argtypes is not None:
                target.argtypes = fn.argtypes
    return py


def set_phases(lib, inv, compile_from: str | None, compile_to: str) -> None:
    """The invocation's next ``execute`` runs the phases after ``compile_from`` (from the start
    when None) up to and including ``compile_to``."""
    if compile_from is not None:
        lib.ireeCompilerInvocationSetCompileFromPhase(inv._inv_p, compile_from.encode())
    lib.ireeCompilerInvocationSetCompileToPhase(inv._inv_p, compile_to.encode())


_GLOBAL_CL = []  # the flags the process's one ireeCompilerSetupGlobalCL call was given


def reproduce_crashes(lib, iree_flags: list[str], directory: str) -> None:
    """From now on a pass of IREE's pipeline that crashes fails instead, leaving a local reproducer
    (the IR before that pass, and the pass) at ``REPRODUCER`` in ``directory``.

    ``--mlir-pass-pipeline-crash-reproducer`` is a global LLVM option, not a
    session flag: ``ireeCompilerSetupGlobalCL`` sets it, once per process, and
    sessions made after it take their options from that command line (they
    still parse their own flags over it), so ``iree_flags`` go there too. For
    a process that runs one compile only, a crash re-run: LLVM's signal
    handlers are left out (they would take SIGINT and SIGTERM from Python).
    The local reproducer needs the session's context single-threaded.
    """
    if _GLOBAL_CL:
        if _GLOBAL_CL[0] != iree_flags:
            raise RuntimeError("ireeCompilerSetupGlobalCL runs once per process: a second compile cannot be re-run")
        return
    _GLOBAL_CL.append(list(iree_flags))
    reproducer = f"--mlir-pass-pipeline-crash-reproducer={os.path.join(directory, REPRODUCER)}"
    _setup_global_cl(lib, [reproducer, "--mlir-pass-pipeline-local-reproducer", *iree_flags])


def process_wide_set() -> list[str]:
    """The flags this process's ``ireeCompilerSetupGlobalCL`` call was given ([] before any)."""
    return _GLOBAL_CL[0] if _GLOBAL_CL else []


def process_wide(flags: list[str]) -> list[str]:
    """Of ``flags``, those an IREE session rejects that iree-compile's command line knows: LLVM's
    process-wide options (``--iree-stream-emulate-memset``), which iree-compile sets for the whole
    process and a session cannot. Asked only after a session rejected a flag (it costs a probe)."""
    import subprocess

    from iree.compiler import api
    from iree.compiler.tools.binaries import find_tool

    probe = api.Session()
    rejected = []
    for flag in flags:
        try:
            probe.set_flags(flag)
        except ValueError:
            rejected.append(flag)
    if not rejected:
        return []
    listing = subprocess.run(
        [find_tool("iree-compile"), "--help-list-hidden"], capture_output=True, text=True, check=False
    ).stdout
    known = {line.split()[0].split("=")[0] for line in listing.splitlines() if line.strip().startswith("--")}
    return [f for f in rejected if f.split("=")[0] in known]


def set_process_wide(lib, flags: list[str]) -> None:
    """Set LLVM's process-wide options ``flags`` as iree-compile does, before this process's first
    session; a process that already set others refuses (LLVM's options cannot be unset)."""
    if _GLOBAL_CL:
        if _GLOBAL_CL[0] != flags:
            raise RuntimeError(
                f"process-wide IREE options {' '.join(_GLOBAL_CL[0])} are already set in this process; "
                "compile in a process of its own"
            )
        return
    _GLOBAL_CL.append(list(flags))
    _setup_global_cl(lib, flags)


def _setup_global_cl(lib, flags: list[str]) -> None:
    """``ireeCompilerSetupGlobalCL`` without LLVM's signal handlers (they would take SIGINT and SIGTERM
    from Python)."""
    args = ["opt-py", *flags]
    argv = (ctypes.c_char_p * len(args))(*(a.encode() for a in args))
    fn = lib.ireeCompilerSetupGlobalCL
    fn.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.c_char_p, ctypes.c_bool]
    fn.restype = None
    fn(len(args), argv, b"opt-py", False)

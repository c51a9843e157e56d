"""Compile with IREE in process, running opt-py pipelines between phases.

One ``iree.compiler.api`` Session and Invocation carry the program from
source to output. For each injection ``PHASE:PIPELINE`` (in phase order) the
invocation compiles up to and including PHASE, hands the module to Python
(``export_module``), the pipeline runs on it (C++ and Python passes, as in
``opt-py --pipeline``), the module is handed back (``import_module``) and
compilation resumes after PHASE. No subprocess, no text round trip.

This module knows IREE's phases and nothing of any particular pass.
"""

from __future__ import annotations

import ctypes
import os
import stat
from dataclasses import dataclass, field

from ..errors import CompileError
from ..run.diagnostics import Collector, from_console, render

# iree-compile's phases, in order (--compile-to / --compile-from names).
PHASES = (
    "input",
    "abi",
    "preprocessing",
    "global-optimization",
    "dispatch-creation",
    "flow",
    "stream",
    "executable-sources",
    "executable-configurations",
    "executable-targets",
    "hal",
    "vm",
    "end",
)


@dataclass
class Injection:
    phase: str
    pipeline: str

    @classmethod
    def parse(cls, spec: str) -> Injection:
        phase, sep, pipeline = spec.partition(":")
        phase = phase.strip()
        if not sep or not pipeline.strip():
            raise CompileError(f"malformed --inject '{spec}': expected PHASE:PIPELINE")
        if phase not in PHASES or phase == "end":
            import difflib

            if phase == "end":
                raise CompileError(
                    f"--inject cannot run at phase 'end': nothing comes after it (phases: {', '.join(PHASES[:-1])})"
                )
            close = difflib.get_close_matches(phase, PHASES[:-1], n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise CompileError(f"unknown phase '{phase}' in --inject{hint} (phases: {', '.join(PHASES[:-1])})")
        return cls(phase, pipeline.strip())


@dataclass
class CompileResult:
    ok: bool
    output: bytes = b""
    messages: list[str] = field(default_factory=list)


def _compiler_library():
    """The IREE compiler library, called with the GIL held.

    ``iree.compiler.api`` calls the library through ``ctypes.CDLL``, which
    releases the GIL; a diagnostic emitted during such a call reaches the
    Python diagnostic handler without the GIL and aborts the process. The same
    library reopened as ``ctypes.PyDLL`` keeps the GIL, with every prototype
    the API set copied over; the API module is pointed at it. The phase
    setters, which the API does not wrap, are bound here too.
    """
    from iree.compiler.api import ctypes_dl as dl

    dl._init_dylib()
    if not isinstance(dl._dylib, ctypes.PyDLL):
        py = ctypes.PyDLL(dl._dylib._name)
        for name, fn in list(vars(dl._dylib).items()):
            if isinstance(fn, ctypes._CFuncPtr):
                target = getattr(py, name)
                target.restype = fn.restype
                if fn.argtypes is not None:
                    target.argtypes = fn.argtypes
        dl._dylib = py
    lib = dl._dylib
    for fn in (lib.ireeCompilerInvocationSetCompileToPhase, lib.ireeCompilerInvocationSetCompileFromPhase):
        fn.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        fn.restype = None
    return lib


def _in_iree(collector, messages: list[str], sources: dict[str, str], call):
    """``call()``, an IREE library call that runs passes, with no Python diagnostic handler.

    IREE runs passes on LLVM's worker threads, and a diagnostic emitted on
    one (a nested pipeline's ``ParallelDiagnosticHandler`` flushes there)
    calls every handler in the context. The Python one needs the GIL, which
    the calling thread holds through the PyDLL handle: a deadlock, caught by
    gdb in a hung compile for cuda. Releasing the GIL instead aborts: the
    bindings' handler frees its diagnostic object after giving the GIL back.
    So while IREE runs, the Collector steps aside and the invocation's own
    console handler prints the diagnostics into a captured stderr; they join
    the messages rendered as the Collector's are (that handler prints no
    notes), and any other output as it was.
    """
    from ..pipeline.cpp import captured_stderr

    with collector.paused(), captured_stderr() as err:
        try:
            return call()
        finally:  # also when the call raises (a failed import): its diagnostics are kept, the capture closed
            messages += [d if isinstance(d, str) else render(d, {}, sources) for d in from_console(err.text())]


def compile_with_injections(
    input_path: str,
    iree_flags: list[str],
    injections: list[Injection],
    *,
    codegen_injections=(),
    list_codegen: bool = False,
    compile_to: str | None = None,
    output_ir: bool = False,
    dump_dir: str | None = None,
    opt_options=None,
    after_phase=None,
) -> CompileResult:
    """Compile ``input_path``; returns the .vmfb (or IR text) bytes, or diagnostics.

    ``codegen_injections`` (see iree/codegen.py) run inside IREE's lowering of
    each dispatch function; ``list_codegen`` returns that lowering's passes
    as text instead of compiling. ``after_phase`` maps a phase to Python
    callables ``fn(module)`` that run after that phase's injections (the
    hunter labels IREE's dispatch traces this way).
    """
    from iree.compiler import api, ir

    from ..pipeline.plan import plan_pipeline
    from ..run.engine import OptOptions, RunHooks, run_plan

    opts = opt_options or OptOptions()
    end = compile_to or "end"
    if end not in PHASES:
        raise CompileError(f"unknown phase '{end}' for --compile-to (phases: {', '.join(PHASES)})")
    codegen_phase = "executable-configurations"
    after_phase = after_phase or {}
    stops = {j.phase for j in injections} | set(after_phase)
    if codegen_injections or list_codegen:
        stops.add(codegen_phase)
    for phase in stops:
        if PHASES.index(phase) >= PHASES.index(end):
            raise CompileError(f"an injection at phase '{phase}' comes at or after --compile-to={end}")
    if not os.path.exists(input_path):
        raise CompileError(f"cannot open input file '{input_path}'")
    if dump_dir:
        try:
            os.makedirs(dump_dir, exist_ok=True)
        except OSError as e:
            raise CompileError(f"cannot use '{dump_dir}' for --dump-phases: {e.strerror}") from None

    lib = _compiler_library()
    session = api.Session()
    try:
        session.set_flags(*iree_flags)
    except ValueError as e:
        raise CompileError(f"iree-compile flags: {str(e).strip()}") from None
    ctx = session.context
    collector = Collector(ctx)
    messages: list[str] = []
    sources: dict[str, str] = {}
    try:
        with open(input_path, "rb") as f:  # once: the input may be a FIFO or /dev/stdin
            data = f.read()
    except OSError as e:
        raise CompileError(f"cannot open input file '{input_path}': {e.strerror}") from None
    sources[input_path] = data.decode(errors="replace")

    def report() -> list[str]:
        out = [render(d, {}, sources) for d in collector.diags]
        collector.diags.clear()
        return out

    def fail(line: str) -> CompileResult:
        return CompileResult(False, messages=messages + report() + [line])

    hooks = RunHooks()

    def run_text(pipeline_text: str, op) -> bool:
        with ctx, ir.Location.unknown():
            return run_plan(plan_pipeline(pipeline_text), op, opts, hooks, collector)

    inv = session.invocation()
    try:
        with ctx:
            for j in injections:
                plan_pipeline(j.pipeline)  # report a bad pipeline before compiling anything
            for c in codegen_injections:
                plan_pipeline(f"func.func({c.pipeline})")
        if stat.S_ISREG(os.stat(input_path).st_mode):
            source = api.Source.open_file(session, input_path)
        else:
            source = api.Source.wrap_buffer(session, data, buffer_name=input_path)
        if not _in_iree(collector, messages, sources, lambda: inv.parse_source(source)):
            return fail(f"opt-py: error: failed to parse '{input_path}'")
        previous = None
        dump_index = 0
        for phase in sorted(stops, key=PHASES.index):
            if previous is not None:
                lib.ireeCompilerInvocationSetCompileFromPhase(inv._inv_p, previous.encode())
            lib.ireeCompilerInvocationSetCompileToPhase(inv._inv_p, phase.encode())
            if not _in_iree(collector, messages, sources, inv.execute):
                return fail(f"opt-py: error: IREE compilation failed before reaching phase '{phase}'")
            module = inv.export_module()
            messages += report()
            for j in (j for j in injections if j.phase == phase):
                tag = f"{dump_index:02d}-{phase}"
                dump_index += 1
                if dump_dir:
                    _dump(dump_dir, f"{tag}-before.mlir", module)
                if not run_text(j.pipeline, module):
                    return fail(f"opt-py: error: injected pipeline '{j.pipeline}' failed at phase '{phase}'")
                if dump_dir:
                    _dump(dump_dir, f"{tag}-after.mlir", module)
            for fn in after_phase.get(phase, ()):
                with ctx, ir.Location.unknown():
                    fn(module)
            if phase == codegen_phase and (codegen_injections or list_codegen):
                from . import codegen

                with ctx, ir.Location.unknown():
                    if list_codegen:
                        return CompileResult(
                            True, (codegen.list_codegen_passes(module, iree_flags) + "\n").encode(), messages + report()
                        )
                    tag = f"{dump_index:02d}-codegen"
                    dump_index += 1
                    if dump_dir:
                        _dump(dump_dir, f"{tag}-before.mlir", module)
                    try:
                        reached = codegen.inject_into_codegen(
                            module, iree_flags, list(codegen_injections), run_text, messages.append
                        )
                    except codegen.CodegenError as e:
                        return fail(f"opt-py: error: {e}")
                    if not reached:
                        messages.append(
                            "opt-py: warning: no dispatch function's codegen pipeline has the "
                            "--inject-codegen insertion point(s); see --list-codegen-passes"
                        )
                    if dump_dir:
                        _dump(dump_dir, f"{tag}-after.mlir", module)
            _in_iree(collector, messages, sources, lambda module=module: inv.import_module(module))
            previous = phase
        if previous is not None:
            lib.ireeCompilerInvocationSetCompileFromPhase(inv._inv_p, previous.encode())
        lib.ireeCompilerInvocationSetCompileToPhase(inv._inv_p, end.encode())
        if not _in_iree(collector, messages, sources, inv.execute):
            where = f" after phase '{previous}'" if previous else ""
            return fail(f"opt-py: error: IREE compilation failed{where}")
        messages += report()
        out = api.Output.open_membuffer()
        try:
            if output_ir or end != "end":
                inv.output_ir(out)
            else:
                inv.output_vm_bytecode(out)
        except ValueError as e:
            return fail(f"opt-py: error: {e}")
        data = bytes(out.map_memory())
        out.close()
        return CompileResult(True, data, messages)
    finally:
        collector.detach()
        inv.close()
        session.close()


def _dump(directory: str, name: str, module) -> None:
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "w") as f:
        f.write(module.get_asm(assume_verified=True))

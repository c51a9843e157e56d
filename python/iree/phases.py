"""Compile with IREE in process, running opt-py pipelines between phases.

One ``iree.compiler.api`` Session and Invocation (a ``Compilation``) carry the
program from source to output. The driver stops it after each phase that has
work: IREE compiles up to and including that phase, hands the module to
Python (``export_module``), the steps placed at that phase run on it (an
injected pipeline, a caller's hook, codegen injection), the module is handed
back (``import_module``) and compilation resumes. No subprocess, no text
round trip.

A kind of stop point is a step, a function ``(compilation, module)`` that
``_stops`` places at a phase; it returns None to go on, or the result that
ends the compilation. A step may name the ops it needs (an opt-py fix: the
ops its patterns are rooted on): it runs only where one of them is in the
module, which IREE counts in C++ before the module is handed over, so a
stop whose steps all find nothing costs a few milliseconds and exports
nothing. This module knows IREE's phases and nothing of any pass.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from ..errors import CodegenError, CompileError
from ..run import progress
from ..run.diagnostics import Collector, from_console, render
from . import compiler_api, input_conversion

# iree-compile's phases, in order (--compile-to / --compile-from names).
PHASES = (
    "start",  # the module as parsed, before IREE's input phase (IREE runs nothing to reach it)
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
CODEGEN_PHASE = "executable-configurations"  # after it, each dispatch function's codegen pipeline is known


OP_STATS = "print-op-stats{json=true}"  # MLIR's op counter: the module's op names, counted in C++


@dataclass
class Injection:
    phase: str
    pipeline: str
    ops: frozenset[str] | None = None  # run only where one of these ops is in the module (an opt-py fix)

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
    rewrites: list = field(default_factory=list)  # what the Python passes rewrote (authoring.Rewrite), if asked
    seconds: dict = field(default_factory=dict)  # pass name -> seconds the Python pass took, all its runs
    skipped: list = field(default_factory=list)  # (phase, pipeline) of guarded injections with no op to work on


@dataclass(frozen=True)
class Step:
    """What a stop runs: ``run(compilation, module)``, only where one of ``ops`` is in the module (None: always)."""

    run: Callable
    ops: frozenset[str] | None = None
    label: tuple[str, str] | None = None  # (phase, pipeline) reported when the step is skipped


def compile_with_injections(
    input_path: str,
    iree_flags: list[str],
    injections: list[Injection],
    *,
    codegen_injections=(),
    list_codegen: bool = False,
    input_injections=(),
    list_input: bool = False,
    compile_to: str | None = None,
    output_ir: bool = False,
    dump_dir: str | None = None,
    opt_options=None,
    after_phase=None,
    record_rewrites: bool = False,
    data: bytes | None = None,
    const_eval=None,
) -> CompileResult:
    """Compile ``input_path``; returns the .vmfb (or IR text) bytes, or diagnostics.

    ``codegen_injections`` (see iree/codegen.py) run inside IREE's lowering of
    each dispatch function, ``input_injections`` (iree/input_conversion.py)
    inside the frontend lowering of a torch or ONNX program; ``list_codegen``
    and ``list_input`` return those lowerings' passes as text instead of
    compiling. ``after_phase`` maps a phase to Python
    callables ``fn(module)`` that run after that phase's injections (the
    hunter labels IREE's dispatch traces this way). ``record_rewrites``: the
    result lists every rewrite the Python passes made (``--fixes-report``).
    ``data``: the input's bytes, read already (a second compile of a stream).
    ``const_eval``: a step that does IREE's constant evaluation, run first at the global-optimization
    stop (iree/const_eval.py; the flags then turn IREE's own off).
    """
    end = compile_to or "end"
    frontend = list(input_injections) or list_input
    stops = _stops(injections, list(codegen_injections), list_codegen, after_phase or {})
    if const_eval is not None:
        _add_first(stops, "global-optimization", const_eval)
    # Fixes inside the frontend run only where one of their ops is in the module as parsed; elsewhere IREE
    # lowers the program itself (input_conversion.guarded).
    guarded = not list_input and input_conversion.guarded(input_injections, iree_flags)
    if frontend:
        ops = frozenset().union(*(x.ops for x in input_injections)) if guarded else None
        label = ("start", ", ".join(x.spelled() for x in input_injections)) if guarded else None
        step = Step(partial(_run_frontend, list(input_injections), list_input, iree_flags), ops, label)
        _add_step(stops, "start", step)
    _check_request(input_path, end, [phase for phase, _ in stops], dump_dir, data is not None)
    session_flags = input_conversion.session_flags(iree_flags) if frontend and not guarded else iree_flags
    with Compilation(input_path, session_flags, opt_options, dump_dir) as c:
        if record_rewrites:
            c.hooks.rewrites = []
        c.read_input(data)
        c.check_pipelines(  # a user's; opt-py's own fixes are planned when they run (test_fixes plans each)
            [j.pipeline for j in injections if j.ops is None]
            + [f"func.func({x.pipeline})" for x in codegen_injections if x.ops is None]
            + [x.pipeline for x in input_injections if x.ops is None]
        )
        if not c.parse():
            return c.failed(f"failed to parse '{input_path}'")
        for phase, steps in stops:
            if not c.compile_to(phase):
                return c.failed(f"IREE compilation failed before reaching phase '{phase}'")
            with progress.step("stop", phase):
                result = _run_stop(c, steps)
            if result is not None:
                return result
        previous = c.reached
        if not c.compile_to(end):
            return c.failed("IREE compilation failed" + (f" after phase '{previous}'" if previous else ""))
        return c.output(as_ir=output_ir or end != "end")


def _run_stop(c: Compilation, steps: list[Step]) -> CompileResult | None:
    """Run a stop's steps; the module is handed over when the first step that runs needs it, and back at the end.

    Each guarded step asks the module's op names first: counted on IREE's side before the module is
    exported, and again after a step that ran (it may have made the ops a later step needs)."""
    module, names = None, None
    for step in steps:
        if step.ops is not None:
            if names is None:
                names = c.op_names(module)
            if names is not None and not step.ops & names:
                c.skipped.append(step.label)
                continue
        if module is None:
            module = c.export()
        result = step.run(c, module)
        names = None
        if result is not None:
            return result
    if module is not None:
        c.import_(module)
    return None


def _stops(injections, codegen_injections, list_codegen: bool, after_phase) -> list[tuple[str, list[Step]]]:
    """Each phase the compilation stops after, in order, with the steps that run there."""
    steps: dict[str, list[Step]] = {}
    for j in injections:
        steps.setdefault(j.phase, []).append(Step(partial(_run_injection, j), j.ops, (j.phase, j.pipeline)))
    for phase, fns in after_phase.items():
        steps.setdefault(phase, []).extend(Step(partial(_run_hook, fn)) for fn in fns)
    if list_codegen:
        steps.setdefault(CODEGEN_PHASE, []).append(Step(_list_codegen))
    elif codegen_injections:
        guards = [x.ops for x in codegen_injections]
        ops = None if None in guards else frozenset().union(*guards)
        label = (CODEGEN_PHASE, ", ".join(x.spelled() for x in codegen_injections))
        steps.setdefault(CODEGEN_PHASE, []).append(Step(partial(_inject_codegen, codegen_injections), ops, label))
    return sorted(steps.items(), key=lambda item: PHASES.index(item[0]))


def _add_step(stops: list[tuple[str, list[Step]]], phase: str, step: Step) -> None:
    """``step`` last among the steps at ``phase`` (a stop of its own if there is none)."""
    for at, steps in stops:
        if at == phase:
            steps.append(step)
            return
    stops.append((phase, [step]))
    stops.sort(key=lambda item: PHASES.index(item[0]))


def _add_first(stops: list[tuple[str, list[Step]]], phase: str, const_eval) -> None:
    """``const_eval`` first among the steps at ``phase`` (a stop of its own if there is none)."""
    _add_step(stops, phase, Step(const_eval, frozenset(const_eval.OPS), (phase, "const-eval")))
    steps = next(steps for at, steps in stops if at == phase)
    steps.insert(0, steps.pop())


def _check_request(input_path: str, end: str, stops: list[str], dump_dir: str | None, have_data: bool) -> None:
    if end not in PHASES:
        raise CompileError(f"unknown phase '{end}' for --compile-to (phases: {', '.join(PHASES)})")
    for phase in stops:
        if PHASES.index(phase) >= PHASES.index(end):
            raise CompileError(f"an injection at phase '{phase}' comes at or after --compile-to={end}")
    if not have_data and not os.path.exists(input_path):
        raise CompileError(f"cannot open input file '{input_path}'")
    if dump_dir:
        try:
            os.makedirs(dump_dir, exist_ok=True)
        except OSError as e:
            raise CompileError(f"cannot use '{dump_dir}' for --dump-phases: {e.strerror}") from None


# --------------------------------------------------------------------------
# The steps a stop runs on the module
# --------------------------------------------------------------------------


def _run_injection(j: Injection, c: Compilation, module) -> CompileResult | None:
    tag = c.dump_before(j.phase, module)
    if not c.run_pipeline(j.pipeline, module):
        return c.failed(f"injected pipeline '{j.pipeline}' failed at phase '{j.phase}'")
    c.dump_after(tag, module)
    return None


def _run_hook(fn, c: Compilation, module) -> None:
    from iree.compiler import ir

    with c.ctx, ir.Location.unknown():
        fn(module)


def _list_codegen(c: Compilation, module) -> CompileResult:
    from iree.compiler import ir

    from . import codegen

    with c.ctx, ir.Location.unknown():
        text = codegen.list_codegen_passes(module, c.iree_flags)
    return c.answer((text + "\n").encode())


def _run_frontend(injections, listing: bool, iree_flags, c: Compilation, module) -> CompileResult | None:
    """The torch/ONNX frontend lowering, run by opt-py with ``injections`` at their points (or listed)."""
    from iree.compiler import ir

    with c.ctx, ir.Location.unknown():
        fe = input_conversion.frontend(module, iree_flags)
        if listing:
            return c.answer((fe.listing() + "\n").encode())
        tag = c.dump_before("input", module)
        if any(x.ops is not None for x in injections):  # fixes that find none of their ops are left out
            names = c.op_names(module)
            injections = [x for x in injections if x.ops is None or names is None or x.ops & names]
        try:
            input_conversion.run_frontend(fe, injections, module, c.run_pipeline, c.messages.append)
        except CompileError as e:
            return c.failed(str(e))
        c.dump_after(tag, module)
    return None


def _inject_codegen(injections, c: Compilation, module) -> CompileResult | None:
    from iree.compiler import ir

    from . import codegen

    if any(x.ops is not None for x in injections):  # the step ran: one of them has work; those that have none go
        names = c.op_names(module)
        injections = [x for x in injections if x.ops is None or names is None or x.ops & names]
    with c.ctx, ir.Location.unknown():
        tag = c.dump_before("codegen", module)
        try:
            reached = codegen.inject_into_codegen(module, c.iree_flags, injections, c.run_pipeline, c.messages.append)
        except CodegenError as e:
            return c.failed(str(e))
        if not reached:
            c.messages.append(
                "opt-py: warning: no dispatch function's codegen pipeline has the "
                "--inject-codegen insertion point(s); see --list-codegen-passes"
            )
        c.dump_after(tag, module)
    return None


# --------------------------------------------------------------------------
# One invocation
# --------------------------------------------------------------------------


class Compilation:
    """One IREE session and invocation, and what it reports, from parsing to output.

    IREE's own work (parse, phases, import) runs through ``in_iree``; opt-py's
    pipelines run through ``run_pipeline``. ``reached`` is the last phase
    compiled: the next ``compile_to`` resumes after it.
    """

    def __init__(self, input_path: str, iree_flags: list[str], opt_options, dump_dir: str | None):

        from ..run.engine import OptOptions, RunHooks

        self.lib = compiler_api.library()  # before the session: API objects keep the handle they are made with
        if progress.diagnosis:  # a crash re-run: IREE writes a reproducer of the pass that crashes
            compiler_api.reproduce_crashes(self.lib, iree_flags, progress.diagnosis)
        self.session = _session(self.lib, iree_flags)
        self.ctx = self.session.context
        self.collector = Collector(self.ctx)
        self.inv = self.session.invocation()
        if progress.diagnosis:
            # MLIR writes a local reproducer only without threads; IREE's console
            # handler prints notes, among them the one naming the pass that crashed.
            self.ctx.enable_multithreading(False)
            self.inv.enable_console_diagnostics()
        self.input_path, self.iree_flags, self.dump_dir = input_path, iree_flags, dump_dir
        self.opts, self.hooks = opt_options or OptOptions(), RunHooks()
        self.messages: list[str] = []
        self.sources: dict[str, str] = {}
        self.data = b""
        self.from_data = False  # the input's bytes were handed in (parsed from memory, not from the file)
        self.reached: str | None = None
        self.dumps = 0
        self.skipped: list[tuple[str, str]] = []  # guarded steps that found no op to work on

    def __enter__(self) -> Compilation:
        return self

    def __exit__(self, *exc) -> None:
        self.collector.detach()
        self.inv.close()
        self.session.close()

    # what the user sees

    def report(self) -> list[str]:
        """The diagnostics collected since the last report, rendered."""
        out = [render(d, {}, self.sources) for d in self.collector.diags]
        self.collector.diags.clear()
        return out

    def failed(self, line: str) -> CompileResult:
        return self._result(False, b"", self.messages + self.report() + [f"opt-py: error: {line}"])

    def answer(self, data: bytes) -> CompileResult:
        return self._result(True, data, self.messages + self.report())

    def _result(self, ok: bool, data: bytes, messages: list[str]) -> CompileResult:
        return CompileResult(
            ok, data, messages, self.hooks.rewrites or [], dict(self.hooks.seconds), list(self.skipped)
        )

    # IREE's side

    def in_iree(self, call):
        """``call()``, an IREE library call that runs passes, with no Python diagnostic handler.

        IREE runs passes on LLVM's worker threads, and a diagnostic emitted on
        one (a nested pipeline's ``ParallelDiagnosticHandler`` flushes there)
        calls every handler in the context. The Python one needs the GIL, which
        the calling thread holds through the PyDLL handle: a deadlock. Releasing
        the GIL instead aborts: the bindings' handler frees its diagnostic
        object after giving the GIL back. So while IREE runs, the Collector
        steps aside and the invocation's own console handler prints the
        diagnostics into a captured stderr; they join the messages rendered as
        the Collector's are (that handler prints no notes).
        """
        from ..pipeline.cpp import captured_stderr

        with self.collector.paused(), captured_stderr() as err:
            try:
                return call()
            finally:  # also when the call raises (a failed import): its diagnostics are kept, the capture closed
                lines = from_console(err.text())
                self.messages += [d if isinstance(d, str) else render(d, {}, self.sources) for d in lines]

    def read_input(self, data: bytes | None = None) -> None:
        """Read the input once (it may be a FIFO or /dev/stdin), unless ``data`` holds it already."""
        if data is not None:
            self.data, self.from_data = data, True
        else:
            try:
                with open(self.input_path, "rb") as f:
                    self.data = f.read()
            except OSError as e:
                raise CompileError(f"cannot open input file '{self.input_path}': {e.strerror}") from None
        self.sources[self.input_path] = self.data.decode(errors="replace")

    def parse(self) -> bool:
        from iree.compiler import api

        if not self.from_data and stat.S_ISREG(os.stat(self.input_path).st_mode):
            source = api.Source.open_file(self.session, self.input_path)
        else:
            source = api.Source.wrap_buffer(self.session, self.data, buffer_name=self.input_path)
        with progress.step("iree", "parse"):
            return self.in_iree(lambda: self.inv.parse_source(source))

    def compile_to(self, phase: str) -> bool:
        """Run IREE's phases after ``reached`` up to and including ``phase``.

        A crash re-run (``run/progress.py``) runs them one phase at a time and
        remembers the one that fails: the phase of the crash."""
        if phase == "start":  # parsed: IREE has nothing to run (and refuses --compile-to=start)
            return True
        first = PHASES.index(self.reached or "start") + 1
        for to in PHASES[first : PHASES.index(phase) + 1] if progress.diagnosis else [phase]:
            compiler_api.set_phases(self.lib, self.inv, self.reached, to)
            with progress.step("iree", f"phases {PHASES[first]} {to}"):
                ok = self.in_iree(self.inv.execute)
            if not ok:
                progress.remember(progress.FAILED, to)
                return False
            self.reached = to
            first = PHASES.index(to) + 1
        return True

    def export(self):
        """The module, handed to Python."""
        module = self.inv.export_module()
        self.messages += self.report()
        return module

    def op_names(self, module=None) -> frozenset[str] | None:
        """The names of the ops in the module (nested ones too), counted by MLIR's op-stats pass in C++: on
        IREE's side before the module is exported (``module`` None), else on ``module``. None if the count
        failed: then every guarded step runs."""
        from ..pipeline.cpp import captured_stderr

        with progress.step("iree", "op names"), self.collector.paused(), captured_stderr() as err:
            if module is None:
                ok = self.inv.execute_text_pass_pipeline(OP_STATS)
            else:
                from iree.compiler import ir, passmanager

                try:
                    with self.ctx:
                        passmanager.PassManager.parse(f"builtin.module({OP_STATS})").run(module.operation)
                    ok = True
                except (ValueError, ir.MLIRError):
                    ok = False
        text = err.text()
        if not ok or "{" not in text:
            return None
        try:
            return frozenset(json.loads(text[text.index("{") : text.rindex("}") + 1]))
        except ValueError:
            return None

    def import_(self, module) -> None:
        """Hand ``module`` back to IREE."""
        with progress.step("iree", f"import {self.reached or 'start'}"):
            self.in_iree(lambda: self.inv.import_module(module))

    def output(self, as_ir: bool) -> CompileResult:
        from iree.compiler import api

        self.messages += self.report()
        out = api.Output.open_membuffer()
        try:
            with progress.step("iree", "output"):
                if as_ir:
                    self.inv.output_ir(out)
                else:
                    self.inv.output_vm_bytecode(out)
        except ValueError as e:
            return self.failed(str(e))
        data = bytes(out.map_memory())
        out.close()
        return self._result(True, data, self.messages)

    # opt-py's side

    def check_pipelines(self, pipelines: list[str]) -> None:
        """Report a bad pipeline before compiling anything."""
        from ..pipeline.plan import plan_pipeline

        with self.ctx:
            for text in pipelines:
                plan_pipeline(text)

    def run_pipeline(self, pipeline_text: str, op) -> bool:
        from iree.compiler import ir

        from ..pipeline.plan import plan_pipeline
        from ..run.engine import run_plan

        plan = plan_pipeline(pipeline_text)
        with self.ctx, ir.Location.unknown():
            if any(step.pass_.py is not None for step in plan.steps):
                # A Python pass builds ops by name: a dialect IREE has registered but not loaded would give
                # them as unregistered ops (IREE's context allows those), which verify and crash IREE later.
                self.ctx.load_all_available_dialects()
            return run_plan(plan, op, self.opts, self.hooks, self.collector)

    def dump_before(self, label: str, module) -> str:
        """Write the module into the dump directory (--dump-phases) before a step; the step's tag."""
        tag = f"{self.dumps:02d}-{label}"
        self.dumps += 1
        self._dump(f"{tag}-before.mlir", module)
        return tag

    def dump_after(self, tag: str, module) -> None:
        self._dump(f"{tag}-after.mlir", module)

    def _dump(self, name: str, module) -> None:
        if not self.dump_dir:
            return
        os.makedirs(self.dump_dir, exist_ok=True)
        with open(os.path.join(self.dump_dir, name), "w") as f:
            f.write(module.get_asm(assume_verified=True))


def _session(lib, iree_flags: list[str]):
    """An IREE session with ``iree_flags``: those a session does not take but iree-compile knows
    (LLVM's process-wide options) are set for the process first, as iree-compile sets them. A
    process-wide option an earlier compile of this process set, and this one does not ask for, would
    silently apply to it: refused."""
    from iree.compiler import api

    earlier = compiler_api.process_wide_set()
    session = api.Session()
    try:
        session.set_flags(*iree_flags)
    except ValueError as e:
        wide = compiler_api.process_wide(iree_flags)
        if not wide:
            raise CompileError(f"iree-compile flags: {str(e).strip()}") from None
        try:
            if not set(wide) <= set(earlier):  # a crash re-run set every flag for the process already
                compiler_api.set_process_wide(lib, wide)
        except RuntimeError as refused:
            raise CompileError(f"iree-compile flags: {refused}") from None
        session = api.Session()  # made after the process-wide options: it takes them
        try:
            session.set_flags(*[f for f in iree_flags if f not in wide])
        except ValueError as e2:
            raise CompileError(f"iree-compile flags: {str(e2).strip()}") from None
        return session
    if earlier and not set(earlier) <= set(iree_flags):
        raise CompileError(
            f"iree-compile flags: process-wide IREE options {' '.join(earlier)} were set by an earlier compile "
            "in this process and would apply to this one; compile in a process of its own"
        )
    return session

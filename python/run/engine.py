"""Plan x IR -> IR: the stages of a plan over one module, and running them.

A plan becomes stages over the IR at hand: consecutive C++ passes as one
textual segment (nesting and all, so MLIR runs them exactly as it would), and
each Python pass on its own, visiting the ops its step names. Two strategies
run the stages. With timing, statistics or IR printing requested, one
PassManager runs everything, each Python pass a root-level ``ExternalPass``,
so MLIR's reports see every pass in order. Otherwise each C++ segment runs on
its own PassManager (MLIR verifies after each of its passes) and each Python
pass is called directly and verified only when it changed something: MLIR
would re-verify the whole module after every Python pass, since the bindings'
ExternalPass cannot declare that it preserved the IR. A differential test
checks both give the same IR.
"""

from __future__ import annotations

import contextlib
import functools
import io
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..authoring import PassContext, PatternPass
from ..errors import PipelineError
from ..pipeline.plan import Plan, Step
from . import progress
from .diagnostics import Collector, Diag, format_location
from .opt_options import OptOptions
from .placement import concrete_paths, nest_text, targets


def make_context(opts: OptOptions | None = None, all_dialects: bool = True):
    """A context for a run: the warm server's where there is one, else a new one.

    ``all_dialects``: every available dialect loaded (else they load as IR
    names them; see ``bindings.new_context``).
    """
    from .bindings import new_context, stub_missing_dialect_modules, take_warm_context

    stub_missing_dialect_modules()
    ctx = take_warm_context(all_dialects) or new_context(all_dialects)
    if opts is not None:
        ctx.allow_unregistered_dialects = opts.allow_unregistered_dialect
        # MLIR refuses (aborts) module-scope IR printing with threads on.
        if opts.disable_threading or opts.print_ir_module_scope:
            ctx.enable_multithreading(False)
    return ctx


@dataclass
class RunHooks:
    """What the caller wants to hear from Python passes."""

    debug_patterns: object = None  # callable(str) or None
    rename: dict = field(default_factory=dict)  # file names in locations -> names to print
    failures: list = field(default_factory=list)  # (pass name, exception, traceback)
    stats: dict = field(default_factory=dict)  # pass name -> {pattern: count}
    rewrites: list | None = None  # a list to record each rewrite in (authoring.Rewrite), or None
    seconds: dict = field(default_factory=dict)  # pass name -> seconds its runs took, all together


@dataclass
class Stage:
    """A run of C++ passes as one textual pipeline, or one Python pass."""

    cpp: str | None = None
    py: Step | None = None


def stages(plan: Plan, root) -> list[Stage]:
    """The plan for this IR: consecutive C++ passes merged, Python passes alone."""
    if plan.root not in (None, "any") and root.name != plan.root:
        raise PipelineError(f"can't run a pipeline anchored on '{plan.root}' on a '{root.name}' op")
    out: list[Stage] = []
    pending: list[tuple[tuple[str, ...], str]] = []

    def flush():
        if pending:
            out.append(Stage(cpp=nest_text(pending)))
            pending.clear()

    for step in plan.steps:
        if step.pass_.py is None:
            for path in concrete_paths(root, step):
                pending.append((path, step.pass_.ref.text()))
            continue
        flush()
        out.append(Stage(py=step))
    flush()
    return out


def pass_manager_for(plan: Plan, root):
    from iree.compiler import passmanager

    return passmanager.PassManager(plan.root if plan.root == "any" else root.name)


def add_cpp(pm, text: str, plan: Plan) -> None:
    try:
        pm.add(text)
    except ValueError as e:
        msg = " ".join(line.strip() for line in str(e).splitlines() if line.strip())
        raise PipelineError(f"cannot build pipeline segment '{text}': {msg}", plan.text) from None


def build_pass_manager(plan: Plan, root, hooks: RunHooks):
    """One PassManager running the whole plan on ``root``, C++ and Python in order.

    Used when MLIR's instrumentation (timing, IR printing, statistics) must
    see every pass; each Python pass is a root-level ExternalPass.
    """
    pm = pass_manager_for(plan, root)
    for stage in stages(plan, root):
        if stage.cpp is not None:
            add_cpp(pm, stage.cpp, plan)
        else:
            _add_python_pass(pm, stage.py, hooks)
    return pm


def run_python_step(step: Step, root, hooks: RunHooks) -> tuple[bool, bool]:
    """Run a Python pass on the ops its step names under ``root``.

    Returns (succeeded, may have changed the IR). Failures are emitted as
    located errors; a pattern pass that applied no pattern changed nothing.
    """
    name = step.pass_.py.name
    start = time.perf_counter()
    try:
        with progress.step("python", name):
            return _run_python_step(step, root, hooks)
    finally:
        hooks.seconds[name] = hooks.seconds.get(name, 0.0) + time.perf_counter() - start


def _run_python_step(step: Step, root, hooks: RunHooks) -> tuple[bool, bool]:
    from .rewrite_driver import PatternFailure, apply_pattern_pass, nothing_to_match

    p = step.pass_.py
    stats = hooks.stats.setdefault(p.name, {})
    before = sum(stats.values())
    ctx = PassContext(p.name, hooks.debug_patterns, stats, hooks.rename, hooks.rewrites)
    ctx.locate = functools.partial(format_location, rename=hooks.rename)

    def failed(where, e) -> tuple[bool, bool]:
        where.location.emit_error(f"pass '{p.name}' failed: {type(e).__name__}: {e}")
        hooks.failures.append((p.name, e, traceback.format_exc()))
        return False, True

    if isinstance(p, PatternPass):
        try:
            if nothing_to_match(p, root, ctx):  # calls the pass's patterns()
                return True, False
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            return failed(root, e)
    for target in targets(root, step):
        try:
            op = target.opview if hasattr(target, "opview") else target
            if isinstance(p, PatternPass):
                apply_pattern_pass(p, op, ctx)
            else:
                p.run(op, ctx)
        except PatternFailure as e:
            e.location.emit_error(
                f"pass '{p.name}' failed: pattern '{e.pattern_name}' raised "
                f"{type(e.cause).__name__}: {e.cause} (rewriting '{e.op_name}')"
            )
            hooks.failures.append((p.name, e.cause, e.tb))
            return False, True
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            return failed(target, e)
        if ctx.failed:
            return False, True
    changed = not isinstance(p, PatternPass) or sum(stats.values()) != before
    return True, changed


def _add_python_pass(pm, step: Step, hooks: RunHooks):
    p = step.pass_.py

    def run(op, pass_handle):
        with errors_to_handlers(op.context, False):  # a pass's own parse errors stay its exceptions
            ok, _changed = run_python_step(step, op, hooks)
        if not ok:
            pass_handle.signal_pass_failure()

    pm.add(run, name=type(p).__name__, argument=p.name, description=p.summary)


def run_plan(plan: Plan, root, opts: OptOptions, hooks: RunHooks, collector: Collector) -> bool:
    """Run the plan on ``root``; False on failure (diagnostics in ``collector``).

    With timing, statistics or IR printing requested, one PassManager runs
    everything so MLIR's reports see every pass. Otherwise each run of C++
    passes gets its own PassManager (MLIR verifies after each of them) and
    Python passes are called directly and verified only when they changed
    something: MLIR would re-verify the whole module after every Python pass,
    since the bindings' ExternalPass cannot say it preserved the IR.
    """
    from iree.compiler import ir

    # A crash re-run (run/progress.py) runs each C++ segment on its own, to save it first.
    instrumented = (opts.prints_ir or opts.timing or opts.pass_statistics) and not progress.diagnosis
    if not plan.steps:
        if opts.verify_each:
            try:
                _verify(root)
            except ir.MLIRError as e:
                collector.add_error(e)
                return False
        return True
    with progress.step("pipeline", plan.text):
        if instrumented:
            return _run_on_one_pass_manager(plan, root, opts, hooks, collector)
        return _run_stages(plan, root, opts, hooks, collector)


def _run_stages(plan: Plan, root, opts: OptOptions, hooks: RunHooks, collector: Collector) -> bool:
    """Each C++ segment on its own PassManager, each Python pass called directly (see ``run_plan``)."""
    from iree.compiler import ir

    for stage in stages(plan, root):
        if stage.cpp is not None:
            pm = pass_manager_for(plan, root)
            add_cpp(pm, stage.cpp, plan)
            pm.enable_verifier(opts.verify_each)
            seen = collector.errors_seen
            if progress.diagnosis:
                save_reproducer(root, stage.cpp, progress.diagnosis)
            try:
                with errors_to_handlers(root.context), progress.step("cpp", stage.cpp):
                    pm.run(root)
            except ir.MLIRError as e:
                collector.add_error(e, seen)
                return False
            finally:
                del pm
            continue
        ok, changed = run_python_step(stage.py, root, hooks)
        if not ok:
            return False
        if changed and opts.verify_each:
            try:
                _verify(root)
            except ir.MLIRError as e:
                collector.add_error(e)
                collector.diags.append(Diag("error", f"IR verification failed after pass '{stage.py.pass_.py.name}'"))
                return False
    return True


def _run_on_one_pass_manager(plan: Plan, root, opts: OptOptions, hooks: RunHooks, collector: Collector) -> bool:
    from iree.compiler import ir

    pm = build_pass_manager(plan, root, hooks)
    pm.enable_verifier(opts.verify_each)
    if opts.prints_ir:
        pm.enable_ir_printing(
            print_before_all=opts.print_ir_before_all,
            # After-change or after-failure alone mean "show me those dumps" (in
            # MLIR they only modify print-after-all).
            print_after_all=opts.print_ir_after_all or opts.print_ir_after_change or opts.print_ir_after_failure,
            print_module_scope=opts.print_ir_module_scope,
            print_after_change=opts.print_ir_after_change,
            print_after_failure=opts.print_ir_after_failure,
            enable_debug_info=opts.print_debuginfo,
            print_generic_op_form=opts.print_op_generic,
        )
    if opts.timing:
        pm.enable_timing()
    if opts.pass_statistics:
        pm.enable_statistics()
    seen = collector.errors_seen
    try:
        with errors_to_handlers(root.context):
            pm.run(root)
        return True
    except ir.MLIRError as e:
        collector.add_error(e, seen)
        return False
    finally:
        del pm  # timing and statistics reports print when the pass manager goes


SEGMENT_REPRODUCER = "segment.mlir"


def save_reproducer(root, cpp: str, directory: str) -> None:
    """``root`` and the C++ segment about to run on it, as an MLIR reproducer file in ``directory``
    (``iree-opt --run-reproducer`` runs it): written by a crash re-run before each segment."""
    import os

    pipeline = f"builtin.module({cpp})" if root.name == "builtin.module" else f"builtin.module({root.name}({cpp}))"
    text = root.get_asm(enable_debug_info=True, assume_verified=True)
    if root.name != "builtin.module":
        text = "module {\n" + text + "\n}"
    resources = (
        "\n{-#\n  external_resources: {\n    mlir_reproducer: {\n"
        f'      pipeline: "{_mlir_string(pipeline)}",\n      disable_threading: true,\n      verify_each: true\n'
        "    }\n  }\n#-}\n"
    )
    with open(os.path.join(directory, SEGMENT_REPRODUCER), "w") as f:
        f.write(text + resources)


def _mlir_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


@contextmanager
def errors_to_handlers(ctx, on: bool = True):
    """Errors emitted while running a PassManager go to the context's handlers
    (the Collector), as mlir-opt prints them: by default the bindings capture
    them into the MLIRError that a failure raises, and drop them when the pass
    emitting them still succeeds. (Tried with 300 functions failing the
    verifier on worker threads: no deadlock, unlike ``Operation.verify``.)"""
    before = ctx.emit_error_diagnostics
    ctx.emit_error_diagnostics = on
    try:
        yield
    finally:
        ctx.emit_error_diagnostics = before


def print_ir(root, opts: OptOptions, verified: bool = False) -> bytes:
    """The IR as mlir-opt writes it, as bytes.

    Printed into a BytesIO: the bindings call ``write`` once per token, and a
    bytes sink costs less than ``get_asm``'s str one. ``verified``
    (the caller knows the IR verifies) spares the printer its own verification.
    """
    buf = io.BytesIO()
    if opts.emit_bytecode:
        root.write_bytecode(buf)
    else:
        root.print(
            enable_debug_info=opts.print_debuginfo,
            print_generic_op_form=opts.print_op_generic,
            use_local_scope=opts.print_local_scope,
            assume_verified=verified,
            file=buf,
            binary=True,
        )
    return buf.getvalue()


def _verify(root):
    """``root.verify()`` on one thread (see ``single_threaded``)."""
    with single_threaded(root.context):
        root.verify()


@contextlib.contextmanager
def single_threaded(ctx):
    """The context's threads off for a verifying call made with the GIL held:
    ``Operation.verify`` and ``Module.parse``/``parseFile`` (the parser
    verifies). The bindings keep the GIL while MLIR verifies regions on
    worker threads, and a worker that reports an error waits for the GIL
    that the waiting caller holds: a deadlock (seen in opt-py compile, and
    in runs of a split input whose chunks fail to verify). A big parse is
    no slower for it on a small machine (docs/reports/performance.md)."""
    threaded = ctx.get_num_threads() > 1
    if threaded:
        ctx.enable_multithreading(False)
    try:
        yield
    finally:
        if threaded:
            ctx.enable_multithreading(True)

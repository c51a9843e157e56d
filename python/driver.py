"""Running a pipeline over MLIR input: the engine behind ``opt-py`` and the API.

``run_pipeline`` is the library entry point (scripts, notebooks); ``run_opt``
is the mlir-opt-like whole job over one input (split chunks, diagnostics,
verification, printing), used by the CLI.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from dataclasses import dataclass, field

from .api import OptPyError
from .diagnostics import Collector, Diag, VerifyError, parse_expectations, render, verify
from .pipeline import (Plan, PipelineError, RunHooks, add_cpp, build_pass_manager, pass_manager_for,
                       plan_pipeline, run_python_step, stages)

SPLIT_MARKER = "// -----"
_BYTECODE_MAGIC = b"ML\xefR"


@dataclass
class OptOptions:
    pipeline: str = ""
    split_input_file: bool = False
    verify_diagnostics: bool = False
    print_ir_before_all: bool = False
    print_ir_after_all: bool = False
    print_ir_after_change: bool = False
    print_ir_after_failure: bool = False
    print_ir_module_scope: bool = False
    timing: bool = False
    pass_statistics: bool = False
    verify_each: bool = True
    allow_unregistered_dialect: bool = False
    print_op_generic: bool = False
    print_debuginfo: bool = False
    print_local_scope: bool = False
    emit_bytecode: bool = False
    disable_threading: bool = False
    debug_patterns: bool = False
    debug: bool = False

    @property
    def prints_ir(self) -> bool:
        return any((self.print_ir_before_all, self.print_ir_after_all, self.print_ir_after_change,
                    self.print_ir_after_failure))


class PipelineFailed(OptPyError):
    """The pipeline failed; ``diagnostics`` holds what MLIR and the passes said."""

    def __init__(self, diagnostics: list[Diag], rendered: str):
        self.diagnostics = diagnostics
        super().__init__(rendered)


def make_context(opts: OptOptions | None = None):
    from iree.compiler import ir

    from .bindings import stub_missing_dialect_modules

    stub_missing_dialect_modules()
    ctx = ir.Context()
    if opts is not None:
        ctx.allow_unregistered_dialects = opts.allow_unregistered_dialect
        # MLIR refuses (aborts) module-scope IR printing with threads on.
        if opts.disable_threading or opts.print_ir_module_scope:
            ctx.enable_multithreading(False)
    return ctx


# --------------------------------------------------------------------------
# The library API
# --------------------------------------------------------------------------


def run_pipeline(module_or_text, pipeline: str, *, context=None, options: OptOptions | None = None):
    """Run ``pipeline`` (C++ and Python passes) on a module or on IR text.

    Given text, returns the resulting text; given an ``ir.Module`` or
    ``ir.Operation``, rewrites it in place and returns it. Raises
    ``PipelineFailed`` with the diagnostics when anything fails.
    """
    from iree.compiler import ir

    opts = options or OptOptions()
    as_text = isinstance(module_or_text, (str, bytes))
    ctx = context or (make_context(opts) if as_text else module_or_text.context)
    collector = Collector(ctx)
    try:
        with ctx, ir.Location.unknown():
            plan = plan_pipeline(pipeline)
            if as_text:
                try:
                    module = ir.Module.parse(module_or_text)
                except ir.MLIRError as e:
                    collector.add_error(e)
                    raise _failed(collector.diags, {"-": "<input>"}, {}) from None
                root = module.operation
            else:
                module = module_or_text
                root = module.operation if hasattr(module, "operation") else module
            hooks = RunHooks()
            ok = _run_plan(plan, root, opts, hooks, collector)
            if not ok:
                raise _failed(collector.diags, {"-": "<input>"}, {}, hooks, opts.debug)
            return _print(root, opts) if as_text else module_or_text
    finally:
        collector.detach()


def _failed(diags, rename, sources, hooks=None, debug=False) -> PipelineFailed:
    text = "\n".join(render(d, rename, sources) for d in diags)
    if hooks is not None and debug:
        for name, _exc, tb in hooks.failures:
            text += f"\n--- traceback of Python pass '{name}' ---\n{tb}"
    return PipelineFailed(list(diags), text)


def _run_plan(plan: Plan, root, opts: OptOptions, hooks: RunHooks, collector: Collector) -> bool:
    """Run the plan on ``root``; False on failure (diagnostics in ``collector``).

    With timing, statistics or IR printing requested, one PassManager runs
    everything so MLIR's reports see every pass. Otherwise each run of C++
    passes gets its own PassManager (MLIR verifies after each of them) and
    Python passes are called directly and verified only when they changed
    something: MLIR would re-verify the whole module after every Python pass,
    since the bindings' ExternalPass cannot say it preserved the IR.
    """
    from iree.compiler import ir

    instrumented = opts.prints_ir or opts.timing or opts.pass_statistics
    if not plan.steps:
        if opts.verify_each:
            try:
                root.verify()
            except ir.MLIRError as e:
                collector.add_error(e)
                return False
        return True
    if instrumented:
        return _run_single_pass_manager(plan, root, opts, hooks, collector)
    for stage in stages(plan, root):
        if stage.cpp is not None:
            pm = pass_manager_for(plan, root)
            add_cpp(pm, stage.cpp, plan)
            pm.enable_verifier(opts.verify_each)
            try:
                pm.run(root)
            except ir.MLIRError as e:
                collector.add_error(e)
                return False
            finally:
                del pm
            continue
        ok, changed = run_python_step(stage.py, root, hooks)
        if not ok:
            return False
        if changed and opts.verify_each:
            try:
                root.verify()
            except ir.MLIRError as e:
                collector.add_error(e)
                collector.diags.append(Diag("error", f"IR verification failed after pass '{stage.py.pass_.py.name}'"))
                return False
    return True


def _run_single_pass_manager(plan: Plan, root, opts: OptOptions, hooks: RunHooks, collector: Collector) -> bool:
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
    try:
        pm.run(root)
        return True
    except ir.MLIRError as e:
        collector.add_error(e)
        return False
    finally:
        del pm  # timing and statistics reports print when the pass manager goes


def _print(root, opts: OptOptions):
    if opts.emit_bytecode:
        buf = io.BytesIO()
        root.write_bytecode(buf)
        return buf.getvalue()
    return root.get_asm(
        enable_debug_info=opts.print_debuginfo,
        print_generic_op_form=opts.print_op_generic,
        use_local_scope=opts.print_local_scope,
    )


# --------------------------------------------------------------------------
# The mlir-opt job
# --------------------------------------------------------------------------


@dataclass
class OptResult:
    ok: bool
    output: bytes = b""
    stderr: list[str] = field(default_factory=list)


def split_chunks(text: str) -> list[tuple[int, str]]:
    """(first line, chunk text padded to keep the file's line numbers)."""
    chunks, current, first = [], [], 1
    for no, line in enumerate(text.split("\n"), start=1):
        if line.rstrip().startswith(SPLIT_MARKER) and line.strip().strip("/ -") == "":
            chunks.append((first, "\n" * (first - 1) + "\n".join(current)))
            current, first = [], no + 1
        else:
            current.append(line)
    chunks.append((first, "\n" * (first - 1) + "\n".join(current)))
    return chunks


def run_opt(data: bytes, display_name: str, path: str | None, opts: OptOptions, err=None) -> OptResult:
    """Everything ``opt-py [flags] INPUT`` does, minus argument parsing and writing."""
    from iree.compiler import ir

    err = err or (lambda line: print(line, file=sys.stderr, flush=True))
    result = OptResult(ok=True)
    # One context for the whole input: creating one costs ~15 ms.
    ctx = make_context(opts)
    try:
        with ctx:
            plan = plan_pipeline(opts.pipeline)
    except OptPyError as e:
        err(f"opt-py: error: {e}")
        return OptResult(ok=False)

    is_bytecode = data.startswith(_BYTECODE_MAGIC)
    text = "" if is_bytecode else data.decode("utf-8", errors="replace")
    depth = _max_nesting(text)
    if depth > MAX_NESTING:
        err(f"{display_name}: error: input nests brackets {depth} levels deep; opt-py refuses more than "
            f"{MAX_NESTING} (MLIR's recursive parser would overflow the stack)")
        return OptResult(ok=False)
    if is_bytecode or not opts.split_input_file:
        chunks = [(1, text)]
    else:
        chunks = split_chunks(text)
    rename = {"-": display_name}
    sources = {display_name: text}
    if path:
        sources[path] = text
    outputs: list[bytes] = []
    all_ok = True
    debug = (lambda line: print(line, file=sys.stderr, flush=True)) if opts.debug_patterns else None

    for _first, chunk in chunks:
        collector = Collector(ctx)
        hooks = RunHooks(debug_patterns=debug, rename=rename)
        ok, out = True, None
        with ctx, ir.Location.unknown():
            try:
                if is_bytecode:
                    module = ir.Module.parse(data)
                elif path and len(chunks) == 1 and _regular_file(path):
                    module = ir.Module.parseFile(path)  # file locations; a FIFO could not be read twice
                else:
                    module = ir.Module.parse(chunk)
            except ir.MLIRError as e:
                collector.add_error(e)
                module, ok = None, False
            except (RuntimeError, ValueError, UnicodeError) as e:
                # e.g. bytecode whose strings are not UTF-8: not an MLIRError
                collector.diags.append(Diag("error", f"cannot parse input: {e}", display_name, 0, 0))
                module, ok = None, False
            if module is not None:
                try:
                    ok = _run_plan(plan, module.operation, opts, hooks, collector)
                except PipelineError as e:
                    err(f"opt-py: error: {e}")
                    collector.detach()
                    return OptResult(ok=False)
                if ok:
                    out = _print(module.operation, opts)
            if opts.pass_statistics and hooks.stats:
                err(_python_statistics(hooks.stats))
        collector.detach()

        if opts.verify_diagnostics:
            try:
                problems = verify(parse_expectations(chunk), collector.diags, display_name)
            except VerifyError as e:
                problems = [f"{display_name}:{e}"]
            for p in problems:
                err(p)
            all_ok = all_ok and not problems
        else:
            for d in collector.diags:
                err(render(d, rename, sources))
            if hooks.failures and opts.debug:
                for name, _exc, tb in hooks.failures:
                    err(f"--- traceback of Python pass '{name}' ---\n{tb.rstrip()}")
            all_ok = all_ok and ok
        if out is not None:
            outputs.append(out if isinstance(out, bytes) else out.encode())

    result.ok = all_ok
    if all_ok:
        if opts.emit_bytecode:
            result.output = b"".join(outputs)
        else:
            result.output = (SPLIT_MARKER + "\n").encode().join(
                o if o.endswith(b"\n") else o + b"\n" for o in outputs
            )
    return result


MAX_NESTING = 10_000


def _max_nesting(text: str) -> int:
    """Deepest nesting of any one bracket kind ``( [ { <``, counted roughly
    (strings and comments included, ``->`` not a closer): MLIR's parser
    recurses on each."""
    openers = sum(text.count(c) for c in "([{<")
    if openers <= MAX_NESTING:
        return openers  # cannot be deeper than the number of openers
    import numpy as np

    chars = np.frombuffer(text.replace("->", "  ").encode("utf-32-le"), dtype=np.uint32)
    deepest = 0
    for opener, closer in ("()", "[]", "{}", "<>"):
        steps = (chars == ord(opener)).astype(np.int32) - (chars == ord(closer)).astype(np.int32)
        deepest = max(deepest, int(np.cumsum(steps).max(initial=0)))
    return deepest


def _python_statistics(stats: dict) -> str:
    bar = "===" + "-" * 73 + "==="
    lines = [bar, "                ... Pass statistics report (opt-py Python passes) ...", bar]
    for pass_name, counts in stats.items():
        lines.append(f"'{pass_name}'")
        for pattern_name, n in sorted(counts.items()):
            lines.append(f"  (S) {n} {pattern_name} - times the pattern rewrote the IR")
        if not counts:
            lines.append("  (S) 0 rewrites")
    return "\n".join(lines)


def _regular_file(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False

"""The library API: run a pipeline of C++ and Python passes from a script.

from opt_py import run_pipeline, PipelineFailed
text = run_pipeline(ir_text, "canonicalize,my-pass")
"""

from __future__ import annotations

from ..errors import PipelineFailed
from ..patterns.ir_utils import operation
from ..pipeline.plan import plan_pipeline
from .diagnostics import Collector, render
from .engine import OptOptions, RunHooks, make_context, print_ir, run_plan, single_threaded


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
                    with single_threaded(ctx):  # the parser verifies: see single_threaded
                        module = ir.Module.parse(module_or_text)
                except ir.MLIRError as e:
                    collector.add_error(e)
                    raise _failed(collector.diags, {"-": "<input>"}, {}) from None
                root = module.operation
            else:
                module = module_or_text
                root = operation(module)
            hooks = RunHooks()
            ok = run_plan(plan, root, opts, hooks, collector)
            if not ok:
                raise _failed(collector.diags, {"-": "<input>"}, {}, hooks, opts.debug)
            if not as_text:
                return module_or_text
            out = print_ir(root, opts)
            return out if opts.emit_bytecode else out.decode("utf-8", errors="replace")
    finally:
        collector.detach()


def _failed(diags, rename, sources, hooks=None, debug=False) -> PipelineFailed:
    text = "\n".join(render(d, rename, sources) for d in diags)
    if hooks is not None and debug:
        for name, _exc, tb in hooks.failures:
            text += f"\n--- traceback of Python pass '{name}' ---\n{tb}"
    return PipelineFailed(list(diags), text)

"""opt-py: MLIR passes and rewrite patterns in Python, mixed with every C++ pass.

The public API, importable without loading the MLIR bindings::

    from opt_py import Pass, PatternPass, pattern, option, register_pass, run_pipeline

The package reads as the data flow: ``authoring`` (what a pass author
writes against) -> ``pipeline`` (text -> plan) -> ``run`` (plan x IR -> IR)
-> ``tool`` (the ``opt-py`` command) and ``iree`` (IREE's compilation and
runtime); ``passes`` and ``patterns`` hold opt-py's own passes. No module
imports this facade or a layer above its own (test/unit/test_layers.py).
"""

from .authoring import Pass, PassContext, PatternPass, Rewriter, option, pattern
from .errors import OptPyError, PipelineFailed

__all__ = [
    "OptOptions", "OptPyError", "Pass", "PassContext", "PatternPass", "PipelineFailed", "Rewriter", "option",
    "pattern", "register_pass", "run_pipeline",
]


def register_pass(cls):
    """Make a Pass subclass nameable in pipelines run by this process."""
    from .pipeline.registry import register_pass as _register

    return _register(cls)


def run_pipeline(module_or_text, pipeline, **kwargs):
    """Run a pipeline of C++ and Python passes on IR text or a module (see run/api.py)."""
    from .run.api import run_pipeline as _run

    return _run(module_or_text, pipeline, **kwargs)


def __getattr__(name):
    if name == "OptOptions":  # the options of run_pipeline(options=...); importing it loads nothing heavy
        from .run.engine import OptOptions

        return OptOptions
    raise AttributeError(f"module 'opt_py' has no attribute '{name}'")

"""opt-py: MLIR passes and rewrite patterns in Python, mixed with every C++ pass.

The public API, importable without loading the MLIR bindings::

    from opt_py import Pass, PatternPass, pattern, option, register_pass, run_pipeline
"""

from .api import OptPyError, Pass, PassContext, PatternPass, Rewriter, option, pattern

__all__ = [
    "OptPyError", "Pass", "PassContext", "PatternPass", "Rewriter", "option", "pattern",
    "register_pass", "run_pipeline",
]


def register_pass(cls):
    """Make a Pass subclass nameable in pipelines run by this process."""
    from .registry import register_pass as _register

    return _register(cls)


def run_pipeline(module_or_text, pipeline, **kwargs):
    """Run a pipeline of C++ and Python passes on IR text or a module."""
    from .driver import run_pipeline as _run

    return _run(module_or_text, pipeline, **kwargs)

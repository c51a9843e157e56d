"""opt-py: MLIR passes and rewrite patterns in Python, mixed with every C++ pass.

The public API, importable without loading the MLIR bindings::

    from opt_py import Pass, PatternPass, pattern, option, register_pass, run_pipeline

The package reads as the data flow: ``authoring`` (what a pass author
writes against) -> ``pipeline`` (text -> plan) -> ``run`` (plan x IR -> IR)
-> ``tool`` (the ``opt-py`` command) and ``iree`` (IREE's compilation and
runtime); ``passes`` and ``patterns`` hold opt-py's own passes. No module
imports this facade or a layer above its own (test/unit/test_layers.py).
"""

__all__ = [
    "OptOptions",
    "OptPyError",
    "Pass",
    "PassContext",
    "PatternPass",
    "PipelineFailed",
    "Rewriter",
    "option",
    "pattern",
    "register_pass",
    "run_pipeline",
]


def register_pass(cls):
    """Make a Pass subclass nameable in pipelines run by this process."""
    from .pipeline.registry import register_pass as _register

    return _register(cls)


def run_pipeline(module_or_text, pipeline, **kwargs):
    """Run a pipeline of C++ and Python passes on IR text or a module (see run/api.py)."""
    from .run.api import run_pipeline as _run

    return _run(module_or_text, pipeline, **kwargs)


# Bound on first use (PEP 562): ``opt-py``'s entry point lives in this package,
# and a run handed to the warm server must not pay for importing the API.
_LAZY = {
    "Pass": "authoring",
    "PassContext": "authoring",
    "PatternPass": "authoring",
    "Rewriter": "authoring",
    "option": "authoring",
    "pattern": "authoring",
    "OptPyError": "errors",
    "PipelineFailed": "errors",
    "OptOptions": "run.opt_options",  # importing it loads no MLIR bindings
}


def __getattr__(name):
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'opt_py' has no attribute '{name}'")
    import importlib

    value = getattr(importlib.import_module(f".{where}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))

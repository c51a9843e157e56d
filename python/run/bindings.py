"""Small adjustments to the MLIR Python bindings, applied once per process."""

from __future__ import annotations

import functools
import importlib.util
import sys
import types

# IREE dialects that ship no Python module in iree-base-compiler.
_DIALECTS_WITHOUT_MODULES = ("iree_linalg_ext", "iree_cpu", "iree_encoding", "check", "io_parameters",
                             "iree_vector_ext")


@functools.lru_cache(maxsize=None)
def stub_missing_dialect_modules() -> None:
    """Register empty Python modules for dialects that have none.

    Each time the bindings wrap an op, they import ``iree.compiler.dialects.<ns>``
    to find its Python class; for a dialect without a module the import fails
    and is retried every time (four filesystem searches per wrapped op: 75% of
    the time of a pass rewriting 2,000 ``iree_linalg_ext.sort`` ops). An empty
    module gives the same generic ops at no cost.
    """
    for ns in _DIALECTS_WITHOUT_MODULES:
        name = f"iree.compiler.dialects.{ns}"
        if name in sys.modules or importlib.util.find_spec(name) is not None:
            continue
        module = types.ModuleType(name, f"opt-py stub: dialect '{ns}' has no Python module")
        sys.modules[name] = module

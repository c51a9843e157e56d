"""The adjustments of run/bindings.py hold for the IREE this project installs.

A dialect with no Python module costs a filesystem search each time the
bindings wrap one of its ops, unless it is stubbed: the stub list must name
every dialect IREE registers that ships none, and only those. The linalg
dialect's module is first imported without its OpDSL.
"""

import importlib.util
import os
import subprocess
import sys

from iree.compiler.tools.binaries import find_tool
from opt_py.run.bindings import DIALECTS_WITHOUT_MODULES


def _registered_dialects() -> list[str]:
    out = subprocess.run([find_tool("iree-opt"), "--show-dialects"], capture_output=True, text=True, check=True)
    listed = out.stdout.split("Available Dialects:", 1)[1]
    return [d.strip() for d in listed.replace("\n", ",").split(",") if d.strip()]


def _has_module(ns: str) -> bool:
    """Read off the package's folder: a stub (or its absence) in sys.modules changes nothing here."""
    folders = importlib.util.find_spec("iree.compiler.dialects").submodule_search_locations
    return any(os.path.exists(os.path.join(d, ns + ".py")) or os.path.isdir(os.path.join(d, ns)) for d in folders)


def test_every_registered_dialect_without_a_module_is_stubbed():
    registered = _registered_dialects()
    assert "torch" in registered and "linalg" in registered  # the listing was read
    missing = sorted(ns for ns in registered if not _has_module(ns) and ns not in DIALECTS_WITHOUT_MODULES)
    assert missing == []


def test_the_stub_list_names_no_dialect_that_has_a_module():
    assert [ns for ns in DIALECTS_WITHOUT_MODULES if _has_module(ns)] == []


def test_wrapping_a_linalg_op_loads_its_classes_not_opdsl():
    """A pattern rooted on linalg.generic looks at every generic: the bindings then import the linalg
    dialect's module, whose OpDSL costs a cold run ~0.2 s. The first import gives the op classes alone; a
    rewrite that builds with OpDSL (linalg.copy) gets the whole module, and the classes stay the same."""
    code = """
import sys
from opt_py.run.bindings import import_bindings_lean, stub_missing_dialect_modules
import_bindings_lean(); stub_missing_dialect_modules()
from iree.compiler import ir
with ir.Context():
    m = ir.Module.parse('''func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    }''')
    op = m.body.operations[0].regions[0].blocks[0].operations[1]
    before = any("opdsl" in k for k in sys.modules)
    from opt_py.patterns.ir_utils import linalg_dialect
    linalg = linalg_dialect()
    with ir.InsertionPoint(m.body.operations[0].regions[0].blocks[0].operations[1]), ir.Location.unknown():
        copy = linalg.copy(op.operands[0], outs=[op.operands[1]])
    import iree.compiler.dialects.linalg as full
    print(type(op).__name__, before, any("opdsl" in k for k in sys.modules), isinstance(op, full.CopyOp))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["CopyOp", "False", "True", "True"]


def test_the_command_imports_fix_passes_without_opdsl():
    """The command's lean import puts the lean linalg module in place before any pass module imports
    ``linalg`` at its top (abi-convert-demoted-tensors' does, and its guard's ops are in every torch
    program): loading the --fixes passes pulls in neither OpDSL nor numpy (~0.9 s of a cold compile)."""
    code = """
import sys
from opt_py.run.bindings import import_bindings_lean
import_bindings_lean()
from opt_py.pipeline.registry import builtin_pass
from opt_py.iree import fixes
for f in fixes.FIXES:
    builtin_pass(f.name)
print(any("opdsl" in k for k in sys.modules), "numpy" in sys.modules)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"]

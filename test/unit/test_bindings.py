"""The adjustments of run/bindings.py hold for the IREE this project installs.

A dialect with no Python module costs a filesystem search each time the
bindings wrap one of its ops, unless it is stubbed: the stub list must name
every dialect IREE registers that ships none, and only those.
"""

import importlib.util
import os
import subprocess

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

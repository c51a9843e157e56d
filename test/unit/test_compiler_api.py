"""The private parts of ``iree.compiler.api`` that python/iree/compiler_api.py uses: still there, on the
wheel version they were checked on."""

import ctypes
import importlib
from importlib.metadata import version

import pytest
from opt_py.iree import compiler_api


def test_the_installed_compiler_is_the_one_the_adapter_was_checked_on():
    installed = version("iree-base-compiler")
    assert installed.split(".")[:2] == compiler_api.CHECKED_ON.split("."), (
        f"python/iree/compiler_api.py was checked on iree-base-compiler {compiler_api.CHECKED_ON}.x, "
        f"and {installed} is installed: re-check each private name it uses ({', '.join(compiler_api.PRIVATE_NAMES)}) "
        "against that version's iree/compiler/api/ctypes_dl.py, and its reasons in the module's docstring, "
        "then set CHECKED_ON"
    )


def _lookup(dotted: str):
    """The object ``dotted`` names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:n]))
        except ImportError:
            continue
        for attr in parts[n:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


# set on each object, not on its class: checked on real objects below
PER_OBJECT = ("iree.compiler.api.Invocation._inv_p", "ctypes.CDLL._name")


@pytest.mark.parametrize("dotted", [n for n in compiler_api.PRIVATE_NAMES if n not in PER_OBJECT])
def test_private_name_exists(dotted):
    _lookup(dotted)


def test_private_attributes_exist_on_the_objects_and_the_phase_setters_in_the_library():
    """``Invocation._inv_p`` and ``CDLL._name`` are set per object: checked on real ones."""
    from iree.compiler import api

    assert set(PER_OBJECT) <= set(compiler_api.PRIVATE_NAMES)

    lib = compiler_api.library()
    assert isinstance(lib, ctypes.PyDLL) and isinstance(lib._name, str)
    from iree.compiler.api import ctypes_dl

    assert ctypes_dl._dylib is lib  # the API calls the library through the reopened handle
    with api.Session() as session, session.invocation() as inv:
        assert isinstance(inv._inv_p, int | ctypes.c_void_p) and inv._inv_p
        for name in compiler_api.PHASE_SETTERS:
            assert getattr(lib, name).argtypes == [ctypes.c_void_p, ctypes.c_char_p]
        compiler_api.set_phases(lib, inv, "input", "abi")  # accepted by the library

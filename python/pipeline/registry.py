"""Where pass names come from: opt-py's own passes, plugins, and C++ passes.

Opt-py's own passes are the modules of ``passes/``, each imported only when
its pass is named, and the ``opt_py.passes`` entry-point group is scanned
only when a name is neither opt-py's nor a C++ pass's (scanning costs about as much as a whole small
run). A plugin entry point names a ``Pass`` subclass or a list of them.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import subprocess

from .. import passes
from ..authoring import Pass
from ..errors import PassRegistrationError
from .cpp import cpp_probe


def _builtin_passes() -> dict[str, str]:
    """name -> module in opt_py.passes: each module there declares one pass, named as the module with '-'."""
    folder = os.path.dirname(passes.__file__)
    modules = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py") and f != "__init__.py")
    return {module.replace("_", "-"): module for module in modules}


BUILTIN_PASSES: dict[str, str] = _builtin_passes()

ENTRY_POINT_GROUP = "opt_py.passes"

_registered: dict[str, type[Pass]] = {}


def builtin_pass(name: str) -> type[Pass] | None:
    if name in _registered:
        return _registered[name]
    module = BUILTIN_PASSES.get(name)
    if module is None:
        return None
    found = vars(importlib.import_module(f"opt_py.passes.{module}")).values()
    return next((c for c in found if isinstance(c, type) and issubclass(c, Pass) and c.name == name), None)


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Make a pass class nameable in pipelines of this process (scripts, notebooks)."""
    _check_declaration(cls)
    if cls.name in BUILTIN_PASSES or is_cpp_pass(cls.name):
        raise PassRegistrationError(f"pass name '{cls.name}' is already taken by a registered pass")
    _registered[cls.name] = cls
    return cls


def _check_declaration(cls) -> None:
    if not (isinstance(cls, type) and issubclass(cls, Pass)):
        raise PassRegistrationError(f"{cls!r} is not an opt_py.Pass subclass")
    if not cls.name or not re.fullmatch(r"[A-Za-z0-9_.\-]+", cls.name):
        raise PassRegistrationError(f"{cls.__name__} declares no valid pass name ('{cls.name}')")
    anchor = getattr(cls, "anchor", None)
    if not isinstance(anchor, str) or not (anchor == "any" or re.fullmatch(r"\w+(\.\w+)+", anchor)):
        raise PassRegistrationError(
            f"pass '{cls.name}' declares anchor {anchor!r}: expected 'any' or an op name such as 'func.func'"
        )


def load_pass_file(path: str) -> list[type[Pass]]:
    """Import a Python file and register every pass class it declares.

    ``--load-pass-plugin=fixes.py``: the quickest loop for writing a fix, no
    packaging needed. A class counts when it is a Pass subclass with a name,
    defined in that file.
    """
    import importlib.util
    import os
    import sys

    mod_name = "opt_py_plugin_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise PassRegistrationError(f"cannot load pass plugin '{path}': not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except FileNotFoundError:
        raise PassRegistrationError(f"cannot load pass plugin '{path}': no such file") from None
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise PassRegistrationError(f"cannot load pass plugin '{path}': {type(e).__name__}: {e}") from e
    found = [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Pass) and obj.name and obj.__module__ == mod_name
    ]
    if not found:
        raise PassRegistrationError(f"pass plugin '{path}' declares no pass")
    for cls in found:
        register_pass(cls)
    return found


def load_pass_files(paths) -> None:
    """``--load-pass-plugin`` of every subcommand: each file in order."""
    for path in paths:
        load_pass_file(path)


def is_cpp_pass(name: str) -> bool:

    problem = cpp_probe(name)
    return problem is None or f"'{name}' does not refer to a registered pass" not in problem


@functools.cache
def plugin_passes() -> dict[str, type[Pass]]:
    import importlib.metadata as md

    found: dict[str, type[Pass]] = {}
    for ep in md.entry_points(group=ENTRY_POINT_GROUP):
        where = f"opt-py plugin '{ep.name}' ({ep.value})"
        try:
            obj = ep.load()
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            raise PassRegistrationError(f"cannot load {where}: {type(e).__name__}: {e}") from None
        for cls in obj if isinstance(obj, (list, tuple)) else [obj]:
            try:
                _check_declaration(cls)
            except PassRegistrationError as e:
                raise PassRegistrationError(f"{where}: {e}") from None
            if cls.name in BUILTIN_PASSES or cls.name in found:
                raise PassRegistrationError(f"plugin '{ep.name}' declares pass '{cls.name}', which is already declared")
            if is_cpp_pass(cls.name):
                raise PassRegistrationError(
                    f"plugin '{ep.name}' declares pass '{cls.name}', which collides with a registered C++ pass"
                )
            found[cls.name] = cls
    return found


def plugin_pass(name: str) -> type[Pass] | None:
    return plugin_passes().get(name)


def python_passes() -> dict[str, type[Pass]]:
    out = {name: builtin_pass(name) for name in BUILTIN_PASSES}
    out.update(_registered)
    out.update(plugin_passes())
    return dict(sorted(out.items()))


@functools.cache
def cpp_passes() -> list[tuple[str, str]]:
    """(name, summary) of every C++ pass and pipeline registered with iree-opt."""
    from iree.compiler.tools.binaries import find_tool

    try:
        out = subprocess.run(
            [find_tool("iree-opt"), "--help"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    passes, in_section = [], False
    for line in out.splitlines():
        if re.match(r"^\s{4}(Passes|Pass Pipelines):", line):
            in_section = True
            continue
        if in_section and re.match(r"^\s{0,2}\S", line):
            in_section = False
        m = in_section and re.match(r"^ {6}--([A-Za-z0-9_.\-]+)\s+-\s+(.*)$", line)
        if m:
            passes.append((m.group(1), m.group(2).strip()))
    return passes


def all_pass_names() -> list[str]:
    names = set(BUILTIN_PASSES) | set(_registered)
    try:
        names |= set(plugin_passes())
    except PassRegistrationError:
        pass
    names |= {n for n, _ in cpp_passes()}
    return sorted(names)

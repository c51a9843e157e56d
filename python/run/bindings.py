"""Small adjustments to the MLIR Python bindings, applied once per process."""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types

# The dialects IREE registers (``iree-opt --show-dialects``) that ship no Python module in
# iree-base-compiler; test/unit/test_bindings.py fails when IREE registers one this list misses.
DIALECTS_WITHOUT_MODULES = (
    "arm_neon",
    "arm_sme",
    "arm_sve",
    "bufferization",
    "check",
    "chlo",
    "emitc",
    "hal_inline",
    "hal_loader",
    "io_parameters",
    "iree_cpu",
    "iree_encoding",
    "iree_linalg_ext",
    "iree_map",
    "iree_vector_ext",
    "ml_program",
    "nvgpu",
    "pcf",
    "pdl_interp",
    "quant",
    "rocm",
    "spirv",
    "stablehlo",
    "tm_tensor",
    "torch",
    "torch_c",
    "ub",
    "vhlo",
    "vmvx",
)


@functools.cache
def stub_missing_dialect_modules() -> None:
    """Register empty Python modules for dialects that have none.

    Each time the bindings wrap an op, they import ``iree.compiler.dialects.<ns>``
    to find its Python class; for a dialect without a module the import fails
    and is retried every time (filesystem searches for each wrapped op: most
    of the time of a pass rewriting many ``iree_linalg_ext.sort`` ops, or of
    any pass walking a torch program). An empty module gives the same generic
    ops at no cost.
    """
    for ns in DIALECTS_WITHOUT_MODULES:
        name = f"iree.compiler.dialects.{ns}"
        if name in sys.modules or importlib.util.find_spec(name) is not None:
            continue
        module = types.ModuleType(name, f"opt-py stub: dialect '{ns}' has no Python module")
        sys.modules[name] = module
    if LINALG not in sys.modules:
        sys.meta_path.insert(0, _LeanLinalg())


LINALG = "iree.compiler.dialects.linalg"


class _LeanLinalg(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The linalg dialect's module as the bindings first import it: its op classes, not its OpDSL.

    Wrapping any linalg op (a pattern rooted on ``linalg.generic`` looking at one) makes the bindings
    import ``iree.compiler.dialects.linalg``, whose OpDSL (and numpy under it) costs a cold run about
    0.2 s. This first import gives the generated op and enum classes (what wrapping needs); the first
    other name read (``linalg.copy``, a rewrite building ops) imports the whole module in its place.
    Used once: the real module is imported the usual way after it.
    """

    def find_spec(self, fullname, path=None, target=None):
        if fullname != LINALG:
            return None
        sys.meta_path.remove(self)
        real = importlib.util.find_spec(fullname)
        if real is None:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        spec.submodule_search_locations = real.submodule_search_locations
        return spec

    def create_module(self, spec):
        return _LeanModule(spec.name)

    def exec_module(self, module):
        from iree.compiler.dialects import _linalg_enum_gen, _linalg_ops_gen

        for gen in (_linalg_ops_gen, _linalg_enum_gen):  # classes only: the builder functions are OpDSL's
            module.__dict__.update({k: v for k, v in vars(gen).items() if isinstance(v, type)})


class _LazyModule(types.ModuleType):
    """Stands in for a module until one of its attributes is read; then imports it."""

    def __getattr__(self, name):
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return getattr(importlib.import_module(self.__name__), name)


class _LeanModule(_LazyModule):
    """A lazy module that has some of its names already: only a public name it lacks imports it whole."""

    def __getattr__(self, name):
        if name.startswith("__"):  # the import system's questions (__file__, ...) are not uses
            raise AttributeError(name)
        return super().__getattr__(name)


def _compiler_tools_attr(submodules):
    def __getattr__(name):
        # What ``from .tools import *`` in iree/compiler/__init__.py would have
        # bound. A submodule's name is not one: ``from iree.compiler import
        # passmanager`` asks here first, and must then import the submodule.
        if name.startswith("_") or name in submodules:
            raise AttributeError(f"module 'iree.compiler' has no attribute '{name}'")
        return getattr(importlib.import_module("iree.compiler.tools"), name)

    return __getattr__


def import_bindings_lean() -> None:
    """Import ``iree.compiler.ir`` without numpy and ``iree.compiler.tools``.

    Most of what ``import iree.compiler.ir`` costs is numpy and
    ``iree.compiler.tools`` (subprocess, logging, platform, ...); an
    ``opt-py`` run over IR text needs neither:

    * ``iree/compiler/__init__.py`` only re-exports the tools (``from .tools
      import *``): the package is created from its spec without running it,
      and those names are looked up on first use (module ``__getattr__``).
    * ``ir.py`` imports numpy for four attribute builders (``F64ElementsAttr``
      and friends) that call ``np.array`` when used: during the import,
      ``numpy`` is a stand-in module that imports the real one the first time
      an attribute is read, so the builders work unchanged. Any other module
      importing numpy afterwards gets the real one.

    Does nothing when ``iree.compiler`` is already imported (a library
    user's process) — only the command calls it, before anything else.
    """
    if "iree.compiler" in sys.modules:
        return
    spec = importlib.util.find_spec("iree.compiler")
    if spec is None or not spec.submodule_search_locations:
        return
    package = importlib.util.module_from_spec(spec)
    submodules = set()
    for where in spec.submodule_search_locations:
        try:
            submodules |= {n.partition(".")[0] for n in os.listdir(where)}
        except OSError:
            pass
    package.__getattr__ = _compiler_tools_attr(submodules)
    sys.modules["iree.compiler"] = package
    sys.modules["iree"].compiler = package
    stand_in = None
    if "numpy" not in sys.modules:
        stand_in = sys.modules["numpy"] = _LazyModule("numpy")
    try:
        importlib.import_module("iree.compiler.ir")
    finally:
        if stand_in is not None and sys.modules.get("numpy") is stand_in:
            del sys.modules["numpy"]
    stub_missing_dialect_modules()  # before any pass module imports linalg: its op classes, not its OpDSL


def new_context(all_dialects: bool = True):
    """A context with every available dialect loaded, or with none (they load as IR names them).

    A context with none loaded is what mlir-opt works in, and costs next to
    nothing to create; ``canonicalize`` then also collects only the patterns
    of the dialects in use. A Python pass may build ops of any dialect, so a
    pipeline with one gets them all.
    """
    from iree.compiler import ir

    return ir.Context() if all_dialects else ir.Context(load_on_create_dialects=[])


_warm_contexts: dict = {}


def prepare_warm_context() -> None:
    """Create the contexts ahead of the run that will take one.

    The warm server calls this before forking workers; each worker takes its
    own copy of a context, untouched, as if it had just created it.
    """
    for all_dialects in (True, False):
        _warm_contexts[all_dialects] = new_context(all_dialects)


_taken_contexts: list = []


def take_warm_context(all_dialects: bool = True):
    """The context made ahead by ``prepare_warm_context``, once; else None.

    The context stays referenced here after it is taken, so it is never
    destroyed: a worker exits (``os._exit``) right after its one run, and
    destroying a context with its dialects loaded takes time (a fork's
    copy-on-write faults, the thread pool's teardown) that the client would
    wait for, with nothing to show for it.
    """
    ctx = _warm_contexts.get(all_dialects)
    if ctx is None or any(taken is ctx for taken in _taken_contexts):
        return None
    _taken_contexts.append(ctx)  # the other one stays where it is: never destroyed either
    return ctx

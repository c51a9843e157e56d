"""A PyTorch ``nn.Module`` to a compiled, loaded IREE module with opt-py's fixes, in one call.

    compiled = opt_py.torch.compile(model, (x,), dynamic_shapes={"x": {0: Dim("n")}}, target="cpu")
    y = compiled(x)

The model is exported with iree-turbine (``aot.export``, non-strict, as the
library-model corpus is) behind a wrapper that returns its outputs as a flat
tuple of tensors (structure.py: Python numbers, dicts, dataclasses and
``ModelOutput``s come back as the model returns them), compiled through the
module cache (build.py) and loaded (runtime.py). torch and iree-turbine are
imported only when this is used (``pip install 'opt-py[models]'``).
"""

from __future__ import annotations

import os
import tempfile
import warnings
from dataclasses import dataclass, field

from .options import Options


@dataclass(repr=False)
class Compiled:
    """A loaded module: call it like the model (tensors in, the model's outputs out; NumPy arrays in, arrays
    out). ``vmfb`` holds the module's bytes."""

    vmfb: bytes
    target: str
    function: str = "main"
    messages: list[str] = field(default_factory=list)  # what the compiler said (warnings)
    structure: object = None  # how the model's outputs are built from the module's (structure.py)
    cached: bool = False  # loaded from the module cache
    seconds: float = 0.0  # compiling (or reading the cache) took this long; the export is not counted
    device: str | None = None  # the IREE device URI (default: the target's)
    parameters: tuple[str, ...] = ()  # the model's forward's parameter names: keyword arguments go in this order
    written: list[int] | None = None  # the inputs the module writes in place (copied before); None: not known
    _loaded: object = None

    def __call__(self, *args, **kwargs):
        """The model's outputs for ``args``: in the model's structure, or (without one) one result alone
        and several as a tuple. Tensors among ``kwargs`` follow the positional ones, in the order of the
        forward's parameters; other arguments were fixed at export time."""
        from . import structure as st
        from .runtime import Loaded

        if self._loaded is None:
            self._loaded = Loaded(self.vmfb, self.target, self.device, self.function, written=self.written)
        flat = _inputs(args, kwargs, self.parameters)
        to = next((a.device for a in flat if type(a).__module__.startswith("torch")), None)
        outs = self._loaded(flat, to=to)
        if self.structure is not None:
            return st.rebuild(self.structure, outs)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def __repr__(self) -> str:
        from . import structure as st

        how = "from the cache" if self.cached else f"compiled in {self.seconds:.1f} s"
        out = f", returns {st.describe(self.structure)}" if self.structure is not None else ""
        return f"<opt_py.torch.Compiled {self.function}() for {self.target!r}, {len(self.vmfb) / 1024:.0f} KiB, {how}{out}>"


def compile(
    model,
    args: tuple = (),
    kwargs: dict | None = None,
    *,
    dynamic_shapes=None,
    target: str = "cpu",
    fixes: bool | str = True,
    iree_flags: tuple[str, ...] = (),
    strict_export: bool = False,
    cache: bool = True,
    cache_dir: str | None = None,
    device: str | None = None,
) -> Compiled:
    """Export ``model`` on ``args``/``kwargs``, compile it for ``target`` (cpu, cuda, rocm) and load it.

    ``fixes``: True for every opt-py fix, a comma-separated list for some, False for stock IREE.
    ``cache``: a module compiled before with the same program, flags, fixes and versions is loaded from
    the on-disk cache instead (``cache_dir``, default ``$OPT_PY_CACHE_DIR`` or the XDG cache).
    A compile failure raises ``TorchCompileError`` (an ``OptPyError``) naming the op and the fixes tried.
    """
    from iree.turbine import aot

    from .build import build, mlir_program

    options = Options(
        target=target, fixes=fixes, iree_flags=iree_flags, cache=cache, cache_dir=cache_dir, device=device
    )
    program, structure = _flat_outputs(model)
    with warnings.catch_warnings():  # iree-turbine warns that non-strict export is experimental: it is our choice
        warnings.filterwarnings("ignore", message="When strict_export == False")
        exported = aot.export(
            program, args=tuple(args), kwargs=kwargs, dynamic_shapes=dynamic_shapes, strict_export=strict_export
        )
    with tempfile.TemporaryDirectory(prefix="opt-py-torch-") as tmp:
        path = os.path.join(tmp, "model.mlirbc")
        exported.save_mlir(path)
        with open(path, "rb") as f:
            data = f.read()
    text = _elided_text(exported)
    name = type(model).__name__ if not isinstance(model, str) else model
    built = build(mlir_program(data, ".mlirbc", text), options, f"{name} (exported with iree-turbine)")
    return Compiled(
        built.vmfb,
        target,
        messages=built.messages,
        structure=structure[0] if structure else None,
        cached=built.cached,
        seconds=built.seconds,
        device=device,
        parameters=_parameters(model),
        written=(built.written or {}).get("main") if built.written is not None else None,
    )


def _parameters(model) -> tuple[str, ...]:
    import inspect

    try:
        return tuple(inspect.signature(model.forward).parameters)
    except (AttributeError, TypeError, ValueError):
        return ()


def _inputs(args, kwargs, parameters=()) -> list:
    """The module's inputs for a call: the tensors (and arrays) among ``args`` and ``kwargs``, nested ones
    too, in the order torch.export flattens them (keyword arguments in the order of the forward's
    ``parameters``); the exporter fixed every other value at export time."""
    import numpy as np

    order = {name: i for i, name in enumerate(parameters)}
    kwargs = dict(sorted(kwargs.items(), key=lambda kv: order.get(kv[0], len(order))))
    try:
        from torch.utils import _pytree as pytree
    except ImportError:  # NumPy arrays only
        return [a for a in (*args, *kwargs.values()) if isinstance(a, np.ndarray)]
    import torch

    leaves = pytree.tree_leaves((tuple(args), dict(kwargs)))
    return [a for a in leaves if isinstance(a, (torch.Tensor, np.ndarray))]


def _flat_outputs(model):
    """(a module computing ``model`` that returns a flat tuple of tensors, a list the export fills with the
    structure of ``model``'s outputs). Anything but an ``nn.Module`` is handed to the exporter as it is."""
    try:
        import torch
    except ImportError:
        return model, []
    if not isinstance(model, torch.nn.Module):
        return model, []
    seen: list = []
    return _FlatOutputs(model, seen), seen


def _FlatOutputs(model, seen):
    import inspect

    import torch

    from . import structure as st

    class FlatOutputs(torch.nn.Module):
        """``model``, returning its outputs' tensors as one flat tuple (structure.py)."""

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *args, **kwargs):
            shape, tensors = st.flatten(self.model(*args, **kwargs))
            seen[:] = [shape]
            return tuple(tensors)

    # torch.export names dynamic_shapes by forward's parameters: the wrapper shows the model's (self first)
    params = list(inspect.signature(model.forward).parameters.values())
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    FlatOutputs.forward.__signature__ = inspect.Signature([self_param, *params])
    return FlatOutputs()


def _elided_text(exported) -> str:
    """The exported program's text without its large constants (the types and ops, for f64 and errors)."""
    op = exported.mlir_module
    op = getattr(op, "operation", op)
    return op.get_asm(large_elements_limit=16, large_resource_limit=16)

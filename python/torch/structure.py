"""A model's outputs as PyTorch users return them, as a flat list of tensors for IREE and back.

A compiled module returns tensors only, and iree-turbine's importer fails
(``KeyError``) on a module that returns a Python number. So the program
handed to the exporter returns ``flatten``'s tensors: each tensor leaf of
the model's output, and each number that depends on the inputs (a ``SymInt``
of a dynamic size, say) as a 0-d tensor; a number fixed at trace time stays
in the structure as it is. ``Structure.rebuild`` puts the module's results
back in the model's shape: tuples, lists, dicts, dataclasses and Hugging
Face ``ModelOutput``s (named tuples too) with numbers as Python numbers.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Leaf:
    """A result of the module: a tensor, or a number returned as a 0-d tensor (``number``: its type).
    ``unsigned``: the torch dtype's name of an unsigned tensor (``uint8``): IREE's ABI is signless, so the
    runtime hands it back as the signed integer of its width; the same bytes are read as torch's dtype."""

    number: type | None = None
    unsigned: str | None = None


@dataclass(frozen=True)
class Node:
    """A container: ``kind`` says how to build it from its children (``keys``: their names or fields)."""

    kind: str  # tuple | list | dict | namedtuple | dataclass | mapping
    cls: type | None
    keys: tuple
    children: tuple


@dataclass(frozen=True)
class Const:
    """A value fixed at trace time (None, a number that depends on no input, a string)."""

    value: object


def flatten(out):
    """(the tensors to return from the traced program, the structure that rebuilds ``out`` from them)."""
    tensors: list = []
    return _flatten(out, tensors), tensors


def _flatten(x, tensors):
    import torch

    if isinstance(x, torch.Tensor):
        tensors.append(x)
        unsigned = str(x.dtype).removeprefix("torch.")
        return Leaf(unsigned=unsigned if unsigned.startswith("uint") else None)
    if isinstance(x, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        kind = {torch.SymInt: int, torch.SymFloat: float, torch.SymBool: bool}[type(x)]
        dtype = {int: torch.int64, float: torch.float64, bool: torch.bool}[kind]
        tensors.append(torch.scalar_tensor(x, dtype=dtype))
        return Leaf(kind)
    if _is_model_output(x):  # an OrderedDict and a dataclass whose None fields are not keys
        keys = tuple(x.keys())
        return Node("mapping", type(x), keys, tuple(_flatten(x[k], tensors) for k in keys))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        fields = tuple(f.name for f in dataclasses.fields(x) if f.init)
        return Node("dataclass", type(x), fields, tuple(_flatten(getattr(x, k), tensors) for k in fields))
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return Node("namedtuple", type(x), tuple(x._fields), tuple(_flatten(v, tensors) for v in x))
    if isinstance(x, (tuple, list)):
        return Node(
            type(x).__name__ if type(x) in (tuple, list) else "sequence",
            type(x),
            (),
            tuple(_flatten(v, tensors) for v in x),
        )
    if isinstance(x, dict):
        keys = tuple(x.keys())
        return Node("dict", type(x), keys, tuple(_flatten(x[k], tensors) for k in keys))
    return Const(x)


def _is_model_output(x) -> bool:
    return any(c.__name__ == "ModelOutput" and c.__module__.startswith("transformers") for c in type(x).__mro__)


def rebuild(structure, results: list):
    """The model's output from the module's ``results``, in ``structure``'s order."""
    it = iter(results)
    out = _rebuild(structure, it)
    return out


def _rebuild(s, it):
    if isinstance(s, Leaf):
        value = next(it)
        if s.unsigned is not None:
            return _as_unsigned(value, s.unsigned)
        return value if s.number is None else s.number(value.item() if hasattr(value, "item") else value)
    if isinstance(s, Const):
        return s.value
    children = [_rebuild(c, it) for c in s.children]
    if s.kind == "tuple":
        return tuple(children)
    if s.kind == "list":
        return children
    if s.kind == "sequence":
        return s.cls(children)
    if s.kind == "namedtuple":
        return s.cls(*children)
    if s.kind == "dict":
        out = s.cls() if s.cls is not dict else {}
        out.update(zip(s.keys, children))
        return out
    return s.cls(**dict(zip(s.keys, children)))  # dataclass, ModelOutput


def _as_unsigned(value, name: str):
    """``value`` (a tensor or array the runtime read signed) viewed as the unsigned dtype ``name``."""
    if hasattr(value, "detach"):  # a torch tensor
        import torch

        dtype = getattr(torch, name)
        return value.view(dtype) if value.dtype != dtype and value.element_size() == dtype.itemsize else value
    import numpy as np

    dtype = np.dtype(name)
    return value.view(dtype) if value.dtype != dtype and value.dtype.itemsize == dtype.itemsize else value


def count(structure) -> int:
    """How many results the module returns for ``structure``."""
    if isinstance(structure, Leaf):
        return 1
    if isinstance(structure, Const):
        return 0
    return sum(count(c) for c in structure.children)


def describe(structure) -> str:
    """A short text of the structure, for a repr: ``(Tensor, int)``, ``CausalLMOutput(logits=Tensor)``."""
    if isinstance(structure, Leaf):
        return "Tensor" if structure.number is None else structure.number.__name__
    if isinstance(structure, Const):
        return repr(structure.value) if len(repr(structure.value)) < 20 else type(structure.value).__name__
    inner = [describe(c) for c in structure.children]
    if structure.kind in ("dict", "mapping", "dataclass", "namedtuple"):
        inner = [f"{k}={v}" for k, v in zip(structure.keys, inner)]
    if len(inner) > 6:
        inner = [*inner[:5], f"... {len(inner) - 5} more"]
    if structure.kind == "tuple":
        return f"({', '.join(inner)}{',' if len(inner) == 1 else ''})"
    if structure.kind == "list":
        return f"[{', '.join(inner)}]"
    if structure.kind == "dict":
        return "{" + ", ".join(inner) + "}"
    return f"{structure.cls.__name__}({', '.join(inner)})"

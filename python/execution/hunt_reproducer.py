"""A dispatch call cut out as a program of its own, and written where the user asked.

The program is the ``flow.executable`` as it was after the ``flow`` phase and
a ``func.func @main`` calling it with ``flow.dispatch`` on its traced inputs,
every index operand a constant read from the traced shapes. IREE compiles
such a program from input level, so ``opt-py compare`` runs it like any other.
"""

from __future__ import annotations

import io
import os

import numpy as np

from ..errors import OptPyError
from . import e2e
from .hunt_labels import Call, Labels
from .hunt_search import Ran
from .hunt_trace import Build, Trace, compile_traced


def reproducer(labels: Labels, ran: Ran, shapes: dict[int, tuple]) -> tuple[str, list[int]]:
    """(program text, vids of its arguments in order) calling ``ran``'s dispatch alone.

    ``shapes``: vid -> shape of every traced value (the index operands are read
    from them). Raises OptPyError when an operand's value cannot be known.
    """
    call = labels.calls[ran.call]
    consts = _Constants(ran.dispatch, shapes)
    args, arg_vids, operands, operand_types = [], [], [], []
    for i, o in enumerate(call.operands):
        if o[0] == "tensor":
            name = f"%arg{len(args)}"
            args.append(f"{name}: {o[2]}")
            arg_vids.append(o[1])
            operands.append(name)
            operand_types.append(o[2] + _shape([consts.name(d, f"operand {i}'s shape") for d in o[3]]))
        else:
            operands.append(consts.name(o[1], f"operand {i}"))
            operand_types.append(o[2])
    work = [consts.name(w, "workload") for w in call.workload]
    res_text, res_types = [], []
    for _vid, t, tie, dims in call.results:
        shape = _shape([consts.name(d, "result shape") for d in dims])
        res_text.append((operands[tie] if tie >= 0 else t) + shape)
        res_types.append(t)
    head = f"// dispatch call {ran.ordinal} ({ran.dispatch}) alone, cut out by opt-py compare --per-dispatch\n"
    body = _main(call, args, consts.definitions(), work, operands, operand_types, res_text, res_types)
    executable = "\n".join("  " + line for line in labels.executables[call.executable].splitlines())
    return f"{head}module {{\n{executable}\n{body}}}\n", arg_vids


class _Constants:
    """The ``arith.constant`` of each index or scalar operand, named once per value."""

    def __init__(self, dispatch: str, shapes: dict[int, tuple]):
        self.dispatch, self.shapes = dispatch, shapes
        self.names: dict[str, str] = {}  # constant text -> SSA name

    def name(self, ref, what: str) -> str:
        if ref is None:
            raise OptPyError(
                f"cannot cut dispatch {self.dispatch} out: the value of its {what} is not known from the traces"
            )
        if ref[0] == "const":
            text = ref[1]
        else:
            if ref[1] not in self.shapes:
                raise OptPyError(f"cannot cut dispatch {self.dispatch} out: its {what} is a dim of an untraced value")
            text = f"{self.shapes[ref[1]][ref[2]]} : index"
        return self.names.setdefault(text, f"%c{len(self.names)}")

    def definitions(self) -> str:
        return "".join(f"    {n} = arith.constant {t}\n" for t, n in self.names.items())


def _shape(dims: list[str]) -> str:
    return f"{{{', '.join(dims)}}}" if dims else ""


def _main(call: Call, args, defs, work, operands, operand_types, res_text, res_types) -> str:
    """``func.func @main`` dispatching ``call`` once and returning its results."""
    results = "%r" if len(res_types) == 1 else f"%r:{len(res_types)}"
    ret = ", ".join("%r" if len(res_types) == 1 else f"%r#{i}" for i in range(len(res_types)))
    arrow = res_text[0] if len(res_text) == 1 else f"({', '.join(res_text)})"
    return (
        f"  func.func @main({', '.join(args)}) -> ({', '.join(res_types)}) {{\n{defs}"
        f"    {results} = flow.dispatch {call.entry}[{', '.join(work)}]({', '.join(operands)}) : "
        f"({', '.join(operand_types)}) -> {arrow}\n"
        f"    return {ret} : {', '.join(res_types)}\n  }}\n"
    )


def traced_shapes(labels: Labels, trace: Trace) -> dict[int, tuple]:
    shapes = {}
    for ev in trace.events:
        for v, a in zip(labels.sites[ev.site].values, ev.arrays):
            shapes.setdefault(v, np.shape(a))
    return shapes


def run_alone(labels: Labels, trace: Trace, ran: Ran, build: Build, path_dir: str) -> tuple[str, list, list]:
    """Write ``ran`` as a program into ``path_dir``, compile it (``build``) and run it on its traced inputs.

    Returns (program path, its inputs, its outputs).
    """
    text, vids = reproducer(labels, ran, traced_shapes(labels, trace))
    observed = dict(ran.inputs)
    inputs = [observed[v] for v in vids]
    path = os.path.join(path_dir, "dispatch.mlir")
    with open(path, "w") as f:
        f.write(text)
    vmfb, _ = compile_traced(path, build, trace=False)
    return path, inputs, e2e.run_cli(vmfb, build.target, "main", inputs, len(labels.calls[ran.call].results))


def write_reproducer(directory: str, program: str, inputs, expected, observed) -> list[str]:
    """Write the reproducer and its arrays; each file whole or not at all."""
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as e:
        raise OptPyError(f"cannot create '{directory}': {e.strerror}") from None
    files = {"dispatch.mlir": program.encode()}
    for name, arrays in (("input", inputs), ("expected", expected), ("observed", observed)):
        for i, x in enumerate(arrays):
            buf = io.BytesIO()
            np.save(buf, x)
            files[f"{name}{i}.npy"] = buf.getvalue()
    for name, data in files.items():
        tmp = os.path.join(directory, f".{name}.tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, os.path.join(directory, name))
        except OSError as e:
            raise OptPyError(f"cannot write '{os.path.join(directory, name)}': {e.strerror}") from None
    return list(files)

"""The ``opt_py`` backend of ``torch.compile``: each graph dynamo captures, compiled by IREE with opt-py's fixes.

    model = torch.compile(model, backend="opt_py", options={"target": "cpu"})

PyTorch finds the backend by name through the ``torch_dynamo_backends``
entry point (pyproject.toml); no import is needed. Dynamo hands the backend
one FX graph per captured region: a graph break gives several, a guard that
fails (a new shape, a new dtype) a recompile, with ``dynamic=True`` or
``torch._dynamo.mark_dynamic`` sizes become symbolic (the graph takes them as
integer arguments). AOTAutograd (``aot_autograd``, with iree-turbine's
decompositions, the export path's) turns each graph into a functional ATen
graph; that is imported to torch-dialect MLIR (``FxImporter``, with the
user's source lines as locations), compiled through the module cache
(build.py) and called through runtime.py. Weights are graph inputs, handed
over without copies. Backward graphs (training) run in eager PyTorch.

``graphs()`` lists what this process compiled: the graph's dynamo compile id
(frame/recompile), where it comes from, whether the cache served it.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass

from ..errors import OptPyError
from .options import Options

WHERE = "torch.compile(backend='opt_py')"
# torch.compile's modes tune Inductor; they change nothing here (transformers' CompileConfig passes one)
INDUCTOR_MODES = (None, "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")


@dataclass
class Graph:
    """One graph the backend compiled (or handed to eager PyTorch)."""

    compile_id: str  # dynamo's "frame/recompile" (e.g. "1/0": the second frame's first compile)
    source: str  # the user's code the graph starts at
    inputs: int
    ops: int
    target: str
    cached: bool
    seconds: float  # importing and compiling (or loading from the cache)
    fallback: bool = False  # failed to compile; runs in eager PyTorch (options fallback=True)


_GRAPHS: list[Graph] = []


def graphs() -> list[Graph]:
    """The graphs this process compiled with the backend, in order."""
    return list(_GRAPHS)


def reset() -> None:
    """Forget ``graphs()`` (dynamo's own caches are reset by ``torch._dynamo.reset()``)."""
    _GRAPHS.clear()


def backend(gm, example_inputs, *, options=None, mode=None):
    """The dynamo backend: ``gm`` (dynamo's FX graph) and its example inputs to a compiled callable."""
    opts = Options.from_mapping(options, WHERE)
    if mode not in INDUCTOR_MODES:
        raise OptPyError(
            f"{WHERE}: unknown mode {mode!r} (torch.compile's modes: {', '.join(map(repr, INDUCTOR_MODES))})"
        )
    from iree.turbine.aot.decompositions import current_aot_decompositions
    from torch._dynamo.backends.common import aot_autograd

    compile_graph = _GraphCompiler(opts, _compile_id(gm), _source(gm))
    return aot_autograd(
        fw_compiler=compile_graph,
        bw_compiler=_eager,
        decompositions=current_aot_decompositions(),
    )(gm, example_inputs)


class _GraphCompiler:
    """AOTAutograd's forward compiler for one dynamo graph."""

    def __init__(self, options: Options, compile_id: str, source: str):
        self.options, self.compile_id, self.source = options, compile_id, source

    def __call__(self, gm, example_inputs):
        from .build import TorchCompileError, build
        from .runtime import Loaded

        start = time.perf_counter()
        what = f"graph {self.compile_id} (from {self.source})"
        ops = sum(1 for n in gm.graph.nodes if n.op == "call_function")
        record = Graph(self.compile_id, self.source, len(example_inputs), ops, self.options.target, False, 0.0)
        try:
            built = build(_program(gm), self.options, what)
        except TorchCompileError as e:
            if not self.options.fallback:
                raise
            warnings.warn(f"opt_py: {e}\n  (fallback=True: this graph runs in eager PyTorch)", stacklevel=2)
            record.fallback, record.seconds = True, time.perf_counter() - start
            _GRAPHS.append(record)
            return _eager(gm, example_inputs)
        overwritten = _overwritten_inputs()
        loaded = Loaded(
            built.vmfb,
            self.options.target,
            self.options.device,
            written=built.written.get("main") if built.written is not None else None,
            may_clobber={i for _, i in overwritten},
            keep_outputs=dict(overwritten),
        )
        record.cached, record.seconds = built.cached, time.perf_counter() - start
        _GRAPHS.append(record)
        to = _output_device(gm)

        def run(args):
            outs = loaded(args, to=to, torch_out=True)
            args.clear()  # the boxed convention: the graph owns its inputs and drops them
            return outs

        run._boxed_call = True
        run.__qualname__ = run.__name__ = f"opt_py_graph_{self.compile_id.replace('/', '_')}"
        return run


def _overwritten_inputs() -> list[tuple[int, int]]:
    """(graph output, graph input) for each input whose data the graph mutates: AOTAutograd returns its new
    value first among the outputs and copies it into the input after the call, so the module may write
    that input in place, and that output may be the input's own buffer."""
    from torch._guards import TracingContext

    context = TracingContext.try_get()
    meta = getattr(context, "fw_metadata", None)
    if meta is None:
        return []
    mutated = list(meta.mutated_inp_runtime_indices)
    return [(j, i) for j, i in enumerate(mutated) if meta.input_info[i].mutates_data]


def _eager(gm, example_inputs):
    """``gm`` run by PyTorch itself (backward graphs; graphs that failed with fallback=True)."""
    from torch._functorch.aot_autograd import make_boxed_func

    return make_boxed_func(gm.forward)


def _program(gm):
    """``gm`` as ``build`` takes it: identified by its code and the type of every value (what the importer
    reads), so a cached module is found without importing; imported to MLIR only to be compiled."""
    import hashlib

    import torch

    from .build import Program

    h = hashlib.sha256(f"aten graph, torch {torch.__version__}\n".encode())
    f64 = False
    for name, module in gm.named_modules():  # the graph and those of its higher-order ops
        if isinstance(module, torch.fx.GraphModule):
            h.update(f"{name}:\n{module.code}\n".encode())
            for n in module.graph.nodes:
                h.update(f"{n.name}: {_typed(n.meta.get('val'))}\n".encode())
                f64 = f64 or "torch.float64" in _typed(n.meta.get("val"))
                if n.op == "get_attr":
                    value = getattr(module, n.target, None)
                    if isinstance(value, torch.Tensor):
                        f64 = f64 or value.dtype == torch.float64
                        h.update(_bytes(value))
    return Program(h.digest(), f64, lambda: (_import(gm), ".mlir"))


def _bytes(value) -> bytes:
    """A constant's bytes, read outside the fake mode aot_autograd calls the compiler under (a real tensor
    there is refused: "Please convert all Tensors to FakeTensors first")."""
    import torch
    from torch._subclasses.fake_tensor import unset_fake_temporarily

    with unset_fake_temporarily():
        return value.detach().cpu().contiguous().view(-1).view(torch.uint8).numpy().tobytes()


def _typed(val) -> str:
    """A value's type as the importer reads it: a tensor's dtype, sizes (symbolic ones by name), strides and
    device; a symbolic number's expression; lists of them."""
    import torch

    if isinstance(val, torch.Tensor):
        return f"{val.dtype}{list(val.shape)}{list(val.stride())}@{val.device}"
    if isinstance(val, (list, tuple)):
        return "(" + ", ".join(_typed(v) for v in val) + ")"
    return f"{type(val).__name__}:{val}" if val is not None else "-"


def _import(gm) -> bytes:
    """``gm`` as torch-dialect MLIR text, the user's source lines as locations (IREE's errors name them)."""
    from iree.compiler.extras.fx_importer import FxImporter

    importer = FxImporter()
    importer.import_graph_module(gm)
    return importer.module.operation.get_asm(binary=True, enable_debug_info=True)


def _output_device(gm):
    """The device of the graph's tensor outputs (where eager PyTorch would leave them), or None."""
    import torch

    out = next(n for n in gm.graph.nodes if n.op == "output")
    vals = [a.meta.get("val") for a in out.args[0] if hasattr(a, "meta")]
    devices = {v.device for v in vals if isinstance(v, torch.Tensor)}
    return devices.pop() if len(devices) == 1 else None


def _compile_id(gm) -> str:
    """Dynamo's id of the graph's compile: frame and recompile ("0/1"), or "?" outside dynamo."""
    cid = getattr(gm, "meta", {}).get("dynamo_compile_id")
    if cid is None:
        try:
            from torch._guards import CompileContext

            cid = CompileContext.current_compile_id()
        except (ImportError, AttributeError):
            return "?"
    if cid is None:
        return "?"
    return f"{cid.frame_id}/{cid.frame_compile_id}" if hasattr(cid, "frame_id") else str(cid)


def _source(gm) -> str:
    """Where in the user's code the graph starts: ``file:line (function)`` of its first traced op, in the
    user's own files where the trace passes through any, else in the outermost ``forward``."""
    import re

    for n in gm.graph.nodes:
        trace = n.meta.get("stack_trace") if n.op.startswith("call_") else None
        frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', trace or "")
        if frames:
            own = [f for f in frames if "site-packages" not in f[0] and "/torch/" not in f[0]]
            forward = [f for f in frames if f[2] == "forward"]
            f, line, fn = (own or forward or frames)[0]
            return f"{f}:{line} ({fn})"
    return "unknown source"

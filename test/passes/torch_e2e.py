"""What the torch passes' end-to-end tests (test_torch_*.py beside this file) share.

The numpy dtype of each torch element type the tests use, the ``!torch.vtensor``
spelling of static/dynamic sizes, random inputs over a dtype's range, a typed
operand with its runtime array, stock's native compile in a process of its own, and the pass applied to a module as parsed before compiling it for llvm-cpu. Each test
keeps its own choice of dtypes; this module holds only what the types mean.
"""

import subprocess
from dataclasses import dataclass

import ml_dtypes
import numpy as np
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections

CPU = e2e.TARGETS["cpu"]
# torch's element type names (as in !torch.vtensor<[...],si64>) -> numpy dtypes; bf16 through ml_dtypes.
NUMPY = {
    "i1": np.bool_,
    "ui8": np.uint8,
    "si8": np.int8,
    "si16": np.int16,
    "si32": np.int32,
    "si64": np.int64,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f32": np.float32,
    "f64": np.float64,
}
NORMAL = ("f16", "bf16", "f32")  # drawn from a normal distribution in f32, then rounded to the dtype


def vtensor(sizes, dtype) -> str:
    """``!torch.vtensor<[2,?],f32>`` for sizes ``[2, None]`` (None for a dynamic size)."""
    return f"!torch.vtensor<[{','.join('?' if s is None else str(s) for s in sizes)}],{dtype}>"


def random_array(rng, shape, dtype) -> np.ndarray:
    """Bools; normal values for floats; integers over the dtype's whole range (wrap-around matters)."""
    np_type = NUMPY[dtype]
    if dtype == "i1":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype in NORMAL:
        return rng.standard_normal(shape).astype(np.float32).astype(np_type)
    info = np.iinfo(np_type)
    return rng.integers(info.min, info.max, shape, endpoint=True, dtype=np.int64).astype(np_type)


@dataclass
class Operand:
    """A function's operand: static sizes (None for '?'), dtype and the runtime array passed for it."""

    sizes: list
    dtype: str
    array: np.ndarray

    @property
    def type(self) -> str:
        return vtensor(self.sizes, self.dtype)


def native_compile(path, output: str = "/dev/null", cwd=None) -> subprocess.CompletedProcess:
    """The native ``iree-compile`` on ``path`` for llvm-cpu, in a process of its own: a crash of stock's
    takes that process, not the test run (its return code is minus the signal)."""
    from iree.compiler.tools.binaries import find_tool

    cmd = [find_tool("iree-compile"), *CPU.compile_flags, str(path), "-o", str(output)]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)


def compile_fixed(text: str, tmp_path, pass_name: str) -> bytes:
    """``text`` as parsed, with the pass, compiled for llvm-cpu (the pass runs on the text first,
    as ``opt-py compile --inject start:PASS`` will run it on the module as parsed)."""
    path = tmp_path / "fixed.mlir"
    path.write_text(run_pipeline(text, pass_name))
    return e2e.compile_program(str(path), CPU)


def sdpa_reference(q, k, v, mask) -> np.ndarray:
    """torch's math kernel in float64: softmax(q @ k^T / sqrt(E) + mask) @ v, a row of -inf scores 0."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    with np.errstate(invalid="ignore", over="ignore"):
        s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
        s = s + (np.where(mask, 0.0, -np.inf) if mask.dtype == np.bool_ else mask.astype(np.float64))
        hidden = np.all(s == -np.inf, axis=-1, keepdims=True)
        e = np.exp(s - np.max(np.where(hidden, 0.0, s), axis=-1, keepdims=True))
        w = np.where(hidden, 0.0, e / np.sum(e, axis=-1, keepdims=True))
        return w @ v


def cases_program(chosen) -> str:
    """The cases' functions (each case's ``function()``) as one module's text."""
    return "\n".join(c.function() for c in chosen) + "\n"


def compile_case_module(chosen, folder, fixes, extra_flags=()) -> bytes:
    """The cases as one module compiled for llvm-cpu with ``--fixes=fixes``: one compile serves a
    test file's cases, so the default run pays one compile per fix."""
    path = folder / "cases.mlir"
    path.write_text(cases_program(chosen))
    return e2e.compile_program(str(path), CPU, fixes=fixes, extra_flags=extra_flags)


def stock_compile(chosen, folder):
    """The cases as one module compiled for llvm-cpu by stock IREE (in process, nothing injected): the
    ``phases.CompileResult`` whose failure a fix's test pins."""
    path = folder / "stock.mlir"
    path.write_text(cases_program(chosen))
    return compile_with_injections(str(path), list(CPU.compile_flags), [])

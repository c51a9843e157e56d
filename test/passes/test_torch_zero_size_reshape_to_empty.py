"""torch-zero-size-reshape-to-empty end to end: reshapes of tensors with no elements compile and run.

Stock IREE 3.13 dies with SIGFPE inside its torch frontend (``ConvertAtenViewOp::
getMultiplier``) on a reshape with a static 0-sized dim, as on onnx_ops'
``test_reshape_allowzero_reordered``; run in opt-py's process the signal would
take the test run down, so stock is only ever run in a subprocess here. With
the pass, that ONNX test compiles with ``--fixes`` and ``iree-run-module
--flagfile`` from its folder matches its expected output; random reshapes
(torch view/reshape/_unsafe_view and ONNX Reshape; a 0 on either side; static
and dynamic dims; five dtypes) compile in one module each, at the start and
inside the frontend, and each returns numpy's shape and dtype.
"""

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from torch_e2e import NUMPY, native_compile

CPU = e2e.TARGETS["cpu"]
PASS = "torch-zero-size-reshape-to-empty"
ONNX_TEST = (
    Path(__file__).resolve().parents[2]
    / ".."
    / "shared"
    / "peer"
    / "onnx_ops"
    / "onnx"
    / "node"
    / "generated"
    / "test_reshape_allowzero_reordered"
)
DTYPES = ["f32", "f16", "si64", "si32", "i1"]


@dataclass(frozen=True)
class Case:
    name: str
    op: str  # torch.aten.view / reshape / _unsafe_view, or onnx.Reshape
    dtype: str
    shape: tuple  # the input's run-time sizes
    dynamic: tuple  # input dims dynamic in its type
    out: tuple  # the result's sizes
    source: dict  # result dim -> input dim whose size it takes (dynamic in the type, torch.aten.size.int)

    def vtensor(self, sizes, dynamic) -> str:
        return (
            f"!torch.vtensor<[{','.join('?' if d in dynamic else str(s) for d, s in enumerate(sizes))}],{self.dtype}>"
        )

    def types(self):
        return self.vtensor(self.shape, self.dynamic), self.vtensor(self.out, self.source)

    def function(self) -> str:
        x, r = self.types()
        if self.op == "onnx.Reshape":
            return "\n".join(
                [
                    f"func.func @{self.name}(%x: {x}, %s: !torch.vtensor<[{len(self.out)}],si64>) -> {r} "
                    "attributes {torch.onnx_meta.opset_version = 21 : si64} {",
                    f'  %r = torch.operator "onnx.Reshape"(%x, %s) {{torch.onnx.allowzero = 1 : si64}} : '
                    f"({x}, !torch.vtensor<[{len(self.out)}],si64>) -> {r}",
                    f"  return %r : {r}",
                    "}",
                ]
            )
        lines = [f"func.func @{self.name}(%x: {x}) -> {r} {{"]
        items = []
        for d, size in enumerate(self.out):
            if d in self.source:
                k = self.source[d]
                lines += [
                    f"  %k{d} = torch.constant.int {k}",
                    f"  %s{d} = torch.aten.size.int %x, %k{d} : {x}, !torch.int -> !torch.int",
                ]
            else:
                lines.append(f"  %s{d} = torch.constant.int {size}")
            items.append(f"%s{d}")
        ints = ", ".join(["!torch.int"] * len(items))
        lines += [
            f"  %l = torch.prim.ListConstruct {', '.join(items)} : ({ints}) -> !torch.list<int>",
            f"  %r = {self.op} %x, %l : {x}, !torch.list<int> -> {r}",
            f"  return %r : {r}",
            "}",
        ]
        return "\n".join(lines)

    def inputs(self, rng):
        x = rng.integers(0, 2, self.shape).astype(NUMPY[self.dtype])
        return [x] if self.op != "onnx.Reshape" else [x, np.array(self.out, np.int64)]


def random_case(rng, n: int, op: str) -> Case:
    shape = [int(s) for s in rng.integers(1, 5, int(rng.integers(1, 5)))]
    out = [int(s) for s in rng.integers(1, 5, int(rng.integers(1, 5)))]
    # A 0 on the input side, or on the result side only (the input's 0 then dynamic in its type).
    shape[int(rng.integers(len(shape)))] = 0
    out[int(rng.integers(len(out)))] = 0
    dynamic = {d for d in range(len(shape)) if rng.random() < 0.4}
    if rng.random() < 0.3:
        dynamic |= {d for d, s in enumerate(shape) if s == 0}
    source = {}
    if op != "onnx.Reshape":
        for d in range(len(out)):
            if out[d] != 0 and rng.random() < 0.3:
                k = int(rng.integers(len(shape)))
                if shape[k] != 0:
                    out[d], source[d] = shape[k], k
    dtype = str(rng.choice(DTYPES))
    return Case(f"case{n}", op, dtype, tuple(shape), tuple(sorted(dynamic)), tuple(out), source)


def cases(ops, count: int, seed: int) -> list[Case]:
    rng = np.random.default_rng(seed)
    return [random_case(rng, n, ops[n % len(ops)]) for n in range(count)]


TORCH = cases(["torch.aten.view", "torch.aten.reshape", "torch.aten._unsafe_view"], 24, 3)
ONNX = cases(["onnx.Reshape"], 8, 4)


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


def test_the_generator_covers_the_family():
    assert {c.op for c in TORCH} == {"torch.aten.view", "torch.aten.reshape", "torch.aten._unsafe_view"}
    assert {c.dtype for c in TORCH + ONNX} == set(DTYPES)
    assert any(0 in [s for d, s in enumerate(c.shape) if d in c.dynamic] for c in TORCH)  # 0 in the result only
    assert any(c.source for c in TORCH) and any(c.dynamic for c in TORCH)


@pytest.mark.parametrize("chosen", [TORCH, ONNX], ids=["torch", "onnx"])
def test_every_case_is_rewritten(chosen):
    """Before compiling in process: a reshape left would crash the test run."""
    out = run_pipeline(program(chosen), PASS)
    assert "torch.aten.view" not in out and "torch.aten.reshape" not in out and "onnx.Reshape" not in out
    assert out.count("torch_c.from_builtin_tensor") == len(chosen)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("zero")
    out = {}
    for key, chosen, inject in (
        ("torch-start", TORCH, {"inject": (f"start:{PASS}",)}),
        ("onnx-start", ONNX, {"inject": (f"start:{PASS}",)}),
        ("torch-frontend", TORCH, {"inject_input": (f"before:convert-torch-to-linalg:{PASS}",)}),
    ):
        test_every_case_is_rewritten(chosen)
        path = tmp / f"{key}.mlir"
        path.write_text(program(chosen))
        out[key] = _compile(path, **inject)
    return out


def _compile(path, inject=(), inject_input=()):
    from opt_py.errors import OptPyError
    from opt_py.iree.input_conversion import InputInjection
    from opt_py.iree.phases import Injection, compile_with_injections

    result = compile_with_injections(
        str(path),
        list(CPU.compile_flags),
        [Injection.parse(s) for s in inject],
        input_injections=[InputInjection.parse(s) for s in inject_input],
    )
    if not result.ok:
        raise OptPyError("\n".join(result.messages))
    return result.output


@pytest.mark.parametrize(
    "key,case",
    [("torch-start", c) for c in TORCH] + [("onnx-start", c) for c in ONNX] + [("torch-frontend", c) for c in TORCH],
    ids=lambda x: x if isinstance(x, str) else x.name,
)
def test_empty_result_of_numpys_shape(key, case, compiled):
    rng = np.random.default_rng(int(case.name[4:]))
    inputs = case.inputs(rng)
    (got,) = e2e.run_runtime(compiled[key], CPU, case.name, inputs)
    want = np.reshape(inputs[0], case.out)
    assert got.shape == want.shape == case.out and got.dtype == want.dtype and got.size == 0


def _onnx_test_or_skip():
    if not (ONNX_TEST / "model.mlir").exists():
        pytest.skip(f"the peers' onnx_ops suite is not at {ONNX_TEST}")
    return ONNX_TEST


def test_stock_dies_on_the_onnx_test():
    """Stock iree-compile, in a process of its own: SIGFPE in the view lowering, a stack dump naming it."""
    folder = _onnx_test_or_skip()
    proc = native_compile("model.mlir", cwd=folder)
    assert proc.returncode == -8, proc.returncode  # SIGFPE
    assert "ConvertAtenViewOp::getMultiplier" in proc.stderr


def test_onnx_test_passes_with_fixes(tmp_path):
    """``opt-py compile --fixes`` with IREE's own flags for the suite, then the suite's own check."""
    folder = _onnx_test_or_skip()
    vmfb = tmp_path / "model.vmfb"
    flags = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
    opt_py = [sys.executable, "-m", "opt_py", "compile", "--fixes", *flags, "model.mlir", "-o", str(vmfb)]
    proc = subprocess.run(opt_py, cwd=folder, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    run = [e2e.runtime_tool("iree-run-module"), f"--module={vmfb}", "--device=local-sync"]
    proc = subprocess.run([*run, "--flagfile=run_module_io_flags.txt"], cwd=folder, capture_output=True, text=True)
    assert proc.returncode == 0 and "[SUCCESS]" in proc.stdout, proc.stdout + proc.stderr

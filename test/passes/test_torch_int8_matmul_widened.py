"""torch-int8-matmul-widened end to end: 8-bit integer matrix products equal torch's, wrapping included.

Stock IREE's torch frontend crashes (SIGSEGV in ``ConvertTorchToLinalg``) on
``mm``, ``bmm`` and ``matmul`` of si8 or ui8; with
``--fixes=torch-int8-matmul-widened`` each function here compiles for
llvm-cpu and returns torch's result bit for bit, on full-range inputs with a
long inner dim (the products wrap modulo 2^8 many times): si8 and ui8 ``mm``
with dynamic sizes, si8 ``bmm``, si8 ``matmul``, and an ``mm`` with K = 0
(torch-mlir's ``AtenMmInt8ZeroK_basic``: zeros, with ``linalg-empty-loop-to-init`` for
the K = 0 product it then makes).
"""

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import native_compile

torch = pytest.importorskip("torch")

PASS = "torch-int8-matmul-widened"
CPU = e2e.TARGETS["cpu"]

# name -> (op, dtype, a's sizes, b's sizes, result's sizes in the program, the shapes run)
CASES = {
    "mm_si8": ("mm", "si8", "[?,?]", "[?,?]", "[?,?]", ((5, 300), (300, 4))),
    "mm_ui8": ("mm", "ui8", "[?,?]", "[?,?]", "[?,?]", ((3, 257), (257, 6))),
    "bmm_si8": ("bmm", "si8", "[2,4,64]", "[2,64,3]", "[2,4,3]", ((2, 4, 64), (2, 64, 3))),
    "matmul_si8": ("matmul", "si8", "[4,100]", "[100,5]", "[4,5]", ((4, 100), (100, 5))),
    "mm_zero_k": ("mm", "si8", "[3,0]", "[0,3]", "[3,3]", ((3, 0), (0, 3))),
}
NUMPY = {"si8": np.int8, "ui8": np.uint8}


def function(name: str) -> str:
    op, dtype, a, b, r, _ = CASES[name]
    ta, tb, tr = (f"!torch.vtensor<{s},{dtype}>" for s in (a, b, r))
    return (
        f"func.func @{name}(%a: {ta}, %b: {tb}) -> {tr} {{\n"
        f"  %0 = torch.aten.{op} %a, %b : {ta}, {tb} -> {tr}\n"
        f"  return %0 : {tr}\n}}\n"
    )


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    path = tmp_path_factory.mktemp("int8mm") / "int8mm.mlir"
    path.write_text("".join(function(n) for n in CASES))
    return e2e.compile_program(str(path), CPU, fixes=f"{PASS},linalg-empty-loop-to-init")  # K = 0: its SIGFPE


def test_stock_crashes_on_an_int8_mm(tmp_path):
    """Stock iree-compile, in a process of its own: SIGSEGV (the crash would take the test run down)."""
    path = tmp_path / "stock.mlir"
    path.write_text(function("mm_si8"))
    proc = native_compile(path)
    assert proc.returncode == -11, proc.returncode  # SIGSEGV
    assert "ConvertTorchToLinalg" in proc.stderr


@pytest.mark.parametrize("name", list(CASES))
def test_int8_product_matches_torch(name, vmfb):
    op, dtype, *_, shapes = CASES[name]
    rng = np.random.default_rng(len(name))
    info = np.iinfo(NUMPY[dtype])
    a, b = (rng.integers(info.min, info.max + 1, s).astype(NUMPY[dtype]) for s in shapes)
    (out,) = e2e.run_runtime(vmfb, CPU, name, [a, b])
    want = getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    got = out.view(want.dtype) if out.dtype != want.dtype and out.dtype.itemsize == want.dtype.itemsize else out
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape)
    assert np.array_equal(got, want)

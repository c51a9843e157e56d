"""scan-fill-input-as-generic end to end: cumulative sums and products of splats, by numbers.

Stock IREE 3.13 does not compile a scan of a ``linalg.fill`` over a dynamic
dim: the fill, cloned into the scan's dispatch, is allocated by the dim's
upper bound (llvm-cpu: "exceeded stack allocation limit"; cuda and rocm: "...
bytes of shared memory"). With the pass, random scans (python/cases/scan.py:
rank 1-3, any dim scanned, static and dynamic dims, f32/f16/i32/i64, sums and
products, inclusive and exclusive, a constant or runtime splat or an
argument) compile in one module and equal numpy exactly on llvm-cpu, and
compile for cuda and rocm. The torch forms (torch.cumsum of torch.ones as OPT
writes its positions, torch.cumprod of torch.full over dim 0) and ONNX CumSum
of a ConstantOfShape, reversed (which stock compiles: the importer
broadcasts with a generic), go through ``--fixes``.
"""

import numpy as np
import pytest
from opt_py.cases import scan
from opt_py.errors import OptPyError
from opt_py.execution import e2e
from opt_py.iree import fixes as fix_table

CPU = e2e.TARGETS["cpu"]
PASS = (f"global-optimization:{scan.PASS}",)
# Two dynamic dims multiply past 2^64 on the CPU ("overflows"); one gives the 2^55-byte allocation.
STOCK_ERRORS = {
    "cpu": "exceeded stack allocation limit|stack allocation size overflows 64 bits",
    "cuda": "bytes of shared memory",
    "rocm": "bytes of shared memory",
}


def module(cases) -> str:
    return "\n".join(scan.program(c, name=f"case{c.seed}") for c in cases)


def stock_failing(seed: int, n: int) -> list:
    """``n`` random cases stock cannot compile (a fill scanned over a dynamic dim), from ``seed`` on."""
    out, s = [], seed
    while len(out) < n:
        c = scan.random_case(s)
        if scan.stock_fails(c):
            out.append(c)
        s += 1
    return out


def run_all(cases, tmp_path, inject=PASS):
    path = tmp_path / "scans.mlir"
    path.write_text(module(cases))
    vmfb = e2e.compile_program(str(path), CPU, inject=inject)
    for c in cases:
        args = scan.inputs(c)
        (want,) = scan.expected(c, args)
        (got,) = e2e.run_runtime(vmfb, CPU, f"case{c.seed}", args)
        assert got.dtype == want.dtype and got.shape == want.shape, c.describe()
        assert np.array_equal(got, want), f"{c.describe()}:\n{got}\n!=\n{want}"


def test_random_scans_match_numpy_with_the_pass(tmp_path):
    """Ten random scans (at least four that stock cannot compile, some the pass leaves alone) in one module."""
    cases = scan.cases(0, 10)
    assert sum(scan.stock_fails(c) for c in cases) >= 4 and not all(scan.rewritten(c) for c in cases)
    run_all(cases, tmp_path)


@pytest.mark.slow
def test_many_random_scans_match_numpy_with_the_pass(tmp_path):
    run_all(scan.cases(100, 48), tmp_path)


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_stock_sizes_the_fill_by_the_upper_bound(seed, tmp_path):
    """A fill scanned over a dynamic dim, alone in a module: stock fails with the unbounded temporary."""
    (c,) = stock_failing(seed * 50, 1)
    path = tmp_path / "scan.mlir"
    path.write_text(scan.program(c))
    with pytest.raises(OptPyError, match=STOCK_ERRORS["cpu"]):
        e2e.compile_program(str(path), CPU)


# rocm's compile is the slower: with --runslow
@pytest.mark.parametrize("target", ["cuda", pytest.param("rocm", marks=pytest.mark.slow)])
def test_gpus_compile_with_the_pass(target, tmp_path):
    """Four scans stock cannot compile for GPUs (their workgroup memory) compile with the pass."""
    cases = stock_failing(7, 4)
    path = tmp_path / "scans.mlir"
    path.write_text(module(cases))
    tgt = e2e.TARGETS[target]
    with pytest.raises(OptPyError, match=STOCK_ERRORS[target]):
        e2e.compile_program(str(path), tgt)
    assert len(e2e.compile_program(str(path), tgt, inject=PASS)) > 0


# The torch and ONNX forms, as iree-turbine and the ONNX importer write them.
TORCH_CUMSUM_OF_ONES = """
func.func @main(%arg0: !torch.vtensor<[1,?],si64>) -> !torch.vtensor<[1,?],si64> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[1,?],si64>, !torch.int -> !torch.int
  %1 = torch.prim.ListConstruct %int1, %0 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %cpu = torch.constant.device "cpu"
  %false = torch.constant.bool false
  %2 = torch.aten.ones %1, %none, %none, %cpu, %false : !torch.list<int>, !torch.none, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor<[1,?],f32>
  %3 = torch.aten.cumsum %2, %int1, %none : !torch.vtensor<[1,?],f32>, !torch.int, !torch.none -> !torch.vtensor<[1,?],f32>
  %4 = torch.aten.mul.Tensor %3, %2 : !torch.vtensor<[1,?],f32>, !torch.vtensor<[1,?],f32> -> !torch.vtensor<[1,?],f32>
  %5 = torch.aten.sub.Scalar %4, %int1, %int1 : !torch.vtensor<[1,?],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,?],f32>
  %int4 = torch.constant.int 4
  %6 = torch.prims.convert_element_type %5, %int4 : !torch.vtensor<[1,?],f32>, !torch.int -> !torch.vtensor<[1,?],si64>
  %7 = torch.aten.add.Tensor %6, %arg0, %int1 : !torch.vtensor<[1,?],si64>, !torch.vtensor<[1,?],si64>, !torch.int -> !torch.vtensor<[1,?],si64>
  return %7 : !torch.vtensor<[1,?],si64>
}
"""

# torch.full as iree-turbine exports it (empty_strided, then fill.Scalar), over a dynamic dim 0.
TORCH_CUMPROD_OF_FULL_DIM0 = """
func.func @main(%arg0: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %int6 = torch.constant.int 6
  %0 = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,3],f32>, !torch.int -> !torch.int
  %1 = torch.prim.ListConstruct %0, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.prim.ListConstruct %int3, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %cpu = torch.constant.device "cpu"
  %false = torch.constant.bool false
  %3 = torch.aten.empty_strided %1, %2, %int6, %int0, %cpu, %false : !torch.list<int>, !torch.list<int>, !torch.int, !torch.int, !torch.Device, !torch.bool -> !torch.vtensor<[?,3],f32>
  %half = torch.constant.float -5.000000e-01
  %4 = torch.aten.fill.Scalar %3, %half : !torch.vtensor<[?,3],f32>, !torch.float -> !torch.vtensor<[?,3],f32>
  %5 = torch.aten.cumprod %4, %int0, %none : !torch.vtensor<[?,3],f32>, !torch.int, !torch.none -> !torch.vtensor<[?,3],f32>
  %6 = torch.aten.add.Tensor %5, %arg0, %int1 : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>, !torch.int -> !torch.vtensor<[?,3],f32>
  return %6 : !torch.vtensor<[?,3],f32>
}
"""

ONNX_REVERSE_CUMSUM_OF_CONSTANT_OF_SHAPE = """
func.func @main(%arg0: !torch.vtensor<[2,?],f32>) -> !torch.vtensor<[2,?],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0 = torch.operator "onnx.Shape"(%arg0) : (!torch.vtensor<[2,?],f32>) -> !torch.vtensor<[2],si64>
  %1 = torch.operator "onnx.ConstantOfShape"(%0) {torch.onnx.value = dense<1.500000e+00> : tensor<1xf32>} : (!torch.vtensor<[2],si64>) -> !torch.vtensor<[2,?],f32>
  %2 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<1> : tensor<si64>} : () -> !torch.vtensor<[],si64>
  %3 = torch.operator "onnx.CumSum"(%1, %2) {torch.onnx.reverse = 1 : si64} : (!torch.vtensor<[2,?],f32>, !torch.vtensor<[],si64>) -> !torch.vtensor<[2,?],f32>
  %4 = torch.operator "onnx.Add"(%3, %arg0) : (!torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],f32>) -> !torch.vtensor<[2,?],f32>
  return %4 : !torch.vtensor<[2,?],f32>
}
"""


def _opt_positions(x):
    return np.arange(x.shape[1], dtype=np.int64)[None, :] + x


def _cumprod_dim0(x):
    return np.cumprod(np.full(x.shape, -0.5, np.float32), axis=0, dtype=np.float32) + x


def _reverse_cumsum(x):
    return np.cumsum(np.full(x.shape, 1.5, np.float32)[:, ::-1], axis=1)[:, ::-1] + x


def _inputs(shape, dtype, *extra):
    return lambda: [np.random.default_rng(0).integers(-5, 5, shape).astype(dtype), *extra]


FRONTEND = [
    pytest.param(TORCH_CUMSUM_OF_ONES, _inputs((1, 23), np.int64), _opt_positions, "fill", id="torch_cumsum_of_ones"),
    pytest.param(
        TORCH_CUMPROD_OF_FULL_DIM0,
        _inputs((9, 3), np.float32),
        _cumprod_dim0,
        "fill",
        id="torch_cumprod_of_full_dim0",
        marks=pytest.mark.slow,
    ),
    # The ONNX importer broadcasts ConstantOfShape's 0-d value with a linalg.generic, which IREE keeps out of the
    # scan's dispatch: stock compiles it, and so must --fixes.
    pytest.param(
        ONNX_REVERSE_CUMSUM_OF_CONSTANT_OF_SHAPE,
        _inputs((2, 13), np.float32),
        _reverse_cumsum,
        None,
        id="onnx_cumsum_of_constant_of_shape",
    ),
]
STOCK_FRONTEND_ERRORS = {"fill": STOCK_ERRORS["cpu"]}


@pytest.mark.parametrize("text,inputs,reference,stock_fails", FRONTEND)
def test_torch_and_onnx_forms_with_fixes(text, inputs, reference, stock_fails, tmp_path):
    """Stock fails on the CPU where the frontend makes a linalg.fill; ``--fixes`` compiles each and matches
    numpy (PyTorch's and ONNX's definitions)."""
    path = tmp_path / "p.mlir"
    path.write_text(text)
    if stock_fails:
        with pytest.raises(OptPyError, match=STOCK_FRONTEND_ERRORS[stock_fails]):
            e2e.compile_program(str(path), CPU)
    inject, codegen = fix_table.specs("all", CPU.compile_flags)
    vmfb = e2e.compile_program(str(path), CPU, inject=inject, inject_codegen=codegen)
    args = inputs()
    (got,) = e2e.run_runtime(vmfb, CPU, "main", args)
    np.testing.assert_array_equal(got, reference(*args))

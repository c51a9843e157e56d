"""abi-convert-demoted-tensors end to end: f64 torch programs run under IREE's default demotion and are right.

Stock iree-compile 3.13 demotes f64 to f32 by default and leaves the torch
ABI's imports and exports as bitcasts between the two: every f64 program
fails at run time (``hal.buffer_view.create``: "buffer view byte length 96
exceeds backing buffer byte length 48"; 20 of torch-mlir's e2e sample).
With ``--fixes`` each function takes and returns f64 (complex128 for a
complex input), computes in f32 as the demotion intends, and equals numpy's
f64 result to f32 precision (rtol 1e-6). With the demotion turned off
(``--iree-input-demote-f64-to-f32=false``) the pass finds nothing and the
program computes in f64, bit-exact.

The functions are torch-mlir e2e tests written out (``Add_MixPModule``:
f32 + f64; ``AtenOuterF32F64``: dynamic sizes read after the barrier;
``AtenRealView128Module``: a complex128 input) and their like; all in one
module compiled once.
"""

import numpy as np
import pytest
from opt_py.execution import e2e

PASS = "abi-convert-demoted-tensors"
CPU = e2e.TARGETS["cpu"]

PROGRAM = """
func.func @tanh_add(%x: !torch.vtensor<[3,4],f64>, %y: !torch.vtensor<[3,4],f64>) -> !torch.vtensor<[3,4],f64> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.tanh %x : !torch.vtensor<[3,4],f64> -> !torch.vtensor<[3,4],f64>
  %1 = torch.aten.add.Tensor %0, %y, %int1 : !torch.vtensor<[3,4],f64>, !torch.vtensor<[3,4],f64>, !torch.int -> !torch.vtensor<[3,4],f64>
  return %1 : !torch.vtensor<[3,4],f64>
}
func.func @add_mixed_dynamic(%x: !torch.vtensor<[?,?],f32>, %y: !torch.vtensor<[?,?],f64>) -> !torch.vtensor<[?,?],f64> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f64>, !torch.int -> !torch.vtensor<[?,?],f64>
  return %0 : !torch.vtensor<[?,?],f64>
}
func.func @outer(%x: !torch.vtensor<[?],f32>, %y: !torch.vtensor<[?],f64>) -> !torch.vtensor<[?,?],f64> {
  %0 = torch.aten.outer %x, %y : !torch.vtensor<[?],f32>, !torch.vtensor<[?],f64> -> !torch.vtensor<[?,?],f64>
  return %0 : !torch.vtensor<[?,?],f64>
}
func.func @view_as_real(%x: !torch.vtensor<[?,?,1],complex<f64>>) -> !torch.vtensor<[?,?,1,2],f64> {
  %0 = torch.aten.view_as_real %x : !torch.vtensor<[?,?,1],complex<f64>> -> !torch.vtensor<[?,?,1,2],f64>
  return %0 : !torch.vtensor<[?,?,1,2],f64>
}
func.func @int_to_f64_scaled(%x: !torch.vtensor<[5],si64>) -> !torch.vtensor<[5],f64> {
  %int7 = torch.constant.int 7
  %float = torch.constant.float 2.500000e-01
  %0 = torch.prims.convert_element_type %x, %int7 : !torch.vtensor<[5],si64>, !torch.int -> !torch.vtensor<[5],f64>
  %1 = torch.aten.mul.Scalar %0, %float : !torch.vtensor<[5],f64>, !torch.float -> !torch.vtensor<[5],f64>
  return %1 : !torch.vtensor<[5],f64>
}
func.func @two_results_zero_d(%x: !torch.vtensor<[],f64>, %y: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[],f64>, !torch.vtensor<[4],f32>) {
  %int1 = torch.constant.int 1
  %0 = torch.aten.mul.Tensor %x, %x : !torch.vtensor<[],f64>, !torch.vtensor<[],f64> -> !torch.vtensor<[],f64>
  %1 = torch.aten.add.Tensor %y, %y, %int1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[4],f32>
  return %0, %1 : !torch.vtensor<[],f64>, !torch.vtensor<[4],f32>
}
"""


def _cases(rng):
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    a32, b64 = rng.standard_normal((2, 5)).astype(np.float32), rng.standard_normal((2, 5))
    u32, v64 = rng.standard_normal(6).astype(np.float32), rng.standard_normal(7)
    z = (rng.random((10, 6, 1)) + 1j * rng.random((10, 6, 1))).astype(np.complex128)
    ints = rng.integers(-1000, 1000, 5)
    s, w = np.array(rng.standard_normal()), rng.standard_normal(4).astype(np.float32)
    return {
        "tanh_add": ([x, y], [np.tanh(x) + y]),
        "add_mixed_dynamic": ([a32, b64], [a32.astype(np.float64) + b64]),
        "outer": ([u32, v64], [np.outer(u32.astype(np.float64), v64)]),
        "view_as_real": ([z], [np.stack([z.real, z.imag], axis=-1)]),
        "int_to_f64_scaled": ([ints], [ints.astype(np.float64) * 0.25]),
        "two_results_zero_d": ([s, w], [s * s, w + w]),
    }


CASES = _cases(np.random.default_rng(64))


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    path = tmp_path_factory.mktemp("f64") / "program.mlir"
    path.write_text(PROGRAM)
    return e2e.compile_program(str(path), CPU, fixes=PASS)


def _only(name: str) -> str:
    """The one function ``name`` of PROGRAM."""
    start = PROGRAM.index(f"func.func @{name}(")
    end = PROGRAM.find("func.func @", start + 1)
    return PROGRAM[start : end if end > 0 else len(PROGRAM)]


def test_stock_fails_at_run_time_on_the_buffer_size(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(_only("tanh_add"))
    stock = e2e.compile_program(str(path), CPU)
    with pytest.raises(Exception, match="exceeds backing buffer byte length"):
        e2e.run_runtime(stock, CPU, "tanh_add", CASES["tanh_add"][0])


@pytest.mark.parametrize("name", list(CASES))
def test_f64_at_the_boundary_computed_in_f32(name, vmfb):
    inputs, want = CASES[name]
    got = e2e.run_runtime(vmfb, CPU, name, inputs)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7)


@pytest.mark.slow
def test_without_the_demotion_nothing_to_convert_and_f64_is_exact(tmp_path):
    """``--iree-input-demote-f64-to-f32=false``: no ABI bitcast is left; --fixes changes nothing and the
    program computes in f64 (the mixed add is exact: an f32 value is exact in f64)."""
    path = tmp_path / "program.mlir"
    path.write_text(_only("add_mixed_dynamic"))  # no tanh: stock's f64 tanh does not link
    keep = ("--iree-input-demote-f64-to-f32=false",)
    stock = e2e.compile_program(str(path), CPU, extra_flags=keep)
    fixed = e2e.compile_program(str(path), CPU, extra_flags=keep, fixes=PASS)
    assert fixed == stock
    inputs, (want,) = CASES["add_mixed_dynamic"]
    (got,) = e2e.run_runtime(stock, CPU, "add_mixed_dynamic", inputs)
    assert got.dtype == np.float64 and np.array_equal(got, want)

"""linalg-empty-loop-to-init end to end: K = 0 contractions and empty reductions compile and equal numpy.

Stock iree-compile 3.13 dies of SIGFPE in ``iree-flow-annotate-dispatches``
on a named linalg op with a loop of static range 0 and a non-empty result
(torch-mlir's ``MatmulZeroK_basic``, ``AtenMmZeroK_basic``,
``AtenBmmZeroK_basic``): its cost model divides by the range. Stock is only
ever run in a subprocess here, the crash would take the test run down. With
``--fixes`` (the pass at phase ``input``) each function equals numpy: a K = 0
product is all zeros (plus the accumulator where there is one), a max over an
empty dim is the init the frontend wrote, a convolution over 0 channels its
init.

The torch functions are torch-mlir's tests written out (``torch.mm``,
``torch.bmm``, ``torch.matmul`` of a 5x0 by a 0x10); the linalg ones take
their accumulator or init as an argument, random, so a rewrite that dropped
it would show.
"""

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import native_compile

PASS = "linalg-empty-loop-to-init"
CPU = e2e.TARGETS["cpu"]

TORCH = """
func.func @mm(%a: !torch.vtensor<[5,0],f32>, %b: !torch.vtensor<[0,10],f32>) -> !torch.vtensor<[5,10],f32> {
  %r = torch.aten.mm %a, %b : !torch.vtensor<[5,0],f32>, !torch.vtensor<[0,10],f32> -> !torch.vtensor<[5,10],f32>
  return %r : !torch.vtensor<[5,10],f32>
}
func.func @bmm(%a: !torch.vtensor<[2,5,0],f32>, %b: !torch.vtensor<[2,0,10],f32>) -> !torch.vtensor<[2,5,10],f32> {
  %r = torch.aten.bmm %a, %b : !torch.vtensor<[2,5,0],f32>, !torch.vtensor<[2,0,10],f32> -> !torch.vtensor<[2,5,10],f32>
  return %r : !torch.vtensor<[2,5,10],f32>
}
func.func @matmul(%a: !torch.vtensor<[5,0],f32>, %b: !torch.vtensor<[0,10],f32>) -> !torch.vtensor<[5,10],f32> {
  %r = torch.aten.matmul %a, %b : !torch.vtensor<[5,0],f32>, !torch.vtensor<[0,10],f32> -> !torch.vtensor<[5,10],f32>
  return %r : !torch.vtensor<[5,10],f32>
}
"""

LINALG = """
func.func @matmul_acc(%a: tensor<5x0xf32>, %b: tensor<0x10xf32>, %acc: tensor<5x10xf32>) -> tensor<5x10xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<5x0xf32>, tensor<0x10xf32>) outs(%acc : tensor<5x10xf32>) -> tensor<5x10xf32>
  return %r : tensor<5x10xf32>
}
func.func @batch_matmul_i8_acc(%a: tensor<2x?x0xi8>, %b: tensor<2x0x?xi8>, %acc: tensor<2x?x?xi32>) -> tensor<2x?x?xi32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x?x0xi8>, tensor<2x0x?xi8>) outs(%acc : tensor<2x?x?xi32>) -> tensor<2x?x?xi32>
  return %r : tensor<2x?x?xi32>
}
func.func @reduce_max(%a: tensor<5x0xf32>, %init: tensor<5xf32>) -> tensor<5xf32> {
  %r = linalg.reduce ins(%a : tensor<5x0xf32>) outs(%init : tensor<5xf32>) dimensions = [1]
    (%x: f32, %o: f32) {
      %m = arith.maximumf %x, %o : f32
      linalg.yield %m : f32
    }
  return %r : tensor<5xf32>
}
func.func @conv(%x: tensor<1x0x8x8xf32>, %w: tensor<4x0x3x3xf32>, %init: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %r = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x0x8x8xf32>, tensor<4x0x3x3xf32>) outs(%init : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}
"""


def _inputs(rng):
    f32 = np.float32
    acc = rng.standard_normal((5, 10)).astype(f32)
    acc_i32 = rng.integers(-1000, 1000, (2, 3, 7)).astype(np.int32)
    init = rng.standard_normal(5).astype(f32)
    conv_init = rng.standard_normal((1, 4, 6, 6)).astype(f32)
    return {
        "mm": ([np.zeros((5, 0), f32), np.zeros((0, 10), f32)], np.zeros((5, 10), f32)),
        "bmm": ([np.zeros((2, 5, 0), f32), np.zeros((2, 0, 10), f32)], np.zeros((2, 5, 10), f32)),
        "matmul": ([np.zeros((5, 0), f32), np.zeros((0, 10), f32)], np.zeros((5, 10), f32)),
        "matmul_acc": ([np.zeros((5, 0), f32), np.zeros((0, 10), f32), acc], acc),
        "batch_matmul_i8_acc": ([np.zeros((2, 3, 0), np.int8), np.zeros((2, 0, 7), np.int8), acc_i32], acc_i32),
        "reduce_max": ([np.zeros((5, 0), f32), init], init),
        "conv": ([np.zeros((1, 0, 8, 8), f32), np.zeros((4, 0, 3, 3), f32), conv_init], conv_init),
    }


CASES = _inputs(np.random.default_rng(0))


@pytest.fixture(scope="module")
def vmfbs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("empty-loop")
    out = {}
    for name, text in (("torch", TORCH), ("linalg", LINALG)):
        path = folder / f"{name}.mlir"
        path.write_text(text)
        out[name] = e2e.compile_program(str(path), CPU, fixes=PASS)
    return out


def test_stock_dies_of_sigfpe_naming_the_dispatch_cost(tmp_path):
    """Stock iree-compile on the torch functions, in a process of its own: SIGFPE in AnnotateDispatches."""
    path = tmp_path / "stock.mlir"
    path.write_text(TORCH)
    proc = native_compile(path)
    assert proc.returncode == -8, proc.returncode  # SIGFPE
    assert "AnnotateDispatches" in proc.stderr


@pytest.mark.parametrize("name", list(CASES))
def test_empty_loop_is_its_init(name, vmfbs):
    inputs, want = CASES[name]
    vmfb = vmfbs["torch" if f"@{name}(" in TORCH else "linalg"]
    (out,) = e2e.run_runtime(vmfb, CPU, name, inputs)
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape)
    assert np.array_equal(out, want), (out, want)

"""torch-view-as-complex-static-pair end to end: torch.view_as_complex over dynamic dims equals torch's.

Stock IREE fails ``view_as_complex`` of a tensor whose last dim is dynamic
(torch-mlir's ``AtenComplexViewModule_basic`` exports ``[?, ?]``); with
``--fixes=torch-view-as-complex-static-pair`` each function here compiles for
llvm-cpu and returns exactly ``torch.view_as_complex`` of its input, for
several leading sizes (a view: the bits are the input's).
"""

import numpy as np
import pytest
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections

torch = pytest.importorskip("torch")

PASS = "torch-view-as-complex-static-pair"
CPU = e2e.TARGETS["cpu"]

PROGRAM = """
func.func @all_dynamic(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?],complex<f32>> {
  %r = torch.aten.view_as_complex %x : !torch.vtensor<[?,?],f32> -> !torch.vtensor<[?],complex<f32>>
  return %r : !torch.vtensor<[?],complex<f32>>
}
func.func @rank3(%x: !torch.vtensor<[?,3,?],f32>) -> !torch.vtensor<[?,3],complex<f32>> {
  %r = torch.aten.view_as_complex %x : !torch.vtensor<[?,3,?],f32> -> !torch.vtensor<[?,3],complex<f32>>
  return %r : !torch.vtensor<[?,3],complex<f32>>
}
"""


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    path = tmp_path_factory.mktemp("complex") / "complex.mlir"
    path.write_text(PROGRAM)
    return e2e.compile_program(str(path), CPU, fixes=PASS)


def test_stock_fails_on_a_dynamic_pair(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(PROGRAM)
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("dimension values are attached" in m for m in res.messages), res.messages[-3:]


@pytest.mark.parametrize("name,shape", [("all_dynamic", (7, 2)), ("all_dynamic", (1, 2)), ("rank3", (4, 3, 2))])
def test_view_as_complex_matches_torch(name, shape, vmfb):
    x = np.random.default_rng(len(shape) + shape[0]).standard_normal(shape).astype(np.float32)
    (out,) = e2e.run_runtime(vmfb, CPU, name, [x])
    want = torch.view_as_complex(torch.from_numpy(x)).numpy()
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape)
    assert np.array_equal(out, want)

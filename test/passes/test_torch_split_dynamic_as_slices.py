"""torch-split-dynamic-as-slices end to end: chunks of a dynamic dim, unpacked, equal torch.chunk's.

``x.chunk(3, dim)`` on a dynamic dim exports as ``split.Tensor`` by ``(d + 2) //
3`` and an unpack of three chunks; stock IREE fails it (the split is left
unconverted). With ``--fixes=torch-split-dynamic-as-slices`` the functions
here (chunks along dim 1 and dim 0 of a 3-d tensor, every dim dynamic)
compile for llvm-cpu and return exactly ``torch.chunk``'s chunks for sizes
where the last chunk is full, one short and two short.
"""

import numpy as np
import pytest
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections

torch = pytest.importorskip("torch")

PASS = "torch-split-dynamic-as-slices"
CPU = e2e.TARGETS["cpu"]
T = "!torch.vtensor<[?,?,?],f32>"


def function(dim: int) -> str:
    return f"""
func.func @chunk_dim{dim}(%x: {T}) -> ({T}, {T}, {T}) {{
  %dim = torch.constant.int {dim}
  %d = torch.aten.size.int %x, %dim : {T}, !torch.int -> !torch.int
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %p = torch.aten.add.int %d, %int2 : !torch.int, !torch.int -> !torch.int
  %s = torch.aten.floordiv.int %p, %int3 : !torch.int, !torch.int -> !torch.int
  %0 = torch.aten.split.Tensor %x, %s, %dim : {T}, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:3 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> {T}, {T}, {T}
  return %1#0, %1#1, %1#2 : {T}, {T}, {T}
}}
"""


PROGRAM = function(1) + function(0)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    path = tmp_path_factory.mktemp("split") / "split.mlir"
    path.write_text(PROGRAM)
    return e2e.compile_program(str(path), CPU, fixes=PASS)


def test_stock_fails_on_a_split_by_a_computed_size(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(function(1))
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("failed to legalize operation" in m for m in res.messages), res.messages[-3:]


@pytest.mark.parametrize("dim", [1, 0])
@pytest.mark.parametrize("size", [9, 8, 7])
def test_chunks_match_torch(dim, size, vmfb):
    shape = [4, 5, 3]
    shape[dim] = size
    x = np.random.default_rng(size + dim).standard_normal(shape).astype(np.float32)
    got = e2e.run_runtime(vmfb, CPU, f"chunk_dim{dim}", [x])
    want = [c.numpy() for c in torch.chunk(torch.from_numpy(x), 3, dim)]
    assert [g.shape for g in got] == [w.shape for w in want]
    assert all(np.array_equal(g, w) for g, w in zip(got, want))

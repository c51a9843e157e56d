"""torch-view-split-as-reshape end to end: a view splitting a dynamic dim into constant sizes equals torch's.

Stock IREE fails ``x.view(b, s, 12, 32)`` of a ``[?, ?, ?]`` x with ``b, s =
x.size()`` (torch-mlir's ``ViewDynamicExpandWithAtenSizeIntModule_basic``), its
``_unsafe_view`` and ``reshape`` forms and ``x.unflatten(-1, (12, 32))``; with
``--fixes=torch-view-split-as-reshape`` each function here compiles for
llvm-cpu and returns exactly what torch does, zero-size inputs included (torch
takes ``zeros(0, 5, 7).view(0, 5, 12, 32)``: no element says the split dim is 384).
"""

import numpy as np
import pytest
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections

torch = pytest.importorskip("torch")

PASS = "torch-view-split-as-reshape"
CPU = e2e.TARGETS["cpu"]
STRICT = "attributes {torch.assume_strict_symbolic_shapes}"  # as iree-turbine exports

PROGRAM = f"""
func.func @head_split(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,?,4,8],f32> {STRICT} {{
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %2 = torch.prim.ListConstruct %0, %1, %int4, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.view %x, %2 : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?,4,8],f32>
  return %3 : !torch.vtensor<[?,?,4,8],f32>
}}
func.func @unsafe_view(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,?,4,8],f32> {STRICT} {{
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %2 = torch.prim.ListConstruct %0, %1, %int4, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten._unsafe_view %x, %2 : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?,4,8],f32>
  return %3 : !torch.vtensor<[?,?,4,8],f32>
}}
func.func @reshape_middle(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,4,8,?],f32> {STRICT} {{
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %x, %int2 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %2 = torch.prim.ListConstruct %0, %int4, %int8, %1 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.reshape %x, %2 : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,4,8,?],f32>
  return %3 : !torch.vtensor<[?,4,8,?],f32>
}}
func.func @unflatten(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,4,8],f32> {STRICT} {{
  %int-1 = torch.constant.int -1
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %0 = torch.prim.ListConstruct %int4, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.unflatten.int %x, %int-1, %0 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[?,4,8],f32>
  return %1 : !torch.vtensor<[?,4,8],f32>
}}
"""

# name -> what torch computes, from the input
TORCH = {
    "head_split": lambda x: x.view(x.size(0), x.size(1), 4, 8),
    "unsafe_view": lambda x: torch.ops.aten._unsafe_view(x, [x.size(0), x.size(1), 4, 8]),
    "reshape_middle": lambda x: x.reshape(x.size(0), 4, 8, x.size(2)),
    "unflatten": lambda x: x.unflatten(-1, (4, 8)),
}


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    path = tmp_path_factory.mktemp("split") / "split.mlir"
    path.write_text(PROGRAM)
    return e2e.compile_program(str(path), CPU, fixes=PASS)


def test_stock_fails_on_a_dynamic_split(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(PROGRAM)
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any(
        "expected dimension 2 of collapsed type to be static value of 32" in m for m in res.messages
    ), res.messages[-3:]


@pytest.mark.parametrize(
    "name,shape",
    [
        ("head_split", (2, 3, 32)),
        ("head_split", (0, 5, 7)),  # no elements: torch takes any split dim
        ("head_split", (3, 0, 0)),
        ("unsafe_view", (1, 4, 32)),
        ("reshape_middle", (2, 32, 3)),
        ("reshape_middle", (0, 7, 3)),
        ("unflatten", (5, 32)),
    ],
)
def test_split_matches_torch(name, shape, vmfb):
    x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
    (out,) = e2e.run_runtime(vmfb, CPU, name, [x])
    want = TORCH[name](torch.from_numpy(x)).numpy()
    assert out.dtype == want.dtype and out.shape == want.shape, (name, out.dtype, out.shape, want.shape)
    assert np.array_equal(out, want)

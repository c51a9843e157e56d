"""torch-mutable-int-import-signless end to end: programs writing an integer input in place compile and do it.

Stock IREE fails a program that writes an integer input in place (its torch
frontend imports the mutable argument signed); with ``--fixes`` (the pass at
its frontend point, ``after:torch-iree-func-conversion``) each program here
compiles for llvm-cpu, returns what torch returns, and leaves its input
holding what torch leaves in it: ``x.zero_()`` on si32 and ``x.add_(y)`` on
si64 (dynamic sizes), and an accumulating ``index_put_`` on si64. The modules
run in this process, so that the caller's buffer can be read back. Where the
fix has no work, ``--fixes`` gives stock's bytes: a program with no mutable
argument (IREE lowers it itself) and one writing a float input in place
(opt-py lowers it, the pass finds nothing).
"""

import numpy as np
import pytest
from opt_py.execution import e2e
from opt_py.iree import fixes
from opt_py.iree.phases import compile_with_injections

torch = pytest.importorskip("torch")

PASS = "torch-mutable-int-import-signless"
CPU = e2e.TARGETS["cpu"]

ZERO = """
func.func @zero(%x: !torch.tensor<[?,?],si32>) -> !torch.vtensor<[?,?],si32> {
  %0 = torch.copy.to_vtensor %x : !torch.vtensor<[?,?],si32>
  %1 = torch.aten.zero %0 : !torch.vtensor<[?,?],si32> -> !torch.vtensor<[?,?],si32>
  torch.overwrite.tensor.contents %1 overwrites %x : !torch.vtensor<[?,?],si32>, !torch.tensor<[?,?],si32>
  return %1 : !torch.vtensor<[?,?],si32>
}
"""
ADD = """
func.func @add(%x: !torch.tensor<[?],si64>, %y: !torch.vtensor<[?],si64>) -> !torch.vtensor<[?],si64> {
  %0 = torch.copy.to_vtensor %x : !torch.vtensor<[?],si64>
  %one = torch.constant.int 1
  %1 = torch.aten.add.Tensor %0, %y, %one : !torch.vtensor<[?],si64>, !torch.vtensor<[?],si64>, !torch.int -> !torch.vtensor<[?],si64>
  torch.overwrite.tensor.contents %1 overwrites %x : !torch.vtensor<[?],si64>, !torch.tensor<[?],si64>
  return %1 : !torch.vtensor<[?],si64>
}
"""
INDEX_PUT = """
func.func @index_put(%x: !torch.tensor<[8],si64>, %i: !torch.vtensor<[5],si64>, %v: !torch.vtensor<[5],si64>) -> !torch.vtensor<[8],si64> {
  %0 = torch.copy.to_vtensor %x : !torch.vtensor<[8],si64>
  %l = torch.prim.ListConstruct %i : (!torch.vtensor<[5],si64>) -> !torch.list<optional<vtensor>>
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %1 = torch.aten._index_put_impl %0, %l, %v, %true, %false : !torch.vtensor<[8],si64>, !torch.list<optional<vtensor>>, !torch.vtensor<[5],si64>, !torch.bool, !torch.bool -> !torch.vtensor<[8],si64>
  torch.overwrite.tensor.contents %1 overwrites %x : !torch.vtensor<[8],si64>, !torch.tensor<[8],si64>
  return %1 : !torch.vtensor<[8],si64>
}
"""


def reference(name: str, inputs):
    """What torch returns, and what it leaves in the first input."""
    x, *rest = (torch.from_numpy(a.copy()) for a in inputs)
    if name == "zero":
        out = x.zero_()
    elif name == "add":
        out = x.add_(rest[0])
    else:
        out = x.index_put_((rest[0],), rest[1], accumulate=True)
    return out.clone().numpy(), x.numpy()


def inputs(name: str):
    rng = np.random.default_rng(3)
    if name == "zero":
        return [rng.integers(-100, 100, (4, 5)).astype(np.int32)]
    if name == "add":
        return [rng.integers(-(2**40), 2**40, 7), rng.integers(-(2**40), 2**40, 7)]
    return [rng.integers(-9, 9, 8), np.array([1, 3, 1, 7, 0]), rng.integers(-9, 9, 5)]


FLOAT_ADD = ADD.replace("si64", "f32")


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    """The three programs compiled with ``--fixes``: the fix runs at its frontend point and rewrites each."""
    path = tmp_path_factory.mktemp("mutable") / "mutable.mlir"
    path.write_text(ZERO + ADD + INDEX_PUT)
    res, _ = fixes.compile_with_fixes(str(path), list(CPU.compile_flags), record_rewrites=True)
    assert res.ok, res.messages
    assert [r.pass_name for r in res.rewrites].count(PASS) == 3, res.rewrites
    return res.output


@pytest.mark.parametrize("program", ["no_mutable_argument", "float_written_in_place"])
def test_fixes_gives_stock_bytes_where_the_fix_has_no_work(program, tmp_path):
    """No mutable argument: the fix's ops are not in the module as parsed, IREE lowers it as stock. A float
    written in place: opt-py lowers it with the fix, which finds no signed import: the same bytes either way."""
    path = tmp_path / "p.mlir"
    text = FLOAT_ADD if program == "float_written_in_place" else FLOAT_ADD.replace("!torch.tensor", "!torch.vtensor")
    if program == "no_mutable_argument":
        text = text.replace("%0 = torch.copy.to_vtensor %x : !torch.vtensor<[?],f32>\n", "").replace("%0,", "%x,")
        text = "\n".join(line for line in text.splitlines() if "overwrite" not in line)
    path.write_text(text)
    flags = list(CPU.compile_flags)
    stock = compile_with_injections(str(path), flags, [])
    fixed, _ = fixes.compile_with_fixes(str(path), flags, PASS, record_rewrites=True)
    assert stock.ok and fixed.ok, (stock.messages, fixed.messages)
    assert fixed.output == stock.output and fixed.rewrites == []
    ran = PASS in fixed.seconds
    assert ran == (program == "float_written_in_place"), fixed.seconds


def test_stock_fails_on_a_mutable_int_input(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(ZERO)
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("unresolved target materialization" in m for m in res.messages), res.messages[-3:]


@pytest.mark.parametrize("name", ["zero", "add", "index_put"])
def test_in_place_int_write_matches_torch(name, vmfb):
    import iree.runtime as rt

    config = rt.Config(CPU.device)
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.copy_buffer(config.vm_instance, vmfb))
    args = inputs(name)
    device = [rt.asdevicearray(config.device, a) for a in args]
    out = ctx.modules.module[name](*device).to_host()
    want_out, want_input = reference(name, args)
    assert np.array_equal(out, want_out), (out, want_out)
    assert np.array_equal(device[0].to_host(), want_input), (device[0].to_host(), want_input)

"""forall-reuse-shared-outs end to end, by numbers, through IREE.

The program is a function over tensors with an ``scf.forall`` whose body
computes each 16x32 tile of ``a * b + a`` (an elementwise ``linalg.generic``
over slices of the inputs) into a fresh ``tensor.empty`` and writes it back
with ``tensor.parallel_insert_slice``.

Two things IREE 3.13 does decide how the test is built:

* An ``scf.forall`` at function level is host code to IREE, and iree-compile
  crashes on it (a segfault in the stream affinity analysis); inside a
  ``flow.dispatch.region`` it is refused unless it carries
  ``#iree_linalg_ext.split_reduction_mapping``, and then it reaches the
  dispatch as written. So the program wraps the loop that way.
* The pass rewrites the function-level program as intended, but IREE's
  dispatch creation turns a destination that is never read back into a
  ``tensor.empty``: the empty is back by ``executable-sources``. To matter,
  the pass has to run after dispatch creation; run there
  (``--inject executable-sources:...``), its rewrite survives IREE's codegen
  up to ``iree-eliminate-empty-tensors`` (checked inside codegen).

Checked: the pass rewrites (no ``tensor.empty`` directly in an ``scf.forall``
body, where the control shows there is one); the CPU results with and without
the pass equal numpy, through ``iree.runtime`` and ``iree-run-module``; the
program compiles with the pass for cuda sm_80 and rocm gfx942. Bufferization
allocates nothing for this program with or without the pass (IREE's own
empty-tensor elimination also handles this simple case); the pass makes the
tile's in-place destination explicit before IREE's tiling instead.
"""

from dataclasses import dataclass

import numpy as np
import pytest

from opt_py import Pass, e2e, register_pass, run_pipeline
from opt_py.api import OptPyError
from opt_py.driver import PipelineFailed

PROGRAM = """
func.func @f(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %res = flow.dispatch.region -> (tensor<64x128xf32>) {
    %out = tensor.empty() : tensor<64x128xf32>
    %r = scf.forall (%i, %j) = (0, 0) to (64, 128) step (16, 32) shared_outs(%o = %out) -> (tensor<64x128xf32>) {
      %sa = tensor.extract_slice %a[%i, %j] [16, 32] [1, 1] : tensor<64x128xf32> to tensor<16x32xf32>
      %sb = tensor.extract_slice %b[%i, %j] [16, 32] [1, 1] : tensor<64x128xf32> to tensor<16x32xf32>
      %e = tensor.empty() : tensor<16x32xf32>
      %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                            affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%sa, %sb : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
      ^bb0(%x: f32, %y: f32, %z: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %p, %x : f32
        linalg.yield %s : f32
      } -> tensor<16x32xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %g into %o[%i, %j] [16, 32] [1, 1] : tensor<16x32xf32> into tensor<64x128xf32>
      }
    } {mapping = [#iree_linalg_ext.split_reduction_mapping<1>, #iree_linalg_ext.split_reduction_mapping<0>]}
    flow.return %r : tensor<64x128xf32>
  }
  return %res : tensor<64x128xf32>
}
"""

PASS = "forall-reuse-shared-outs"
CHECK = "test-expect-no-empty-in-forall"
NO_EMPTY = "a tensor.empty sits directly in an scf.forall body"
# Inside codegen: the last point before IREE's own empty-tensor elimination.
BEFORE_ELIMINATION = "before:iree-eliminate-empty-tensors"


@dataclass(frozen=True)
class ExpectNoEmptyInForall(Pass):
    name = CHECK
    anchor = "any"
    summary = "Test: fail where a tensor.empty sits directly in the body of an scf.forall"

    def run(self, root, ctx):
        from iree.compiler import ir

        found = []

        def visit(o):
            parent = o.parent
            if o.name == "tensor.empty" and parent is not None and parent.name == "scf.forall":
                found.append(o)
            return ir.WalkResult.ADVANCE

        root.operation.walk(visit)
        for o in found:
            ctx.emit_error(o, NO_EMPTY)


register_pass(ExpectNoEmptyInForall)


def inputs():
    rng = np.random.default_rng(5)
    return [rng.standard_normal((64, 128)).astype(np.float32) for _ in range(2)]


def reference(a, b):
    return a * b + a


def build(tmp_path, text, target, inject=(), inject_codegen=()):
    path = tmp_path / "forall.mlir"
    path.write_text(text)
    return e2e.compile_program(str(path), target, inject=inject, inject_codegen=inject_codegen)


def test_pass_rewrites_the_function():
    with pytest.raises(PipelineFailed, match=NO_EMPTY):
        run_pipeline(PROGRAM, CHECK)  # the control: the tile's empty is there
    out = run_pipeline(PROGRAM, f"{PASS},{CHECK}")
    assert "tensor.extract_slice %arg4[%arg2, %arg3] [16, 32] [1, 1]" in out
    assert "outs(%extracted_slice_1 : tensor<16x32xf32>)" in out


def test_dispatch_creation_brings_the_empty_back(tmp_path):
    """Why the pass must run after dispatch creation, not on the input program."""
    cpu = e2e.TARGETS["cpu"]
    rewritten = run_pipeline(PROGRAM, PASS)
    with pytest.raises(OptPyError, match=NO_EMPTY):
        build(tmp_path, rewritten, cpu, inject=(f"executable-sources:{CHECK}",))
    assert len(build(tmp_path, PROGRAM, cpu, inject=(f"executable-sources:{PASS},{CHECK}",))) > 0


@pytest.mark.parametrize("name", ["cpu", "cuda", "rocm"])
def test_numbers_match_numpy(name, tmp_path):
    target = e2e.TARGETS[name]
    ok, why = e2e.device_available(target)
    if not ok:
        pytest.skip(f"{name}: {why}")
    args = inputs()
    want = reference(*args)
    variants = {
        "without the pass": build(tmp_path, PROGRAM, target),
        "pass on the input program": build(tmp_path, run_pipeline(PROGRAM, PASS), target),
        "pass after dispatch creation": build(tmp_path, PROGRAM, target,
                                              inject=(f"executable-sources:{PASS},{CHECK}",)),
    }
    for label, vmfb in variants.items():
        for runner, got in (("runtime", e2e.run_runtime(vmfb, target, "f", args)),
                            ("cli", e2e.run_cli(vmfb, target, "f", args, 1))):
            diffs = e2e.compare(got, [want])
            assert all(d.same for d in diffs), f"{label}, {runner}:\n{e2e.format_report(diffs, 'iree', 'numpy')}"


@pytest.mark.parametrize("name", ["cpu", "cuda", "rocm"])
def test_rewrite_reaches_bufferization(name, tmp_path):
    """Inside IREE's codegen (compiling for a GPU needs no GPU)."""
    target = e2e.TARGETS[name]
    check = (f"{BEFORE_ELIMINATION}:{CHECK}",)
    with pytest.raises(OptPyError, match=NO_EMPTY):
        build(tmp_path, PROGRAM, target, inject_codegen=check)  # the control: IREE keeps a tile empty
    vmfb = build(tmp_path, PROGRAM, target, inject=(f"executable-sources:{PASS}",), inject_codegen=check)
    assert len(vmfb) > 0

"""gather-to-load end to end, inside IREE's code generation.

IREE vectorizes a tensor.extract whose column is `index + offset-from-a-tensor`
into a vector.gather it cannot prove contiguous, and fold-memref-alias-ops has
no rule for gathers. The passes run at the point the issue names (after
bufferization on CPU; before iree-codegen-fold-memref-alias-ops on GPU), with
a check that no gather is left: the control (the check alone) must fail,
proving gathers are there, and the result must equal numpy.
"""

import numpy as np
import pytest

from opt_py import e2e
from opt_py.api import OptPyError

EMBEDDING = """
func.func @read(%table: tensor<64x32xf32>, %rows: tensor<4xi32>, %cols: tensor<4xi32>) -> tensor<4x8xf32> {
  %src = SOURCE
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%rows, %cols : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%rw: i32, %cl: i32, %o: f32):
    %row = arith.index_cast %rw : i32 to index
    %c0 = arith.index_cast %cl : i32 to index
    %j = linalg.index 1 : index
    %col = arith.addi %c0, %j : index
    %v = tensor.extract %src[%row, %col] : SRC_TYPE
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
"""

PROGRAMS = {
    # an embedding-style read straight from the table
    "embedding": (EMBEDDING.replace("%src = SOURCE", "%src = tensor.extract_slice %table[0, 0] [64, 32] [1, 1] "
                                    ": tensor<64x32xf32> to tensor<64x32xf32>").replace("SRC_TYPE", "tensor<64x32xf32>"),
                  lambda t, r, c: np.stack([t[a, b:b + 8] for a, b in zip(r, c)])),
    # a KV-cache-style read out of a slice of the table
    "sliced": (EMBEDDING.replace("%src = SOURCE", "%src = tensor.extract_slice %table[16, 8] [32, 24] [1, 1] "
                                 ": tensor<64x32xf32> to tensor<32x24xf32>").replace("SRC_TYPE", "tensor<32x24xf32>"),
               lambda t, r, c: np.stack([t[16 + a, 8 + b:8 + b + 8] for a, b in zip(r, c)])),
}
PASSES = "gather-to-load,fold-subview-into-gather"
# Where the passes can prove a rewrite keeps the meaning. On CPU the sliced read
# is 8 lanes over a subview of partial rows: a lane may cross from one row of
# the slice into the next, which is not the next row of the source, so both
# passes leave it (and the numbers must still be right). On GPU each thread
# reads one lane, whose position maps exactly.
REWRITTEN = {("cpu", "embedding"): True, ("cpu", "sliced"): False,
             ("cuda", "embedding"): True, ("cuda", "sliced"): True,
             ("rocm", "embedding"): True, ("rocm", "sliced"): True}
CHECK = "test-expect-absent{op=vector.gather}"
POINT = {"cpu": "after:iree-codegen-iree-comprehensive-bufferize",
         "cuda": "before:iree-codegen-fold-memref-alias-ops",
         "rocm": "before:iree-codegen-fold-memref-alias-ops"}


def inputs(name):
    rng = np.random.default_rng(7)
    table = rng.standard_normal((64, 32)).astype(np.float32)
    rows = np.array([3, 31, 0, 17] if name == "sliced" else [3, 60, 0, 17], np.int32)
    cols = np.array([0, 16, 5, 11] if name == "sliced" else [0, 24, 5, 11], np.int32)
    return [table, rows, cols]


def build(tmp_path, name, target, pipeline):
    path = tmp_path / f"{name}.mlir"
    path.write_text(PROGRAMS[name][0])
    return e2e.compile_program(str(path), target, inject_codegen=(f"{POINT[target.name]}:{pipeline}",))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_gathers_become_loads_and_numbers_match(name, run_target, tmp_path):
    with pytest.raises(OptPyError, match="'vector.gather' is still here"):
        build(tmp_path, name, run_target, CHECK)  # the control: IREE does emit gathers here
    if REWRITTEN[(run_target.name, name)]:
        vmfb = build(tmp_path, name, run_target, f"{PASSES},{CHECK}")
    else:
        with pytest.raises(OptPyError, match="'vector.gather' is still here"):
            build(tmp_path, name, run_target, f"{PASSES},{CHECK}")
        vmfb = build(tmp_path, name, run_target, PASSES)
    args = inputs(name)
    want = PROGRAMS[name][1](*args)
    for got in (e2e.run_runtime(vmfb, run_target, "read", args)[0],
                e2e.run_cli(vmfb, run_target, "read", args, 1)[0]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_gpu_codegen_has_no_gather_before_alias_folding(name, gpu_compile_target, tmp_path):
    with pytest.raises(OptPyError, match="'vector.gather' is still here"):
        build(tmp_path, name, gpu_compile_target, CHECK)
    assert REWRITTEN[(gpu_compile_target.name, name)]
    assert len(build(tmp_path, name, gpu_compile_target, f"{PASSES},{CHECK}")) > 0

"""fold-collapse-shape-into-store, proven by numbers.

Random dispatches storing a collapse_shape into a binding (reshape_store.py)
are compiled with the pass injected at executable-sources, run through the
IREE runtime and compared with numpy. A fixed-seed sample runs here; the
benchmark (tools/bench_reshape_store.py) runs 500 and counts stock IREE's
failures beside opt-py's.
"""

import pytest
from opt_py.cases import fold_collapse_shape_into_store as rs

SAMPLE = range(0, 16)
# Seeds stock iree-compile 3.13 gets wrong, found by the benchmark: its C++
# fold retypes the binding with a static group dim where the extent is
# dynamic (23, 36), mishandles dropped leading dims (52), or emits a store
# with the wrong number of dynamic dims (9: invalid IR, compilation fails).
STOCK_WRONG = {23: "wrong", 36: "wrong", 52: "wrong", 9: "error"}


@pytest.mark.parametrize("seed", SAMPLE)
def test_random_case_matches_numpy(seed):
    case = rs.random_case(seed)
    assert rs.run(case, with_pass=True) == "ok", case.describe()


@pytest.mark.parametrize("seed", range(8))
def test_misaligned_offset_is_refused_and_matches_numpy(seed):
    """Stores that are provable but for one offset that is not a multiple of
    its group's inner extent: the fold must refuse (and guard), and the numbers
    must be right. A fold that skipped the offset proof writes whole rows at
    offset // inner, and every one of these cases comes out wrong."""
    case = rs.misaligned_case(seed)
    assert rs.folds(case, which=("opt-py",)) == {"opt-py": "left"}, case.describe()
    assert rs.run(case, with_pass=True) == "ok", case.describe()


@pytest.mark.parametrize("seed", sorted(STOCK_WRONG))
def test_stock_fails_and_pass_fixes(seed):
    case = rs.random_case(seed)
    stock = rs.run(case, with_pass=False)
    assert stock.startswith(STOCK_WRONG[seed]), (
        f"stock IREE now gives '{stock}' on {case.describe()}: update STOCK_WRONG and the README"
    )
    assert rs.run(case, with_pass=True) == "ok", case.describe()


def test_the_sample_exercises_both_outcomes():
    """The sample must hold folded and refused cases, or it proves little."""
    decisions = [rs.folds(rs.random_case(s))["opt-py"] for s in SAMPLE]
    assert decisions.count("folded") >= 4 and decisions.count("left") >= 4, decisions


def test_the_guard_is_what_fixes_refused_cases():
    """Seed 23 is a store the Python fold refuses (a dynamic extent under an
    outer dim); without the copy, IREE's C++ fold takes it and gets it wrong."""
    case = rs.random_case(23)
    assert rs.folds(case) == {"opt-py": "left", "C++": "folded"}
    assert rs.run(case, with_pass=f"{rs.PASS}{{guard=false}}") == "wrong"


@pytest.mark.parametrize("seed", [1, 23, 52])
def test_compiles_for_gpu(seed, gpu_compile_target):
    import os
    import tempfile

    from opt_py.execution import e2e

    case = rs.random_case(seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.mlir")
        with open(path, "w") as f:
            f.write(rs.program(case))
        assert e2e.compile_program(path, gpu_compile_target, inject=[f"executable-sources:{rs.PASS}"])


@pytest.mark.parametrize("seed", [1, 23, 52])
def test_runs_on_gpu(seed, gpu_run_target):
    case = rs.random_case(seed)
    assert rs.run(case, with_pass=True, target_name=gpu_run_target.name) == "ok", case.describe()


EXPAND_OF_LOAD = """
func.func @main(%x: tensor<?xf32>, %n: tensor<1xi32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?xf32>
  %ni = tensor.extract %n[%c0] : tensor<1xi32>
  %rows = arith.index_cast %ni : i32 to index
  %r = flow.dispatch.workgroups[%m, %rows](%x, %m, %rows) : (tensor<?xf32>{%m}, index, index) -> tensor<?x4xf32>{%rows} =
      (%xb: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %m0: index, %r0: index,
       %ob: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
    %mm = iree_tensor_ext.dispatch.workload.ordinal %m0, 0 : index
    %rr = iree_tensor_ext.dispatch.workload.ordinal %r0, 1 : index
    %t = iree_tensor_ext.dispatch.tensor.load %xb, offsets = [0], sizes = [%mm], strides = [1]
        : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%mm} -> tensor<?xf32>
    %e = tensor.expand_shape %t [[0, 1]] output_shape [%rr, 4] : tensor<?xf32> into tensor<?x4xf32>
    %init = tensor.empty(%rr) : tensor<?x4xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]} ins(%e : tensor<?x4xf32>) outs(%init : tensor<?x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %j = linalg.index 1 : index
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %y = arith.mulf %a, %jf : f32
      linalg.yield %y : f32
    } -> tensor<?x4xf32>
    iree_tensor_ext.dispatch.tensor.store %g, %ob, offsets = [0, 0], sizes = [%rr, 4], strides = [1, 1]
        : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%rr}
    flow.return
  } count(%a: index, %b: index) -> (index, index, index) {
    %x0, %y0, %z0 = iree_tensor_ext.dispatch.workgroup_count_from_slice(%a, %b)
    flow.return %x0, %y0, %z0 : index, index, index
  }
  return %r : tensor<?x4xf32>
}
"""


def test_expand_of_whole_load_matches_numpy(tmp_path):
    """The mirror fold: an expand_shape of a whole-binding load, folded at
    executable-sources (checked on the IR), and the numbers equal numpy."""
    import numpy as np
    from opt_py.execution import e2e
    from opt_py.iree.phases import compile_with_injections

    path = tmp_path / "expand.mlir"
    path.write_text(EXPAND_OF_LOAD)
    ir_text = compile_with_injections(
        str(path), list(e2e.TARGETS["cpu"].compile_flags), [], compile_to="executable-sources", output_ir=True
    ).output.decode()
    assert "tensor.expand_shape" in ir_text
    from opt_py import run_pipeline

    assert "tensor.expand_shape" not in run_pipeline(ir_text, rs.PASS)
    vmfb = e2e.compile_program(str(path), e2e.TARGETS["cpu"], inject=[f"executable-sources:{rs.PASS}"])
    x = np.arange(28, dtype=np.float32) - 9
    got = e2e.run_runtime(vmfb, e2e.TARGETS["cpu"], "main", [x, np.array([7], np.int32)])[0]
    np.testing.assert_array_equal(got, x.reshape(7, 4) * np.arange(4, dtype=np.float32))


# A realistic size of the shape the C++ fold gets wrong: a 64x128x64 block
# stored, collapsed to 64x8192, at column 64 of a binding whose row length is
# dynamic. opt-py cannot prove the row length a multiple of 64, refuses and
# guards; stock folds it with a row of 8192 and writes the wrong rows.
REALISTIC = rs.Case(
    0,
    "f32",
    (64, 128, 64),
    (False, False, False),
    ((0,), (1, 2)),
    (rs.Dim(64, 0, 0), rs.Dim(8192 + 64, 64, 1, True)),
    True,
)


def test_realistic_size_stock_wrong_pass_right():
    assert rs.folds(REALISTIC) == {"opt-py": "left", "C++": "folded"}
    assert rs.run(REALISTIC, with_pass=False) == "wrong"
    assert rs.run(REALISTIC, with_pass=True) == "ok"


def test_the_guard_costs_no_workgroup_memory(tmp_path):
    from opt_py.execution import e2e

    path = tmp_path / "realistic.mlir"
    path.write_text(rs.program(REALISTIC))
    target = e2e.TARGETS["rocm"]
    stock = e2e.workgroup_memory(str(path), target)
    guarded = e2e.workgroup_memory(str(path), target, inject=[f"executable-sources:{rs.PASS}"])
    assert guarded <= stock, (guarded, stock)

"""copy-shared-tied-operand, proven by numbers (issue 14, second cause).

A value written in place by a scatter and also returned comes back with the
scatter's writes in stock IREE 3.13: an argument (the ABI returns the written
buffer view) or, with a reshape and an independent op beside the scatter, a
dispatch result (stream's concurrency scheduling moves the writer before the
reader's clone). Programs are compiled with every fix (``opt-py compile
--fixes``), run and compared with numpy bit for bit.
"""

import numpy as np
import pytest
from opt_py.cases import scatter as sc

PASS = "copy-shared-tied-operand"
# Seeds whose program returns a destination beside its scatter: 4 and 104 return
# %like itself, 312 and 417 a `like + 1` over a 2-D shape (found by the benchmark).
STOCK_WRONG = (4, 104, 312, 417)
SAMPLE = (10, 154, 264, 270)  # more argument-returned cases; 10 and 264 (two scatters into %like) stock gets right

ARGUMENT_RETURNED = """
func.func @main(%x: tensor<5xi32>, %u: tensor<1xi32>, %i: tensor<1x1xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %s = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%u, %i : tensor<1xi32>, tensor<1x1xi32>) outs(%x : tensor<5xi32>) {
  ^bb0(%a: i32, %b: i32):
    iree_linalg_ext.yield %a : i32
  } -> tensor<5xi32>
  return %x, %s : tensor<5xi32>, tensor<5xi32>
}
"""


@pytest.mark.parametrize("seed", STOCK_WRONG)
def test_stock_wrong_fixes_right(seed):
    case = sc.random_case(seed)
    stock = sc.run(case, with_pass=False)
    assert stock == "wrong", f"stock IREE now gives '{stock}' on {case.describe()}: update STOCK_WRONG and the docs"
    assert sc.run(case, with_pass="fixes") == "ok", case.describe()


@pytest.mark.parametrize("seed", SAMPLE)
def test_random_case_matches_numpy(seed):
    case = sc.random_case(seed)
    assert sc.run(case, with_pass="fixes") == "ok", case.describe()


def test_the_sample_returns_written_destinations():
    """The generator must produce the cases this pass is for, or the sample proves little."""
    cases = [sc.random_case(s) for s in STOCK_WRONG + SAMPLE]
    assert sum(sc.returns_written_argument(c) for c in cases) >= 4, [c.describe() for c in cases]


def _run(path, inject):
    from opt_py.execution import e2e

    target = e2e.TARGETS["cpu"]
    x = np.arange(5, dtype=np.int32)
    u = np.array([100], np.int32)
    i = np.array([[2]], np.int32)
    return e2e.run_runtime(e2e.compile_program(str(path), target, inject=inject), target, "main", [x, u, i])


def test_minimal_argument_returned(tmp_path):
    """`return %x, scatter(outs %x)`: stock returns %x with the write in it."""
    path = tmp_path / "argret.mlir"
    path.write_text(ARGUMENT_RETURNED)
    x = np.arange(5, dtype=np.int32)
    s = x.copy()
    s[2] = 100
    stock = _run(path, [])
    assert np.array_equal(stock[0], s), "stock IREE changed: update the docs"
    fixed = _run(path, [f"flow:{PASS}"])
    np.testing.assert_array_equal(fixed[0], x)
    np.testing.assert_array_equal(fixed[1], s)


def test_minimal_value_returned_through_reshape():
    """`like + 1` (5x2, static), scattered into in place and returned, beside an
    independent fill and scatter: stock returns it with the scatter's writes."""
    S = sc.Scatter
    case = sc.Case(
        312,
        "f32",
        (5, 2),
        (False, False),
        (S("index_put", "plus1", 0.0, 0, None), S("index_put", "fill", -2.0, 0, None)),
        ("s0", "d0", "s1"),
    )
    assert sc.run(case, with_pass=False) == "wrong", "stock IREE changed: update the docs"
    assert sc.run(case, with_pass=PASS) == "ok"

"""copy-tied-operand-through-barrier, proven by numbers (issue 29: a module that writes its own constants).

A constant, a global or a value with other uses that reaches an in-place op
through an optimization barrier is written in place by stock IREE 3.13: a
module loaded read-only (``VmModule.mmap``) faults, or its results change from
call to call. Modules are compiled stock and with every fix (``opt-py compile
--fixes``), loaded read-only in a child process, every function called three
times in one context, and compared with numpy bit for bit.
"""

from pathlib import Path

import numpy as np
import pytest
from opt_py.cases import copy_tied_operand_through_barrier as g
from opt_py.cases.mmap_runner import run_calls, run_checks

PASS = "copy-tied-operand-through-barrier"
# Random seeds stock gets wrong (101 faults, 103 stops with PERMISSION_DENIED on the constant's
# read-only buffer) and a control without barriers stock gets right (found by the benchmark).
STOCK_NOT_OK = (101, 103)
CONTROL = 104
IREE_SORT = Path(__file__).resolve().parents[2] / "../shared/peer/iree_e2e/linalg_ext_ops/sort.mlir"

W, R, F = g.Write, g.Read, g.Function


def _case(dtype, shape, *functions, seed=7) -> g.Case:
    return g.Case(seed, dtype, shape, 1, tuple(functions))


def test_sort_of_an_unfoldable_constant():
    """IREE's own e2e idiom: a sort of a util.unfoldable_constant, beside a function reading the
    same constant. Stock writes the module's read-only constant: SIGSEGV under mmap."""
    case = _case("i32", (6,), F((W("sort", 0, "unfoldable", False, 1, False),), ()), F((), (R(0, "barrier"),)))
    stock = g.run(case, False)
    assert stock.startswith("fault: SIGSEGV"), f"stock IREE now gives '{stock}': update the docs"
    assert g.run(case, "fixes") == "ok"


def test_stablehlo_optimization_barrier():
    """jax.lax.optimization_barrier: a stablehlo.constant through stablehlo.optimization_barrier
    into a scatter that adds, the same constant read by another function."""
    case = _case("f32", (3, 4), F((W("scatter", 0, "stablehlo", False, 1, False),), ()), F((), (R(0, "stablehlo"),)))
    assert "stablehlo.optimization_barrier" in g.program(case)
    assert g.run(case, False) != "ok", "stock IREE changed: update the docs"
    assert g.run(case, "fixes") == "ok"


def test_accumulating_matmul_into_a_global_read_elsewhere():
    """A matmul accumulating into a global a util.initializer sets, through a barrier; another
    function reads the global. The global's storage is made at run time, so stock does not fault:
    each call adds to the last call's result, and the reader sees the sums."""
    case = _case(
        "f32",
        (2, 3),
        F((W("matmul", 0, "initialized_barrier", False, 0, False),), ()),
        F((), (R(0, "initialized_barrier"),)),
    )
    assert g.run(case, False) == "wrong", "stock IREE changed: update the docs"
    assert g.run(case, PASS) == "ok"


@pytest.mark.parametrize("seed", STOCK_NOT_OK)
def test_random_stock_wrong_fixes_right(seed):
    case = g.random_case(seed)
    stock = g.run(case, False)
    assert stock != "ok", f"stock IREE now gives 'ok' on {case.describe()}: update STOCK_NOT_OK and the docs"
    assert g.run(case, "fixes") == "ok", case.describe()


def test_control_without_barriers_gets_no_copy():
    """Where no barrier hides a write, stream copies constants itself: the pass adds nothing, and
    stock and the fixes are right."""
    case = g.random_case(CONTROL)
    assert not g.crosses_barrier(case)
    assert g.copies(case) == 0
    assert g.run(case, False) == "ok"
    assert g.run(case, "fixes") == "ok"


def test_one_copy_per_write_behind_a_barrier():
    """Two writes in place behind barriers, one without, one behind a barrier that IREE's dispatch
    does not make in place (an elementwise generic reading its outs), two reads: two copies."""
    case = _case(
        "i32",
        (2, 4),
        F((W("sort", 0, "unfoldable", False, 0, False), W("insert", 0, "global", False, 1, False)), ()),
        F(
            (W("reduce", 0, "mutable_barrier", True, 0, False), W("generic", 0, "barrier", False, 0, False)),
            (R(0, "barrier"), R(0, "plain")),
        ),
    )
    assert g.copies(case) == 2


def test_the_generator_reaches_every_source_and_op():
    """The benchmark's 500 cases exercise every way to a constant and every in-place op."""
    cases = g.cases(0, 500)
    writes = [w for c in cases for f in c.functions for w in f.writes]
    assert {w.source for w in writes} == set(g.SOURCES)
    assert {w.op for w in writes} == set(g.OPS)
    assert sum(not g.crosses_barrier(c) for c in cases) >= 50  # controls


# --------------------------------------------------------------------------
# Values that are not constants, written behind a barrier
# --------------------------------------------------------------------------

RETURNED_THROUGH_BARRIER = """
func.func @argument(%x: tensor<5xi32>, %u: tensor<1xi32>, %i: tensor<1x1xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %b = util.optimization_barrier %x : tensor<5xi32>
  %s = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%u, %i : tensor<1xi32>, tensor<1x1xi32>) outs(%b : tensor<5xi32>) {
  ^bb0(%a: i32, %c: i32):
    iree_linalg_ext.yield %a : i32
  } -> tensor<5xi32>
  return %x, %s : tensor<5xi32>, tensor<5xi32>
}
func.func @value(%x: tensor<5xi32>, %u: tensor<1xi32>, %i: tensor<1x1xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %y = arith.addi %x, %x : tensor<5xi32>
  %b = util.optimization_barrier %y : tensor<5xi32>
  %s = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%u, %i : tensor<1xi32>, tensor<1x1xi32>) outs(%b : tensor<5xi32>) {
  ^bb0(%a: i32, %c: i32):
    iree_linalg_ext.yield %a : i32
  } -> tensor<5xi32>
  return %y, %s : tensor<5xi32>, tensor<5xi32>
}
"""


def _compiled(tmp_path, text, inject):
    from opt_py.iree import e2e

    path = tmp_path / "m.mlir"
    path.write_text(text)
    return e2e.compile_program(str(path), e2e.TARGETS["cpu"], inject=inject)


def test_values_returned_beside_a_write_behind_a_barrier(tmp_path):
    """An argument and a computed value, each written through a barrier and also returned: stock
    returns them with the write in them."""
    x, u, i = np.arange(5, dtype=np.int32), np.array([100], np.int32), np.array([[2]], np.int32)
    calls = [("argument", [x, u, i]), ("value", [x, u, i])]
    written = x.copy()
    written[2] = 100
    stock = run_calls(_compiled(tmp_path, RETURNED_THROUGH_BARRIER, []), calls, rounds=1)
    np.testing.assert_array_equal(stock.results[0][0], written, err_msg="stock IREE changed: update the docs")
    fixed = run_calls(_compiled(tmp_path, RETURNED_THROUGH_BARRIER, [f"flow:{PASS}"]), calls, rounds=1)
    assert fixed.fault is None and fixed.error is None
    np.testing.assert_array_equal(fixed.results[0][0], x)
    np.testing.assert_array_equal(fixed.results[1][0], x + x)
    np.testing.assert_array_equal(fixed.results[1][1], np.where(np.arange(5) == 2, 100, x + x))


# --------------------------------------------------------------------------
# IREE's own e2e test, read-only
# --------------------------------------------------------------------------

WRONG_EXPECTATION = """
func.func @wrong() {
  %x = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const(%x, dense<[1, 3]> : tensor<2xi32>) : tensor<2xi32>
  return
}
"""


def test_the_check_module_reports_a_failed_expectation(tmp_path):
    """The runner's check module compares for real: a wrong expectation is a FAIL line."""
    out = run_checks(_compiled(tmp_path, WRONG_EXPECTATION, []), rounds=1)
    assert out.fault is None and out.error is None
    assert out.lines == ["wrong FAIL: expect_eq: got [1, 2] want [1, 3]"]


@pytest.mark.skipif(not IREE_SORT.exists(), reason="the peers' suites (../shared/peer) are not here")
def test_iree_e2e_sort_read_only(tmp_path):
    """IREE's tests/e2e/linalg_ext_ops/sort.mlir sorts an unfoldable constant: stock faults when the
    module is loaded read-only; with the fixes every expectation holds, twice."""
    from opt_py.iree import e2e
    from opt_py.iree import fixes as fx

    target = e2e.TARGETS["cpu"]
    stock = run_checks(e2e.compile_program(str(IREE_SORT), target))
    assert stock.fault and stock.fault.startswith("SIGSEGV"), "stock IREE changed: update the docs"
    inject, codegen = fx.specs("all", target.compile_flags)
    fixed = run_checks(e2e.compile_program(str(IREE_SORT), target, inject=inject, inject_codegen=codegen))
    assert fixed.fault is None and fixed.error is None
    assert fixed.lines == ["sort2D ok", "sort2D ok"]

"""``opt-py check``: IREE's check tests compiled, run with opt-py's ``check`` module, every expectation checked.

Two small check files are compiled once each: one whose expectations all
hold (exit 0), one with a failing expectation of every kind, a function that
writes its own constant (it faults under the read-only load; the functions
after it still run) and one that passes. IREE's own files (the peers' copy of
``tests/e2e`` beside the checkout) pass with ``--fixes`` where they pass stock.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import numpy as np
import pytest
from opt_py.execution import check_tests as check
from opt_py.execution import e2e, worker
from opt_py.tool.check import check_main

ROOT = Path(__file__).resolve().parents[2]
IREE_E2E = ROOT.parent / "shared" / "peer" / "iree_e2e"
GENERIC = "--iree-llvmcpu-target-cpu=generic"  # what IREE's own suites pass (COMPILER_FLAGS)

HOLDS = """
func.func @expect_true_holds() {
  %one = util.unfoldable_constant 1 : i32
  check.expect_true(%one) : i32
  return
}
func.func @expect_false_holds() {
  %zero = util.unfoldable_constant 0 : i32
  check.expect_false(%zero) : i32
  return
}
func.func @expect_all_true_holds() {
  %x = util.unfoldable_constant dense<[1, -2, 3]> : tensor<3xi32>
  check.expect_all_true(%x) : tensor<3xi32>
  return
}
func.func @expect_eq_holds() {
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %y = arith.addi %x, %x : tensor<3xi32>
  %z = util.unfoldable_constant dense<[2, 4, 6]> : tensor<3xi32>
  check.expect_eq(%y, %z) : tensor<3xi32>
  check.expect_eq_const(%y, dense<[2, 4, 6]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @expect_almost_eq_within_tolerance() {
  %x = util.unfoldable_constant dense<[1.00005, 100.5]> : tensor<2xf32>
  %y = util.unfoldable_constant dense<[1.0, 100.0]> : tensor<2xf32>
  check.expect_almost_eq(%x, %y, atol 1.0e-4, rtol 1.0e-2) : tensor<2xf32>
  check.expect_almost_eq_const(%x, dense<[1.0, 100.0]> : tensor<2xf32>, atol 1.0e-4, rtol 1.0e-2) : tensor<2xf32>
  return
}
"""

WRONG = """
func.func @wrong_true() {
  %zero = util.unfoldable_constant 0 : i32
  check.expect_true(%zero) : i32
  return
}
func.func @wrong_false() {
  %one = util.unfoldable_constant 1 : i32
  check.expect_false(%one) : i32
  return
}
func.func @wrong_all_true() {
  %x = util.unfoldable_constant dense<[[1, 2], [0, 4]]> : tensor<2x2xi32>
  check.expect_all_true(%x) : tensor<2x2xi32>
  return
}
func.func @wrong_eq() {
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %y = util.unfoldable_constant dense<[1, 7, 3]> : tensor<3xi32>
  check.expect_eq(%x, %y) : tensor<3xi32>
  return
}
func.func @wrong_eq_const() {
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %y = arith.addi %x, %x : tensor<3xi32>
  check.expect_eq_const(%y, dense<[2, 4, 5]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @almost_eq_outside_atol() {
  %x = util.unfoldable_constant dense<[1.0, 2.5]> : tensor<2xf32>
  %y = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_almost_eq(%x, %y, atol 1.0e-4) : tensor<2xf32>
  return
}
func.func @almost_eq_const_outside_rtol() {
  %x = util.unfoldable_constant dense<[100.5, 1.0]> : tensor<2xf32>
  check.expect_almost_eq_const(%x, dense<[100.0, 1.0]> : tensor<2xf32>, atol 0.0, rtol 1.0e-3) : tensor<2xf32>
  return
}
func.func @writes_its_constant() {
  %dst = util.unfoldable_constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %upd = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %idx = util.unfoldable_constant dense<[[1], [3]]> : tensor<2x1xi32>
  %sum = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
      ins(%upd, %idx : tensor<2xi32>, tensor<2x1xi32>) outs(%dst : tensor<4xi32>) {
    ^bb0(%u: i32, %d: i32):
      %s = arith.addi %u, %d : i32
      iree_linalg_ext.yield %s : i32
  } -> tensor<4xi32>
  check.expect_eq_const(%sum, dense<[10, 21, 30, 42]> : tensor<4xi32>) : tensor<4xi32>
  return
}
func.func @after_the_fault() {
  %one = util.unfoldable_constant 1 : i32
  check.expect_true(%one) : i32
  return
}
"""


def verdicts(text: str) -> dict[str, tuple[str, str]]:
    """@function -> (PASS or FAIL, the lines that explain a failure) from check's report."""
    out, name = {}, None
    for line in text.splitlines():
        m = re.match(r"(PASS|FAIL)  \S+ @(\S+)$", line)
        if m:
            name = m.group(2)
            out[name] = (m.group(1), "")
        elif line.startswith("      ") and name:
            out[name] = (out[name][0], out[name][1] + line.strip() + "\n")
    return out


def run_check(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return check_main(argv, out=out), out.getvalue()


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    d = tmp_path_factory.mktemp("check")
    for name, text in (("holds", HOLDS), ("wrong", WRONG)):
        (d / f"{name}.mlir").write_text(text)
    return d


@pytest.fixture(scope="module")
def wrong_module(programs):
    """WRONG compiled for the CPU, as opt-py check compiles it."""
    vmfb = programs / "wrong.vmfb"
    vmfb.write_bytes(e2e.compile_program(str(programs / "wrong.mlir"), e2e.TARGETS["cpu"], extra_flags=[GENERIC]))
    return vmfb


@pytest.fixture(scope="module")
def wrong_report(programs, wrong_module):
    out = io.StringIO()
    result = check.check_module(str(programs / "wrong.mlir"), str(wrong_module), "local-task", out=out)
    return result, verdicts(out.getvalue())


def test_expectations_that_hold_pass(programs):
    status, text = run_check([str(programs / "holds.mlir"), GENERIC])
    assert status == 0, text
    got = verdicts(text)
    assert set(got) == {
        "expect_true_holds",
        "expect_false_holds",
        "expect_all_true_holds",
        "expect_eq_holds",
        "expect_almost_eq_within_tolerance",
    }
    assert {v for v, _ in got.values()} == {"PASS"}
    assert text.splitlines()[-1] == "5 functions in 1 file: 5 passed, 0 failed"


@pytest.mark.parametrize(
    "function, lines",
    [
        ("wrong_true", ["check.expect_true:", "Expected 0 to be nonzero."]),
        ("wrong_false", ["check.expect_false:", "Expected 1 to be zero."]),
        (
            "wrong_all_true",
            [
                "Expected every element to be nonzero; element [1, 0] is 0.",
                "got:  2x2xi32=[1 2][0 4]",
                "first difference: element [1, 0]: got 0, want nonzero",
            ],
        ),
        (
            "wrong_eq",
            [
                "Expected equality of these values. Contents does not match.",
                "got:  3xi32=1 2 3",
                "want: 3xi32=1 7 3",
                "first difference: element [1]: got 2, want 7",
            ],
        ),
        (
            "wrong_eq_const",
            ["got:  3xi32=2 4 6", "want: 3xi32=2 4 5", "first difference: element [2]: got 6, want 5"],
        ),
        (
            "almost_eq_outside_atol",
            [
                "Expected near equality of these values. Contents does not match to tolerance parameters "
                "atol=0.0001, rtol=0. The first failure occurs at index 1 as the lhs value 2.5 differs "
                "from the rhs value 2 by -5.000e-01.",
                "first difference: element [1]: got 2.5, want 2",
            ],
        ),
        (
            "almost_eq_const_outside_rtol",  # rtol scales with the expected value: 0.5 > 1e-3 * 100
            ["atol=0, rtol=0.001. The first failure occurs at index 0", "got:  2xf32=100.5 1", "want: 2xf32=100 1"],
        ),
    ],
)
def test_a_wrong_expectation_fails_naming_got_and_want(wrong_report, function, lines):
    verdict, why = wrong_report[1][function]
    assert verdict == "FAIL"
    for line in lines:
        assert line in why, why


def test_a_function_that_writes_its_constant_faults_and_the_rest_still_run(wrong_report):
    result, got = wrong_report
    verdict, why = got["writes_its_constant"]
    assert verdict == "FAIL"
    assert why.startswith(
        "faulted: SIGSEGV, the module wrote to read-only memory: likely its own constants (IREE #12233); "
        "loaded writable, it runs and its results change between two calls: expectation 1, operand 0, "
        "element [1]: 21 then 22"
    ), why
    assert got["after_the_fault"] == ("PASS", "")
    assert [f.name for f in result.failed] == [n for n in got if n != "after_the_fault"]


def test_the_fault_is_the_read_only_load_and_iree_run_module_hides_it(wrong_module):
    """The same function faults loaded read-only (what check runs), runs loaded writable, and
    ``iree-run-module`` (which skips every check.* call) exits 0 on it."""
    request = worker.Request(str(wrong_module), "local-task", "writes_its_constant", check=True, calls=1)
    assert worker.shared().run(request).fault == "SIGSEGV"
    writable = worker.shared().run(worker.Request(**{**request.__dict__, "writable": True}))
    assert not writable.fault and not writable.error and writable.calls[0]["checks"][0]["ok"]
    assert e2e.run_cli(wrong_module.read_bytes(), e2e.TARGETS["cpu"], "writes_its_constant", [], 0) == []


def test_a_result_that_changes_between_calls_fails():
    """Two calls' expectations see different values: the function fails, naming the first change."""
    value = {"type": "i32", "shape": (2,), "values": np.array([1, 2], np.int32), "raw": b""}
    changed = {**value, "values": np.array([1, 3], np.int32)}
    calls = [
        {"results": [], "checks": [{"op": "expect_eq", "ok": True, "operands": [v, v], "index": None}]}
        for v in (value, changed)
    ]
    assert check.problems(worker.Outcome(calls=calls)) == [
        "results change between two calls: expectation 1, operand 0, element [1]: 2 then 3"
    ]


def test_a_compile_error_exits_2_with_iree_message(tmp_path, capsys):
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        "func.func @f() {\n  %x = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>\n"
        "  check.expect_eq_const(%x, dense<[1, 2, 3]> : tensor<3xi32>) : tensor<2xi32>\n  return\n}\n"
    )
    status, text = run_check([str(bad)])
    err = capsys.readouterr().err
    assert status == 2
    assert f"opt-py check: error: {bad}: compilation failed:" in err
    assert "error: 'check.expect_eq_const' op failed to verify that all of {lhs, value} have same type" in err
    assert text.splitlines()[-1] == "0 functions in 0 files: 0 passed, 0 failed; 1 file not checked (errors above)"


def test_cuda_compiles_and_runs_only_where_a_gpu_is(programs):
    status, text = run_check([str(programs / "holds.mlir"), "--target", "cuda", "--compile-only"])
    assert status == 0 and f"COMPILED  {programs / 'holds.mlir'}" in text, text
    present, why = e2e.device_available(e2e.TARGETS["cuda"])
    if not present:
        pytest.skip(f"running needs a cuda device: {why}")
    status, text = run_check([str(programs / "holds.mlir"), "--target", "cuda"])
    assert status == 0, text


@pytest.mark.skipif(not IREE_E2E.is_dir(), reason=f"the peers' suites are not beside the checkout ({IREE_E2E})")
def test_fixes_pass_iree_files_where_stock_passes():
    """IREE's scan.mlir passes both ways; gather.mlir's masked gather into an unfoldable constant
    writes it (IREE #12233): stock faults, --fixes copies it first (copy-tied-operand-through-barrier)
    and passes. --fixes turns no stock pass into a failure."""
    files = [str(IREE_E2E / "linalg_ext_ops" / f) for f in ("scan.mlir", "gather.mlir")]
    runs = {mode: run_check([*files, GENERIC, *flags]) for mode, flags in (("stock", []), ("fixes", ["--fixes"]))}
    (s_status, stock), (f_status, fixed) = runs["stock"], runs["fixes"]
    assert (s_status, f_status) == (1, 0), stock + fixed
    assert verdicts(stock).keys() == verdicts(fixed).keys()
    passed = {name for name, (v, _) in verdicts(stock).items() if v == "PASS"}
    assert passed | {"gather_operand_mask_preserves_output"} == {
        name for name, (v, _) in verdicts(fixed).items() if v == "PASS"
    }
    assert len(passed) == 11
    verdict, why = verdicts(stock)["gather_operand_mask_preserves_output"]
    assert verdict == "FAIL" and why.startswith("faulted: SIGSEGV, the module wrote to read-only memory")
    assert verdicts(fixed)["gather_operand_mask_preserves_output"][0] == "PASS"
    assert os.path.basename(files[0]) in stock


def test_the_target_choices_are_the_targets():
    """The one spelling of --target's choices (tool/flags.py) names exactly e2e's TARGETS."""
    from opt_py.tool import flags

    assert flags.TARGETS == sorted(e2e.TARGETS)

"""The peers' suites stock vs ``--fixes``: a CI sample of tools/sweep_peer_suites.py
(python/peers/).

The contract as a number on a fixed sample: no case that stock passes fails
with ``--fixes``, and each case's known outcome, both ways, still holds (a
change, better or worse, is noticed here and re-pinned on purpose). The
sample: 15 ``onnx_ops`` cases on llvm-cpu, compiled with IREE's own flags and
run against their expected outputs (the ops the fixes rewrite: top-k, softmax,
normalization, scatters, reshapes; and one case of each failure class), two
IREE e2e files compiled for cuda (compile-only: no GPU needed), three e2e
files through ``opt-py check`` on the CPU, and six torch-mlir programs on the
CPU (one per outcome: pass, compile failure, run failure, wrong numbers,
random, no export; they also need torch and iree-turbine). The full sweep and
its counts: docs/reports/peer-suites.md. These tests need ``../shared/peer``
beside the checkout and are skipped, with the reason, without it; the
classification tests before them need nothing.
"""

import json
import sys
from pathlib import Path

import pytest
from opt_py.peers import suites as ps
from opt_py.peers import sweep

HAVE_PEER = (ps.PEER / ps.ONNX_CASES).is_dir()
needs_peer = pytest.mark.skipif(not HAVE_PEER, reason=f"the peers' suites are not beside the checkout ({ps.PEER})")

# onnx_ops on llvm-cpu: case -> (stock, --fixes), each an outcome and, for a failure, its family
PASS = ("pass", "")
ONNX_SAMPLE = {
    "test_argmax_default_axis_example": (PASS, PASS),
    "test_layer_normalization_2d_axis0": (PASS, PASS),
    "test_reshape_reordered_all_dims": (PASS, PASS),
    "test_scatter_elements_with_axis": (PASS, PASS),
    "test_scatternd": (PASS, PASS),
    "test_softmax_axis_1": (PASS, PASS),
    "test_top_k": (PASS, PASS),
    # IREE's list expects a compile failure, a run failure: both pass with 3.13
    "test_reduce_log_sum_exp_default_axes_keepdims_example": (PASS, PASS),
    "test_reduce_max_bool_inputs": (PASS, PASS),
    "test_affine_grid_2d": (
        (
            "compile-fail",
            "failed to legalize operation 'torch.operator' that was explicitly marked illegal [onnx.AffineGrid]",
        ),
    )
    * 2,
    "test_bernoulli_seed": (
        (
            "compile-fail",
            "failed to legalize operation 'torch.operator' that was explicitly marked illegal [onnx.Bernoulli]",
        ),
    )
    * 2,
    "test_col2im": (("compile-fail", "failed to legalize operation 'torch.constant.int'"),) * 2,
    # a runtime axis: stock has no lowering; onnx-runtime-axes-as-select makes it a constant
    "test_cumsum_1d": (
        ("compile-fail", "failed to legalize operation 'torch.aten.cumsum' that was explicitly marked illegal"),
        PASS,
    ),
    "test_det_2d": (
        (
            "run-fail",
            "[FAILED] result[N]: element at index N (-NAN) does not match the expected (-N); "
            "expected that the view is equal to contents of a view of f32",
        ),
    )
    * 2,
    # IREE's torch-to-linalg divides by zero on a 0-sized reshape; torch-zero-size-reshape-to-empty avoids it
    "test_reshape_allowzero_reordered": (
        ("crash", "SIGFPE in ConvertAtenViewOp::getMultiplier (pass ConvertTorchToLinalg)"),
        PASS,
    ),
}
# torch-mlir's programs on llvm-cpu, exported with iree-turbine: case -> (stock, --fixes) as above
TORCH_SAMPLE = {
    "ElementwiseFmaxModule_basic": (PASS, PASS),  # three calls, NaNs among the inputs
    # stock's failures the fixes exist for: torch-decompose-signbit, abi-convert-demoted-tensors (f64 under
    # IREE's default demotion to f32), torch-sdpa-masked-rows-zero (attention rows a boolean mask hides)
    "ElementwiseSignbitModule_basic": (("compile-fail", "failed to legalize operation 'torch.constant.int'"), PASS),
    "Fill_TensorFloat64WithFloat64_basic": (
        (
            "run-fail",
            "OUT_OF_RANGE; buffer view byte length N exceeds backing buffer byte length N (f64 inputs or results)",
        ),
        PASS,
    ),
    "ScaledDotProductAttentionBoolMaskModule_basic": (("wrong", "NaN where PyTorch has a number"), PASS),
    "RandModule_basic": (("random", ""),) * 2,  # torch.rand inside forward
    "AllBoolTrueModule_basic": (
        ("export-fail", "the module returns a Python scalar (a constant): iree-turbine's importer raises KeyError"),
    )
    * 2,
}
E2E_CUDA_SAMPLE = ["linalg/softmax.mlir@check_large_linalg_matmul_cuda", "linalg_ext_ops/sort.mlir@check_cuda"]
E2E_CPU_SAMPLE = [
    "tosa_ops/abs.mlir@check_llvm-cpu_local-task",
    "linalg/softmax.mlir@check_llvm-cpu_local-task",
    "linalg_ext_ops/top-k.mlir@check_llvm-cpu_local-task",
]


def _run(cases: list, tmp: Path) -> dict[str, dict]:
    """Each case stock and with --fixes (2 jobs): case -> {variant: record}."""
    todo = [(c, v) for c in cases for v in ("stock", "fixes")]
    sweep.sweep(todo, tmp, jobs=2, log=None, compile_timeout=600, run_timeout=120)
    suite, target = cases[0].suite, cases[0].target
    found = {v: sweep.load_results(sweep.results_path(tmp, suite, target, v)) for v in ("stock", "fixes")}
    return {c.name: {v: found[v][c.name] for v in found} for c in cases}


def _named(cases: list, names) -> list:
    by_name = {c.name: c for c in cases}
    missing = [n for n in names if n not in by_name]
    assert not missing, f"not in the suite: {missing}"
    return [by_name[n] for n in names]


# --------------------------------------------------------------------------
# What an outcome is (no suite needed)
# --------------------------------------------------------------------------


def test_family_drops_shapes_and_locations_keeps_ops():
    a = (
        "model.mlir:4:10: error: failed to legalize operation 'torch.operator' that was explicitly marked illegal: %0 = \"torch.operator\""
        '(%arg0, %arg1) <{name = "onnx.AffineGrid"}> : (!torch.vtensor<[2,2,3],f32>) -> !torch.vtensor<[2,5,6,2],f32>'
    )
    b = a.replace("4:10", "7:3").replace("[2,2,3]", "[1,2,3,4]").replace("%0", "%12")
    assert ps.family(a) == ps.family(b)
    assert ps.family(a).endswith("[onnx.AffineGrid]")
    assert ps.family("<unknown>:0: error: 'tensor.expand_shape' op expected dimension 3 of tensor<4x?xf32>") == (
        "'tensor.expand_shape' op expected dimension N of tensor<...>"
    )
    assert ps.family("error: x") == ps.family("<unknown>:0: error: x") == "x"
    failed = "opt-py check: error: a.mlir: compilation failed: a.mlir:3:4: error: custom op 'linalg.add' is unknown"
    assert ps.family(failed) == "custom op 'linalg.add' is unknown"


def test_no_family_merges_different_onnx_ops():
    grid = (
        'error: failed to legalize operation \'torch.operator\': %0 = "torch.operator"() <{name = "onnx.GridSample"}>'
    )
    assert ps.family(grid) != ps.family(grid.replace("GridSample", "Col2Im"))


STACK = """Please report issues to https://github.com/iree-org/iree/issues and include the crash backtrace.
Stack dump:
 #0 0x00007ffa1935a0ab llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) Signals.cpp:0:0
 #2 0x00007ffa1935ac10 SignalHandler(int, siginfo_t*, void*) Signals.cpp:0:0
 #3 0x00007ffa221a3050 (/lib/x86_64-linux-gnu/libc.so.6+0x3c050)
 #4 0x00007ffa1a6b4246 (anonymous namespace)::ConvertAtenViewOp::getMultiplier(llvm::SmallVector<long, 6u>) DataMovement.cpp:0:0
#17 0x00007ffa1a65ef92 mlir::torch::(anonymous namespace)::ConvertTorchToLinalg::runOnOperation() TorchToLinalg.cpp:0:0
"""


@pytest.mark.parametrize(
    "step,phase,want",
    [
        (ps.Step(None, "", "", 600.0), "compile", {"outcome": "timeout", "error": "compile timed out after 600 s"}),
        (ps.Step(248, "", STACK, 1.0), "compile", {"outcome": "crash", "signal": 8}),
        (ps.Step(-8, "", "", 1.0), "compile", {"outcome": "crash", "error": "SIGFPE (no message)"}),
        (ps.Step(136, "", "", 1.0), "compile", {"outcome": "crash", "error": "SIGFPE (no message)"}),
        (
            ps.Step(1, "", "a.mlir:1:2: warning: w\na.mlir:3:4: error: bad op\n", 1.0),
            "compile",
            {"error": "a.mlir:3:4: error: bad op"},
        ),
        (
            ps.Step(1, "", "opt-py: error: iree-compile flags: Error parsing flags:\n  option not found: x\n", 1.0),
            "compile",
            {"error": "opt-py: error: iree-compile flags: Error parsing flags: option not found: x"},
        ),
        (
            ps.Step(1, "", 'Traceback (most recent call last):\n  File "p.py", line 1\nValueError: boom\n', 1.0),
            "compile",
            {"outcome": "compile-fail", "traceback": "ValueError: boom", "error": "ValueError: boom"},
        ),
        (
            ps.Step(1, "EXEC @f\n[FAILED] result[0]: element at index 0 (2) does not match\n", "", 1.0),
            "run",
            {"outcome": "run-fail", "error": "[FAILED] result[0]: element at index 0 (2) does not match"},
        ),
        (ps.Step(1, "", "f.mlir: @g: expect_eq failed: got 1, want 2\n", 1.0), "check", {"outcome": "run-fail"}),
        (
            ps.Step(2, "", "f.mlir:1:1: error: cannot compile\n", 1.0),
            "check",
            {"outcome": "error", "error": "f.mlir:1:1: error: cannot compile"},
        ),
    ],
)
def test_failed_step(step, phase, want):
    got = ps.failed_step(step, phase)
    assert {k: got.get(k) for k in want} == want
    if step.rc == 248:
        assert got["error"] == "SIGFPE in ConvertAtenViewOp::getMultiplier (pass ConvertTorchToLinalg)"


def test_crash_site_of_a_lambda_is_its_function_and_opt_py_names_the_same_crash_by_pass():
    frame = (
        " #4 0x00007fd97b010b10 void llvm::function_ref<void (mlir::Operation*)>::callback_fn<mlir::iree_compiler::"
        "IREE::Flow::summarizeDispatchRegion[abi:cxx11](mlir::Region&)::$_0>(long, mlir::Operation*) "
        "AnnotateDispatches.cpp:0:0\n"
        " #6 0x00007fd97b011f9a mlir::iree_compiler::IREE::Flow::AnnotateDispatchesPass::runOnOperation() "
        "AnnotateDispatches.cpp:0:0\n"
    )
    site = ps.crash_site(STACK.split(" #4")[0] + frame)
    assert site == "mlir::iree_compiler::IREE::Flow::summarizeDispatchRegion (pass AnnotateDispatchesPass)"
    stock = {"outcome": "crash", "error": f"SIGFPE in {site}"}
    assert sweep.failure_kind(stock, _rec("crash", "SIGFPE in pass AnnotateDispatchesPass")) == "same"
    assert sweep.failure_kind(stock, _rec("crash", "SIGSEGV in pass AnnotateDispatchesPass")) == "different"


def test_a_successful_step_is_no_failure():
    assert ps.failed_step(ps.Step(0, "", "warning: generic CPU\n", 1.0), "compile") is None


def test_cmake_suites():
    text = """iree_check_single_backend_test_suite(
  NAME
    check_winograd
  SRCS
    "conv2d.mlir"
    "pack.mlir"
  TARGET_BACKEND
    "llvm-cpu"
  COMPILER_FLAGS
    "--iree-preprocessing-pass-pipeline=builtin.module\\(func.func\\(x\\)\\)"
)
"""
    (suite,) = ps.cmake_suites(text)
    assert suite["NAME"] == ["check_winograd"]
    assert suite["SRCS"] == ["conv2d.mlir", "pack.mlir"]
    assert suite["COMPILER_FLAGS"] == ["--iree-preprocessing-pass-pipeline=builtin.module(func.func(x))"]


def _case(name: str) -> ps.Case:
    return ps.Case("onnx_ops", "cpu", name, f"/x/{name}/model.mlir", f"/x/{name}")


def test_select():
    cases = [_case(f"test_{i:02}") for i in range(30)]
    assert [c.name for c in sweep.select(cases, "test_0*,test_29")] == [f"test_0{i}" for i in range(10)] + ["test_29"]
    assert [c.name for c in sweep.select(cases, every=10)] == ["test_00", "test_10", "test_20"]
    drawn = sweep.select(cases, sample=5, seed=3)
    assert len(drawn) == 5 and drawn == sweep.select(cases, sample=5, seed=3)
    assert drawn == sorted(drawn, key=lambda c: c.name)


def test_a_rerun_skips_what_is_done(tmp_path):
    cases = [_case("test_a"), _case("test_b")]
    path = sweep.results_path(tmp_path, "onnx_ops", "cpu", "stock")
    sweep.append_result(path, {"case": "test_a", "outcome": "pass"})
    sweep.append_result(path, {"case": "test_b", "outcome": "timeout"})
    with open(path, "a") as f:
        f.write('{"case": "test_b", "outc')  # a sweep killed mid-line
    sweep.append_result(path, {"case": "test_c", "outcome": "pass"})
    assert sorted(sweep.load_results(path)) == ["test_a", "test_b", "test_c"]
    todo = sweep.pending(cases, ["stock", "fixes"], tmp_path)
    assert [(c.name, v) for c, v in todo] == [("test_a", "fixes"), ("test_b", "fixes")]
    todo = sweep.pending(cases, ["stock"], tmp_path, redo=frozenset({"timeout"}))
    assert [(c.name, v) for c, v in todo] == [("test_b", "stock")]


def test_redo_stale_reruns_what_another_commit_recorded(tmp_path):
    """``--variant fixes --redo stale``: after fixes land, only the records of an older opt-py run again."""
    cases = [_case("test_a"), _case("test_b")]
    path = sweep.results_path(tmp_path, "onnx_ops", "cpu", "fixes")
    sweep.append_result(path, {"case": "test_a", "outcome": "pass", "commit": "old"})
    sweep.append_result(path, {"case": "test_b", "outcome": "compile-fail", "commit": "new"})
    todo = sweep.pending(cases, ["fixes"], tmp_path, redo=frozenset({"stale"}), commit="new")
    assert [(c.name, v) for c, v in todo] == [("test_a", "fixes")]


def test_nothing_starts_past_the_deadline(tmp_path):
    """``--until``: runs not started by then are left pending, nothing is written for them."""
    import time

    todo = [(_case("test_a"), "stock")]
    assert sweep.sweep(todo, tmp_path, jobs=1, log=None, deadline=time.time() - 1) == []
    assert sweep.pending([c for c, _ in todo], ["stock"], tmp_path) == todo
    assert sweep.utc_deadline("") is None
    assert 0 < sweep.utc_deadline("00:00") - time.time() <= 86400


def _rec(outcome, error="", **more):
    return {"outcome": outcome, "error": error, **more}


def test_compare_counts_fixed_regressed_and_how_failures_compare():
    stock = {
        "a": _rec("pass"),
        "b": _rec("compile-fail", "x.mlir:1:1: error: no lowering for 'foo'"),
        "c": _rec("pass"),
        "d": _rec("compile-fail", "error: no lowering for 'foo'"),
        "e": _rec("crash", "SIGFPE in f"),
        "f": _rec("compile-fail", "error: one"),
        "g": _rec("run-fail", "[FAILED]"),
        "h": _rec("compile-fail", "error: one"),
    }
    fixed = {
        "a": _rec("pass"),
        "b": _rec("pass"),
        "c": _rec("compile-fail", "error: broken"),
        "d": _rec("compile-fail", "y.mlir:9:9: error: no lowering for 'foo'"),
        "e": _rec("compile-fail", "error: one"),
        "f": _rec("compile-fail", "error: two"),
        "g": _rec("crash", "SIGSEGV"),
        "h": _rec("compile-fail", "ValueError: x", traceback="ValueError: x"),
    }
    rows = {r["case"]: r for r in sweep.compare(stock, fixed)}
    assert {k: r["verdict"] for k, r in rows.items()} == {
        "a": "pass both",
        "b": "fixed",
        "c": "regressed",
        **dict.fromkeys("defgh", "fail both"),
    }
    assert {k: r["kind"] for k, r in rows.items() if "kind" in r} == {
        "d": "same",
        "e": "better",
        "f": "different",
        "g": "worse",
        "h": "traceback",
    }
    t = sweep.totals(list(rows.values()))
    assert (t["regressed"], t["fixed"], t["traceback"]) == (1, 1, 1)


def test_against_iree():
    config = ps.Config(
        "c", (), (), frozenset({"t_cf", "t_cf2"}), frozenset({"t_rf", "t_rf2", "t_rf3"}), frozenset({"t_skip"})
    )
    records = {
        "t_cf": _rec("pass"),
        "t_cf2": _rec("crash"),
        "t_rf": _rec("pass"),
        "t_rf2": _rec("run-fail"),
        "t_rf3": _rec("compile-fail"),
        "t_ok": _rec("run-fail"),
        "t_skip": _rec("timeout"),
    }
    assert sweep.against_iree(config, records) == {
        "IREE expects a compile failure, compiles here": ["t_cf"],
        "IREE expects a run failure, passes here": ["t_rf"],
        "IREE expects a run failure, fails to compile here": ["t_rf3"],
        "IREE expects a pass, fails here": ["t_ok"],
        "skipped by IREE": ["t_skip"],
    }


STUB_CHECK = r"""import os, sys
program = open(sys.argv[1]).read()
print(" ".join(sys.argv[1:]), file=sys.stderr)
if "SEGV" in program:
    os.kill(os.getpid(), 11)
if "FAIL" in program:
    print("FAIL  f.mlir @main\n      expect_eq: got 1, want 2\n1 function in 1 file: 0 passed, 1 failed")
    sys.exit(1)
sys.exit(2 if "ERROR" in program else 0)
"""


@pytest.mark.parametrize("text,outcome", [("ok", "pass"), ("FAIL", "run-fail"), ("ERROR", "error"), ("SEGV", "crash")])
def test_e2e_files_go_through_opt_py_check(tmp_path, text, outcome):
    """The e2e path with a stand-in for ``opt-py check``: its command line and its exit statuses."""
    (tmp_path / "f.mlir").write_text(text)
    (tmp_path / "stub.py").write_text(STUB_CHECK)
    case = ps.Case("iree_e2e", "cpu", "f.mlir@s", str(tmp_path / "f.mlir"), str(tmp_path), ("--x=1",))
    rec = ps.run_case(case, "fixes", check=[sys.executable, str(tmp_path / "stub.py")])
    assert rec["outcome"] == outcome
    assert ps.check_command(case, "fixes", ["c"]) == ["c", "f.mlir", "--target", "cpu", "--fixes", "--x=1"]
    if outcome == "run-fail":
        assert rec["error"] == "FAIL  f.mlir @main expect_eq: got 1, want 2"
        assert ps.family(rec["error"]) == "check failed: expect_eq: got N, want N"


# --------------------------------------------------------------------------
# torch-mlir's programs: judging results and naming failures (NumPy only)
# --------------------------------------------------------------------------

tm = ps.tm


def test_torch_results_floats_within_the_suites_tolerance_integers_exactly():
    import numpy as np

    want = [np.array([1.0, -2.0, np.nan], np.float32), np.array([3, 4], np.int64), np.array([True, False])]
    assert tm.compare(want, [want[0] * np.float32(1 + 5e-4), want[1], want[2]]) == ("", "")  # NaN equals NaN
    kind, what = tm.compare(want, [want[0] * np.float32(1 + 3e-3), want[1], want[2]])
    assert kind == "floats differ"
    assert what.startswith("result 0 (float32 [3]): 2 of 3 elements beyond rtol 0.001 atol 1e-07, max abs error 0.006")
    assert tm.compare(want, [want[0], want[1] + [0, 1], want[2]]) == (
        "integers differ",
        "result 1 (int64 [2]): 1 of 2 elements differ, first at 1: 5 vs 4",
    )
    assert tm.compare(want, [want[0], want[1], ~want[2]])[0] == "integers differ"
    assert tm.compare(want, [np.array([1, -2, 0], np.float32), want[1], want[2]])[0] == "a number where PyTorch has NaN"
    assert (
        tm.compare(want, [np.array([1, np.nan, np.nan], np.float32), *want[1:]])[0] == "NaN where PyTorch has a number"
    )
    assert tm.compare(want, [np.array([1, -np.inf, np.nan], np.float32), *want[1:]])[0] == "infinities differ"
    assert tm.compare(want, [want[0].astype(np.float64), *want[1:]])[0] == "dtype"
    assert tm.compare(want, [want[0][:2], *want[1:]])[0] == "shape"
    assert tm.compare(want, want[:2])[0] == "result count"


def test_torch_unsigned_results_read_as_torchs_dtype():
    """IREE's ABI is signless: torch's uint8 comes back from the runtime as int8 of the same bytes
    (ElementwiseToDtypeI64ToUI8Module_basic, ReduceMaxAlongDimUnsignedInt_basic). Its bytes are judged as
    uint8, exactly; a wrong byte, another width or a float is still wrong."""
    import numpy as np

    want = [np.array([200, 3, 255], np.uint8)]
    assert tm.compare(want, [np.array([-56, 3, -1], np.int8)]) == ("", "")
    assert tm.compare(want, [np.array([-55, 3, -1], np.int8)]) == (
        "integers differ",
        "result 0 (uint8 [3]): 1 of 3 elements differ, first at 0: 201 vs 200",
    )
    assert tm.compare(want, [np.array([200, 3, 255], np.int16)])[0] == "dtype"
    assert tm.compare([np.array([-1], np.int8)], [np.array([255], np.uint8)])[0] == "dtype"  # signed stays signed
    assert tm.shapes_match(want, [np.zeros(3, np.int8)]) == ""


def test_torch_results_compared_a_chunk_at_a_time_say_the_same(monkeypatch):
    import numpy as np

    want = np.linspace(-1, 1, 11).astype(np.float32)
    got = want.copy()
    got[[3, 8]] = [np.nan, 5.0]
    whole = tm.compare([want], [got])
    monkeypatch.setattr(tm, "CHUNK", 2)
    assert tm.compare([want], [got]) == whole
    assert whole[1].startswith(
        "result 0 (float32 [11]): 2 of 11 elements beyond rtol 0.001 atol 1e-07, max abs error 4.4"
    )


def test_torch_f64_results_are_compared_in_f64():
    import numpy as np

    big = np.array([1e300, 1e-300], np.float64)  # out of f32's range both ways
    assert tm.compare([big], [big * (1 + 1e-4)]) == ("", "")
    assert tm.compare([big], [big * 2])[0] == "floats differ"
    assert tm.compare([big], [np.zeros(2, np.float32)])[0] == "dtype"  # f32 results for an f64 program


def test_torch_random_programs_are_judged_on_shapes_and_dtypes():
    import numpy as np

    want = [np.zeros((2, 3), np.float32)]
    assert tm.shapes_match(want, [np.ones((2, 3), np.float32)]) == ""
    assert tm.shapes_match(want, [np.ones((3, 2), np.float32)]) == "result 0: float32 [3, 2], PyTorch float32 [2, 3]"


@pytest.mark.parametrize(
    "rec,family",
    [
        (
            {
                "outcome": "export-fail",
                "error": "KeyError: False",
                "where": "iree/turbine/aot/support/procedural/exported_program.py:219",
            },
            "the module returns a Python scalar (a constant): iree-turbine's importer raises KeyError",
        ),
        (
            {
                "outcome": "export-fail",
                "error": "ModuleNotFoundError: No module named 'torchvision' (needed for torchvision.models.resnet18)",
            },
            "torchvision is not installed",
        ),
        (
            {
                "outcome": "export-fail",
                "error": "GuardOnDataDependentSymNode: Could not extract specialized integer "
                "from data-dependent expression u0 (unhinted: u0).",
            },
            "data-dependent shape or value (GuardOnDataDependentSymNode)",
        ),
        ({"outcome": "wrong", "error": "result 0 ...", "kind": "floats differ"}, "floats differ"),
        (
            {"outcome": "wrong", "error": "result 0 ...", "kind": "floats differ", "f64": True},
            "floats differ (f64 inputs or results)",
        ),
        (
            {
                "outcome": "run-fail",
                "error": "IndexError: Error invoking function: c/runtime/src/iree/hal/"
                "buffer_view.c:47: OUT_OF_RANGE; buffer view byte length 8 exceeds backing buffer byte length 4; "
                "while invoking native function hal.buffer_view.create; while calling import;",
            },
            "OUT_OF_RANGE; buffer view byte length N exceeds backing buffer byte length N",
        ),
        (
            {
                "outcome": "compile-fail",
                "error": "model.mlir:3:10: error: failed to legalize operation 'torch.constant.int'",
            },
            "failed to legalize operation 'torch.constant.int'",
        ),
    ],
)
def test_torch_families(rec, family):
    assert ps.torch_family({"suite": "torch_mlir", **rec}) == family
    assert sweep.family_of({"suite": "torch_mlir", **rec}) == family


def test_torch_export_failures_are_no_comparison_and_random_programs_count_as_run():
    stock = {"a": _rec("export-fail", "KeyError: 1"), "b": _rec("random"), "c": _rec("random")}
    fixed = {"a": _rec("export-fail", "KeyError: 1"), "b": _rec("random"), "c": _rec("wrong", "x", kind="shape")}
    rows = {r["case"]: r["verdict"] for r in sweep.compare(stock, fixed)}
    assert rows == {"b": "pass both", "c": "regressed"}


def test_torch_bisect_tries_each_cpu_fix_alone(monkeypatch):
    """``--bisect`` on a torch_mlir case: opt-py with no fix, then every fix ``--fixes`` injects for llvm-cpu."""
    case = ps.Case("torch_mlir", "cpu", "T_basic", "/x/T/model.mlir", "/x/T", flags=tuple(ps.gpu_target_flags("cpu")))
    culprit = sweep.fix_names(case)[-1]
    seen = []

    def fake_run(c, variant, **options):
        seen.append(variant)
        return {"outcome": "wrong" if variant == f"fixes={culprit}" else "pass"}

    monkeypatch.setattr(ps, "run_case", fake_run)
    found = sweep.bisect(case)
    assert seen == ["opt-py", *(f"fixes={n}" for n in sweep.fix_names(case))]
    assert [n for n, rec in found.items() if rec["outcome"] not in ps.GOOD] == [f"fixes={culprit}"]


def test_torch_test_files_and_names_read_from_their_text(tmp_path):
    folder = tmp_path / "torch_mlir_e2e" / "test_suite"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("def register_all_tests():\n    from . import b\n    from . import a\n")
    (folder / "a.py").write_text(
        "@register_test_case(module_factory=lambda: M(x=(1, 2)))\ndef A_basic(module, tu: TestUtils):\n    pass\n"
        "@register_test_case(\n    module_factory=lambda: N(),\n    timeout_seconds=10\n)\ndef B_basic(module, tu):\n"
    )
    (folder / "b.py").write_text("class C:\n    @register_test_case(module_factory=C)\n    def C_basic(module, tu):\n")
    assert [p.name for p in tm.test_files(tmp_path)] == ["a.py", "b.py"]
    assert tm.registry(tmp_path) == [
        {"name": "A_basic", "file": "a.py", "timeout": 120},
        {"name": "B_basic", "file": "a.py", "timeout": 10},
        {"name": "C_basic", "file": "b.py", "timeout": 120},
    ]


# --------------------------------------------------------------------------
# The sample
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def onnx_sample(tmp_path_factory):
    cases = _named(ps.onnx_cases("cpu"), ONNX_SAMPLE)
    return _run(cases, tmp_path_factory.mktemp("onnx"))


@needs_peer
def test_onnx_sample_no_regression(onnx_sample):
    rows = sweep.compare(*({n: r[v] for n, r in onnx_sample.items()} for v in ("stock", "fixes")))
    regressed = [(r["case"], r["fixes"].get("error")) for r in rows if r["verdict"] == "regressed"]
    assert not regressed
    tracebacks = [(r["case"], r["fixes"]["traceback"]) for r in rows if r["fixes"].get("traceback")]
    assert not tracebacks


@needs_peer
@pytest.mark.parametrize("name", list(ONNX_SAMPLE))
def test_onnx_sample_known_outcome(onnx_sample, name):
    got = tuple(
        (onnx_sample[name][v]["outcome"], ps.family(onnx_sample[name][v].get("error", ""))) for v in ("stock", "fixes")
    )
    assert got == ONNX_SAMPLE[name]


@pytest.fixture(scope="module")
def torch_sample(tmp_path_factory):
    """The sample exported by one child (torch and iree-turbine import once), then compiled and run both ways."""
    pytest.importorskip("torch")
    pytest.importorskip("iree.turbine")
    tmp = tmp_path_factory.mktemp("torch")
    cases = _named(ps.torch_mlir_cases("cpu", cache=tmp / "exports"), TORCH_SAMPLE)
    rows = [r for r in tm.registry(ps.PEER) if r["name"] in TORCH_SAMPLE]
    tm.export_all(rows, ps.PEER, tmp / "exports", log=None)
    return _run(cases, tmp)


@needs_peer
def test_torch_sample_no_regression(torch_sample):
    rows = sweep.compare(*({n: r[v] for n, r in torch_sample.items()} for v in ("stock", "fixes")))
    assert [(r["case"], r["fixes"].get("error")) for r in rows if r["verdict"] == "regressed"] == []
    assert [(r["case"], r["fixes"]["traceback"]) for r in rows if r["fixes"].get("traceback")] == []


@needs_peer
@pytest.mark.parametrize("name", list(TORCH_SAMPLE))
def test_torch_sample_known_outcome(torch_sample, name):
    got = tuple(
        (rec["outcome"], "" if rec["outcome"] in ps.GOOD else sweep.family_of(rec))
        for rec in (torch_sample[name][v] for v in ("stock", "fixes"))
    )
    assert got == TORCH_SAMPLE[name]


def test_torch_export_record_of_another_format_is_stale(tmp_path):
    """A record an older harness wrote (no ``format``, or another) reads as absent, so the test is exported
    again; what ``_write_json`` writes reads back."""
    folder = tmp_path / "T_basic"
    folder.mkdir()
    old = {"name": "T_basic", "outcome": "exported", "random": False}
    (folder / "export.json").write_text(json.dumps(old))
    assert tm.export_record(tmp_path, "T_basic") is None
    (folder / "export.json").write_text(json.dumps({**old, "format": tm.EXPORT_FORMAT - 1}))
    assert tm.export_record(tmp_path, "T_basic") is None
    tm._write_json(folder / "export.json", old)
    assert tm.export_record(tmp_path, "T_basic") == {**old, "format": tm.EXPORT_FORMAT}


@needs_peer
def test_torch_mlir_registry():
    rows = tm.registry(ps.PEER)
    assert len(rows) == 1828  # the suite's README: 1,828 registered tests
    assert {r["name"]: r["timeout"] for r in rows if r["timeout"] != 120} == {"TimeOutModule_basic": 10}


@needs_peer
def test_onnx_cases_and_iree_configuration():
    cases = ps.onnx_cases("cpu")
    assert len(cases) == 1156
    config = ps.onnx_config("cpu")
    assert "--iree-hal-local-target-device-backends=llvm-cpu" in cases[0].flags
    assert (len(config.expected_compile_failures), len(config.expected_run_failures)) == (283, 26)
    assert config.expected_compile_failures <= {c.name for c in cases}


@needs_peer
def test_e2e_cuda_sample_compiles_as_stock(tmp_path):
    """Compile-only: whatever compiles stock for cuda compiles with --fixes."""
    out = _run(_named(ps.e2e_cases("cuda"), E2E_CUDA_SAMPLE), tmp_path)
    assert {n: (r["stock"]["outcome"], r["fixes"]["outcome"]) for n, r in out.items()} == dict.fromkeys(
        E2E_CUDA_SAMPLE, ("pass", "pass")
    )


@needs_peer
def test_e2e_global_iree_flags_compile_as_stock():
    """A cuda-graph suite passes --iree-stream-emulate-memset, one of LLVM's process-wide options."""
    (case,) = _named(ps.e2e_cases("cuda"), ["tosa_ops/abs.mlir@check_cuda_graph"])
    assert ps.run_case(case, "stock")["outcome"] == "pass"
    rec = ps.run_case(case, "fixes")
    assert rec["outcome"] == "pass", rec.get("error")


def _have_check() -> bool:
    from opt_py.tool import cli

    return "check" in cli.SUBCOMMANDS


@needs_peer
def test_e2e_cpu_sample_through_check(tmp_path):
    if not _have_check():
        pytest.skip("opt-py check is not in this checkout yet (issue 29, item 1)")
    out = _run(_named(ps.e2e_cases("cpu"), E2E_CPU_SAMPLE), tmp_path)
    rows = sweep.compare(*({n: r[v] for n, r in out.items()} for v in ("stock", "fixes")))
    assert [r["case"] for r in rows if r["verdict"] == "regressed"] == []
    assert out["tosa_ops/abs.mlir@check_llvm-cpu_local-task"]["stock"]["outcome"] == "pass"

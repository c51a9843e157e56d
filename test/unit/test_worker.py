"""Every runtime path survives a module that faults, and reports it wrong with the reason.

One program, compiled once: ``scatter_adds`` scatters into an
``util.unfoldable_constant``, which IREE binds read-write (IREE #12233), so
the module writes its own constant pool: loaded read-only it faults
(SIGSEGV); loaded writable its result changes from call to call.
``counter`` returns a mutable global it increments (results change between
calls, no fault); ``add`` is right. Each path (worker.py itself,
``e2e.run_runtime`` for ``opt-py compare`` and the e2e harness,
``hunt_trace.run_traced`` for ``compare --per-dispatch``, the bundle runner)
must say so and go on.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from opt_py.execution import bundle_run, e2e, hunt_trace, worker

SCATTER = """
func.func @scatter_adds() -> tensor<4xi32> {
  %dst = util.unfoldable_constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %upd = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %idx = util.unfoldable_constant dense<[[1], [3]]> : tensor<2x1xi32>
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
      ins(%upd, %idx : tensor<2xi32>, tensor<2x1xi32>) outs(%dst : tensor<4xi32>) {
    ^bb0(%u: i32, %d: i32):
      %s = arith.addi %u, %d : i32
      iree_linalg_ext.yield %s : i32
  } -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
"""
PROGRAM = (
    SCATTER
    + """
util.global private mutable @count = 0 : i32
func.func @counter() -> i32 {
  %c = util.global.load @count : i32
  %one = arith.constant 1 : i32
  %next = arith.addi %c, %one : i32
  util.global.store %next, @count : i32
  return %next : i32
}
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
)
CPU = e2e.TARGETS["cpu"]
RIGHT = np.array([10, 21, 30, 42], np.int32)  # the first call's result, loaded writable
READ_ONLY_FAULT = "faulted: SIGSEGV, the module wrote to read-only memory: likely its own constants (IREE #12233)"
A, B = np.arange(4, dtype=np.float32), np.ones(4, np.float32)


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    d = tmp_path_factory.mktemp("worker")
    (d / "program.mlir").write_text(PROGRAM)
    (d / "scatter.mlir").write_text(SCATTER)  # --per-dispatch hunts in one function's dispatches
    (d / "program.vmfb").write_bytes(e2e.compile_program(str(d / "program.mlir"), CPU))
    return d


def test_worker_reports_the_fault_and_a_new_worker_runs_the_next(program):
    runner = worker.Worker()
    try:
        ran = worker.run(worker.Request(str(program / "program.vmfb"), "local-task", "scatter_adds"), worker=runner)
        assert ran.fault == "SIGSEGV" and not ran.calls
        assert ran.problem() == (
            f"{READ_ONLY_FAULT}; loaded writable, it runs and its results change between two calls: "
            "result 0, element [1]: 21 then 22"
        )
        ok = runner.run(worker.Request(str(program / "program.vmfb"), "local-task", "add", [A, B]))
        assert not ok.problem() and [c["results"][0].tolist() for c in ok.calls] == [[1, 2, 3, 4]] * 2
    finally:
        runner.close()


def test_worker_loaded_writable_sees_the_results_change(program):
    ran = worker.run(worker.Request(str(program / "program.vmfb"), "local-task", "scatter_adds", writable=True))
    assert not ran.fault and not ran.error
    np.testing.assert_array_equal(ran.calls[0]["results"][0], RIGHT)
    assert ran.problem() == "results change between two calls: result 0, element [1]: 21 then 22"


def test_worker_runs_a_sequence_of_functions_in_one_context(program):
    """Several functions called in turn, in one context, each call: the counter's global is the
    context's, so it counts on across the calls; the results are every function's in turn."""
    sequence = [("counter", []), ("add", [A, B]), ("counter", [])]
    ran = worker.run(worker.Request(str(program / "program.vmfb"), "local-task", "counter", sequence=sequence))
    assert not ran.fault and not ran.error
    assert [[r.tolist() for r in c["results"]] for c in ran.calls] == [[1, [1, 2, 3, 4], 2], [3, [1, 2, 3, 4], 4]]
    assert ran.problem() == "results change between two calls: result 0, element []: 1 then 3"


def test_worker_timeout_and_missing_function_are_outcomes(program):
    runner = worker.Worker()
    try:
        request = worker.Request(str(program / "program.vmfb"), "local-task", "add", [A, B])
        assert runner.run(request, timeout=0.001).error == "timed out after 0.001 s"
        missing = runner.run(worker.Request(str(program / "program.vmfb"), "local-task", "nope"))
        assert missing.error == "no function 'nope' in the module"
    finally:
        runner.close()


def test_iree_run_module_hides_what_run_runtime_reports(program):
    """iree-run-module loads writable and calls once: the fault and the change do not show."""
    vmfb = (program / "program.vmfb").read_bytes()
    np.testing.assert_array_equal(e2e.run_cli(vmfb, CPU, "scatter_adds", [], 1)[0], RIGHT)
    with pytest.raises(e2e.ModuleMisbehaved, match=r"^@scatter_adds faulted: SIGSEGV, the module wrote"):
        e2e.run_runtime(vmfb, CPU, "scatter_adds", [])
    with pytest.raises(e2e.ModuleMisbehaved, match=r"^@counter results change between two calls: result 0"):
        e2e.run_runtime(vmfb, CPU, "counter", [])
    np.testing.assert_array_equal(e2e.run_runtime(vmfb, CPU, "add", [A, B])[0], A + B)


def test_compare_reports_the_fault_as_wrong(program, capsys):
    from opt_py.tool.cli import compare_main

    assert compare_main([str(program / "program.mlir"), "--function", "scatter_adds"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"A is wrong: @scatter_adds {READ_ONLY_FAULT}"), out
    assert out.strip().splitlines()[-1] == "DIFFERENT"


def test_per_dispatch_reports_the_fault_as_wrong(program, capsys):
    from opt_py.tool.cli import compare_main

    vmfb = (program / "program.vmfb").read_bytes()
    with pytest.raises(e2e.ModuleMisbehaved, match=r"^the traced program faulted: SIGSEGV, the module wrote"):
        hunt_trace.run_traced(vmfb, CPU, "scatter_adds", [])
    trace = hunt_trace.run_traced(vmfb, CPU, "add", [A, B])
    np.testing.assert_array_equal(trace.results[0], A + B)
    assert compare_main([str(program / "scatter.mlir"), "--function", "scatter_adds", "--per-dispatch"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"wrong: the traced program {READ_ONLY_FAULT}"), out
    assert out.strip().splitlines()[-1] == "DIFFERENT"


@pytest.mark.parametrize("isolate", [False, True])
def test_bundle_runner_records_the_fault_and_goes_on(program, tmp_path, isolate):
    (tmp_path / "m.vmfb").write_bytes((program / "program.vmfb").read_bytes())
    for name, x in (("a", A), ("b", B), ("sum", A + B), ("right", RIGHT)):
        np.save(tmp_path / f"{name}.npy", x)
    module = {"modules": {"stock": {"vmfb": "m.vmfb"}}, "tolerance": {"rtol": 0.0, "atol": 0.0}, "known": {}}
    cases = [
        {"name": name, "family": name, "function": function, "inputs": inputs, "expected": expected, **module}
        for name, function, inputs, expected in (
            ("writes_constant", "scatter_adds", [], ["right.npy"]),
            ("adds", "add", ["a.npy", "b.npy"], ["sum.npy"]),
        )
    ]
    manifest = {"format": bundle_run.FORMAT, "target": "cpu", "device": "local-task", "variants": {"stock": {}}}
    (tmp_path / "manifest.json").write_text(json.dumps({**manifest, "cases": cases}))
    argv = [str(tmp_path), "-o", str(tmp_path / "r.json")] + (["--isolate"] if isolate else [])
    assert bundle_run.main(argv) == 1  # the fault is a surprise: stock was expected right
    results = {r["case"]: r for r in json.loads((tmp_path / "r.json").read_text())["results"]}
    assert results["writes_constant"]["outcome"] == "wrong"
    assert results["writes_constant"]["detail"].startswith(READ_ONLY_FAULT)
    assert results["adds"]["outcome"] == "right"

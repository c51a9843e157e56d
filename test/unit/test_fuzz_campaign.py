"""``opt-py fuzz``: the differential fuzzer finds a planted bug, reduces it, buckets it; campaigns resume.

Not ``test_fuzz.py`` (the robustness fuzzer of the command's own input). The
planted bug (test/fuzz/planted_subf_as_addf.py: every ``arith.subf`` compiled
as ``arith.addf``) is injected as the stock side; a one-seed campaign of
linalg-level programs must find it, reduce it to at most 5 ops around a
subtraction, see ``--fixes`` (which lacks the bug) right, and name the
dispatch. The rest is pure Python: the judge's allowance, the reducer on a
stand-in compiler, generation's determinism, resuming, and the Dask engine
(skipped without ``distributed``).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from opt_py import OptPyError
from opt_py.execution.outcomes import first_error
from opt_py.fuzz import campaign, execute, judge, known, linalg_ops, reduce, store, tasks
from opt_py.fuzz.program import Program

ROOT = Path(__file__).resolve().parents[2]
PLANTED = ROOT / "test" / "fuzz" / "planted_subf_as_addf.py"
PLANTED_CONFIG = {
    "kind": "linalg",
    "target": "cpu",
    "sides": ["stock", "fixes"],
    "stock_inject": ["input:planted-subf-as-addf"],
    "plugins": [str(PLANTED)],
    "flags": [],
    "max_ops": 8,
}
PLANTED_SEEDS = range(10, 11)  # a program of 5 ops, one of them a subtraction


def test_planted_bug_is_found_and_reduced(tmp_path):
    paths = campaign.open_campaign(tmp_path, PLANTED_CONFIG)
    plan = campaign.Plan(PLANTED_SEEDS, reduce_tests=20)
    stats = campaign.run(paths, PLANTED_CONFIG, plan, campaign.LocalEngine(1))
    assert stats["seeds"] == 1 and stats["reductions"] == 1
    results = {r["seed"]: r for r in store.read_jsonl(paths.results)}
    assert {s: o["outcome"] for s, o in results[10]["sides"].items()} == {"stock": "wrong", "fixes": "right"}
    (red,) = store.read_jsonl(paths.reductions)
    assert red["reproduced"] and red["signature"] == "wrong" and red["tests"] <= 20
    assert len(red["ops"]) <= 5 and "sub" in red["ops"], red["ops"]
    assert red["sides"]["fixes"]["outcome"] == "right"  # --fixes lacks the planted bug
    folder = paths.buckets / red["bucket"]
    for name in ("program.mlir", "program.json", "input0.npy", "expected0.npy", "commands.sh", "repro.mlir"):
        assert (folder / name).is_file(), name
    assert "arith.subf" in (folder / "program.mlir").read_text()
    assert "first differing dispatch" in (folder / "hunt.txt").read_text()
    assert (folder / "dispatch" / "dispatch.mlir").is_file()
    from opt_py.fuzz import report

    text = report.write(paths)
    assert f"`{red['bucket']}`" in text and "fixes 1/1 (reduced: right)" in text


# --------------------------------------------------------------------------
# Pure Python
# --------------------------------------------------------------------------


def _chain(n_ops: int) -> Program:
    return execute.generate({"kind": "linalg", "max_ops": n_ops}, 31)


def test_reducer_keeps_the_failing_op():
    """A stand-in compiler that fails on any program with a 'mul': reduced to that op alone."""
    program = _chain(8)
    assert "mul" in program.ops() and program.size() >= 3
    reference = linalg_ops.evaluate(program, program.input_data(), False)
    budget = reduce.Budget(60)
    small = reduce.reduce_program(program, reference, lambda p: "mul" in p.ops(), budget)
    assert small.ops() == ["mul"] and budget.used <= 60
    # the cut inputs hold the values the reference computed there: the mul sees the same numbers
    got = linalg_ops.evaluate(small, small.input_data(), False)[small.outputs[0]]
    assert np.array_equal(got, reference[small.outputs[0]])


def test_generation_is_reproducible():
    a, b = (execute.generate({"kind": "linalg", "max_ops": 8}, 5) for _ in range(2))
    assert a.dumps() == b.dumps()
    assert all(np.array_equal(x, y) for x, y in zip(a.input_data(), b.input_data()))
    assert linalg_ops.to_mlir(a) == linalg_ops.to_mlir(b)


def test_generated_programs_verify():
    from iree.compiler import ir

    for seed in range(12):
        text = linalg_ops.to_mlir(execute.generate({"kind": "linalg", "max_ops": 8}, seed))
        with ir.Context():
            ir.Module.parse(text).operation.verify()


def test_program_round_trips_through_json():
    p = _chain(6)
    ref = linalg_ops.evaluate(p, p.input_data(), True)
    cut = p.cut([p.nodes[0].id], ref)
    given = {i.id: i.data for i in cut.inputs if i.data is not None}
    back = Program.from_json(json.loads(cut.dumps()), given)
    assert back.dumps() == cut.dumps() and linalg_ops.to_mlir(back) == linalg_ops.to_mlir(cut)


def _one_output(values, dtype="f32"):
    from opt_py.fuzz.program import Input, Node, Value

    v = Value((len(values),), dtype)
    return Program("linalg", 0, [Input(0, v)], [Node(1, "neg", (0,), {}, v)], [1])


def test_judge_allows_rounding_and_no_more():
    p = _one_output([0, 0, 0])
    ref = {1: np.array([1.0, -2.0, 1e-3])}
    native = {1: np.array([1.0, -2.0, 1e-3], np.float32)}
    assert judge.judge(p, [np.array([1.0, -2.0, 1e-3], np.float32) * (1 + 1e-6)], ref, native).right
    wrong = judge.judge(p, [np.array([1.0, 2.0, 1e-3], np.float32)], ref, native)
    assert not wrong.right and "1/3 elements off" in wrong.measure and wrong.wrong_outputs == (0,)
    # where the dtype's own run is off, that error (times 8) is allowed
    loose = {1: np.array([1.01, -2.0, 1e-3])}
    assert judge.judge(p, [np.array([1.05, -2.0, 1e-3], np.float32)], ref, loose).right
    assert not judge.judge(p, [np.array([np.nan, -2.0, 1e-3], np.float32)], ref, native).right


def test_judge_integers_are_exact():
    p = _one_output([0, 0], "i32")
    ref = native = {1: np.array([3, 4], np.int32)}
    assert judge.judge(p, [np.array([3, 4], np.int32)], ref, native).right
    assert not judge.judge(p, [np.array([3, 5], np.int32)], ref, native).right


def test_signatures_group_the_same_failure():
    a = {"outcome": "compile-fail", "error": "a.mlir:3:4: error: 'tensor.dim' op failed on tensor<4x?xf32>"}
    b = {"outcome": "compile-fail", "error": "b.mlir:9:1: error: 'tensor.dim' op failed on tensor<7x?xf16>"}
    assert tasks.signature(a) == tasks.signature(b)
    assert tasks.signature({"outcome": "wrong", "error": "x"}) == "wrong"
    assert tasks.signature({"outcome": "crash", "error": "SIGSEGV in mlir::Foo::bar (pass Baz)"}).startswith("crash:")


LOGSUMEXP = """
func.func @main(%arg0: !torch.vtensor<[4,?],f32>) -> !torch.vtensor<[4],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.logsumexp %arg0, %0, %false : !torch.vtensor<[4,?],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[4],f32>
  return %1 : !torch.vtensor<[4],f32>
}
"""


def test_a_constant_the_frontend_cannot_finalize_is_bucketed_by_the_op_left(tmp_path):
    """IREE's frontend leaves logsumexp unlowered and its finalizing conversion then names whichever operand
    it meets first (a constant): the side's signature names the op left instead, so one missing lowering is
    one bucket; and --fixes' side is read after its start fixes, which lower it."""
    path = tmp_path / "program.mlir"
    path.write_text(LOGSUMEXP)
    with pytest.raises(OptPyError) as failed:
        execute.compile_side(str(path), {"target": "cpu"}, "stock")
    error = first_error(str(failed.value))
    assert execute.LEFT_BEHIND.search(error), error
    assert execute.left_unconverted(path, {"target": "cpu"}, "stock") == ["torch.aten.logsumexp"]
    assert execute.left_unconverted(path, {"target": "cpu"}, "fixes") == []
    side = {"outcome": "compile-fail", "error": error, "left": ["torch.aten.logsumexp"]}
    assert tasks.signature(side) == "compile-fail: torch ops left unconverted: torch.aten.logsumexp"
    assert "llvm/torch-mlir#4578" in known.match(tasks.signature(side), ["logsumexp"], "cpu")
    assert tasks.signature({**side, "left": []}).startswith("compile-fail: failed to legalize operation 'torch.")


def test_known_issues_match_their_signatures_only():
    stack = "compile-fail: 'memref.alloca' op expected no unbounded stack allocations"
    assert known.match(stack, ["argsort"], "cpu").startswith("iree-org/iree#24735")
    assert known.match(stack, ["cumsum"], "cpu") == "none found"  # a stack error of no sort is another bug
    f64 = "run-fail: running @main failed: ... buffer view byte length N exceeds backing buffer byte length N"
    assert known.match(f64, ["cumsum"], "cpu").startswith("iree-org/iree#24180")
    assert (
        known.match("compile-fail: failed to legalize operation 'torch.constant.int'", ["add"], "cpu") == "none found"
    )


def test_campaign_resumes_and_runs_each_seed_once(tmp_path, monkeypatch):
    """A stopped campaign's re-run skips the seeds recorded; a line cut short by a kill is ignored."""
    calls = []

    def fake_seed(config, seed):
        calls.append(seed)
        return {"seed": seed, "kind": "linalg", "ops": ["neg"], "sides": {"stock": {"outcome": "right"}}}

    monkeypatch.setattr(tasks, "run_seed", fake_seed)
    config = {**PLANTED_CONFIG, "sides": ["stock"], "stock_inject": [], "plugins": []}
    paths = campaign.open_campaign(tmp_path, config)
    campaign.run(paths, config, campaign.Plan(range(0, 3)), campaign.LocalEngine(2))
    with open(paths.results, "a") as f:
        f.write('{"seed": 3, "sid')  # killed mid-line
    campaign.run(paths, config, campaign.Plan(range(0, 6)), campaign.LocalEngine(2))
    assert sorted(calls) == [0, 1, 2, 3, 4, 5]
    assert sorted(r["seed"] for r in store.read_jsonl(paths.results)) == [0, 1, 2, 3, 4, 5]
    with pytest.raises(Exception, match="other settings"):
        campaign.open_campaign(tmp_path, {**config, "target": "cuda"})


def test_bad_arguments_are_usage_errors(tmp_path):
    env = {**os.environ, "OPT_PY_NO_SERVER": "1"}
    for args, why in (
        (["--seeds", "x"], "--seeds expects START:END"),
        (["--sides", "both"], "--sides takes stock and/or fixes"),
        (["--stock-inject", "nowhere:cse", "--kind", "linalg"], "unknown phase 'nowhere'"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "opt_py", "fuzz", "--out", str(tmp_path / "c"), *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
        assert proc.returncode == 2 and why in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_dask_cluster_runs_a_campaign(tmp_path):
    """Two Dask workers on this machine: every seed recorded once, by the driver, whichever worker ran it."""
    pytest.importorskip("distributed")
    config = {**PLANTED_CONFIG, "sides": ["stock"], "stock_inject": [], "plugins": []}
    paths = campaign.open_campaign(tmp_path, config)
    engine = campaign.DaskEngine("local:2")
    assert engine.workers == 2
    stats = campaign.run(paths, config, campaign.Plan(range(0, 2), reduce=False), engine)
    recs = store.read_jsonl(paths.results)
    assert stats["seeds"] == 2 and sorted(r["seed"] for r in recs) == [0, 1]
    assert all(r["sides"]["stock"]["outcome"] in ("right", "compile-fail", "wrong") for r in recs)


def test_torch_programs_export_and_judge(tmp_path):
    """A PyTorch program: exported with iree-turbine, compiled stock, right against eager float64."""
    pytest.importorskip("torch")
    pytest.importorskip("iree.turbine")
    config = {**PLANTED_CONFIG, "kind": "torch", "sides": ["stock"], "stock_inject": [], "plugins": []}
    rec = tasks.run_seed(config, 0)
    assert rec["kind"] == "torch" and rec["sides"]["stock"]["outcome"] == "right", rec

"""fold-collapse-shape-into-store, proven by numbers.

Random dispatches storing a collapse_shape into a binding (reshape_store.py)
are compiled with the pass injected at executable-sources, run through the
IREE runtime and compared with numpy. A fixed-seed sample runs here; the
benchmark (tools/bench_reshape_store.py) runs 500 and counts stock IREE's
failures beside opt-py's.
"""

import pytest

import reshape_store as rs

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


@pytest.mark.parametrize("seed", sorted(STOCK_WRONG))
def test_stock_fails_and_pass_fixes(seed):
    case = rs.random_case(seed)
    stock = rs.run(case, with_pass=False)
    assert stock.startswith(STOCK_WRONG[seed]), (
        f"stock IREE now gives '{stock}' on {case.describe()}: update STOCK_WRONG and the README")
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

    from opt_py import e2e

    case = rs.random_case(seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.mlir")
        with open(path, "w") as f:
            f.write(rs.program(case))
        assert e2e.compile_program(path, gpu_compile_target, inject=[f"executable-sources:{rs.PASS}"])


@pytest.mark.parametrize("seed", [1, 23, 52])
def test_runs_on_gpu(seed, run_target):
    if run_target.name == "cpu":
        pytest.skip("the CPU runs are the tests above")
    case = rs.random_case(seed)
    assert rs.run(case, with_pass=True, target_name=run_target.name) == "ok", case.describe()

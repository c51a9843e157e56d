"""opt-py compare --per-dispatch: the first wrong dispatch, by name, with a reproducer."""

import os
import re

import numpy as np
import pytest
from opt_py.tool.cli import main

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")
MATMUL_SUMEXP = os.path.join(HERE, "matmul_sumexp.mlir")  # dispatch 0: matmul, dispatch 1: sum of exp
ROUTER = os.path.join(HERE, "moe_router.mlir")  # make_moe_router.py


def compare(capsys, *argv):
    rc = main(["compare", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def first(out):
    m = re.search(r"^first (?:differing|wrong) dispatch: call (\d+) of \d+, (\S+)$", out, re.M)
    return (int(m.group(1)), m.group(2)) if m else None


@pytest.mark.parametrize(
    "match,call,name", [("matmul", 0, "main_dispatch_0_matmul_like_4x16x8_f32"), ("dispatch_1", 1, "main_dispatch_1_")]
)
def test_names_the_dispatch_an_injected_pass_miscompiles(capsys, match, call, name):
    rc, out, _ = compare(
        capsys,
        MATMUL_SUMEXP,
        "--function",
        "main",
        "--per-dispatch",
        f"--inject=executable-sources:test-addf-to-subf{{match={match}}}",
    )
    assert rc == 1, out
    assert first(out)[0] == call and first(out)[1].startswith(name), out
    assert "still differs between A and B: the reproducer reproduces" in out


def test_a_pass_that_changes_nothing_gives_exit_0(capsys):
    rc, out, _ = compare(
        capsys,
        MATMUL_SUMEXP,
        "--function",
        "main",
        "--per-dispatch",
        "--inject=executable-sources:test-addf-to-subf{match=no-such-function}",
    )
    assert rc == 0, out
    assert "every dispatch agrees" in out and first(out) is None


def test_one_correct_build_is_consistent(capsys):
    rc, out, _ = compare(capsys, MATMUL_SUMEXP, "--function", "main", "--per-dispatch")
    assert rc == 0, out
    assert "every value reaches its consumers unchanged" in out


def test_saved_reproducer_runs_again_and_differs(capsys, tmp_path):
    save = str(tmp_path / "repro")
    inject = "--inject=executable-sources:test-addf-to-subf{match=matmul}"
    rc, out, _ = compare(capsys, MATMUL_SUMEXP, "--function", "main", "--per-dispatch", inject, "--save", save)
    assert rc == 1
    assert sorted(os.listdir(save)) == ["dispatch.mlir", "expected0.npy", "input0.npy", "input1.npy", "observed0.npy"]
    x, w = np.load(os.path.join(save, "input0.npy")), np.load(os.path.join(save, "input1.npy"))
    np.testing.assert_allclose(np.load(os.path.join(save, "expected0.npy")), x @ w, rtol=1e-5, atol=1e-5)
    rerun = ["--function", "main", f"--input=@{save}/input0.npy", f"--input=@{save}/input1.npy"]
    rc, out, _ = compare(capsys, os.path.join(save, "dispatch.mlir"), *rerun, inject)
    assert rc == 1 and "DIFFERENT" in out
    rc, out, _ = compare(capsys, os.path.join(save, "dispatch.mlir"), *rerun)
    assert rc == 0, out


def _router_is_right(mask, weights) -> bool:
    """Top-1 routing needs no reference: one 1 per mask row, one weight in (0, 1] at the same place."""
    return bool(
        ((mask == 0) | (mask == 1)).all()
        and (mask.sum(1) == 1).all()
        and ((weights > 0) == (mask == 1)).all()
        and (weights <= 1).all()
    )


def test_single_build_localizes_the_moe_router_miscompile(capsys, tmp_path):
    from opt_py.execution import e2e

    tokens = np.random.default_rng(0).standard_normal((9, 12)).astype(np.float32)
    np.save(tmp_path / "tokens.npy", tokens)
    cpu = e2e.TARGETS["cpu"]
    assert not _router_is_right(*e2e.run_cli(e2e.compile_program(ROUTER, cpu), cpu, "main", [tokens], 2))
    rc, out, _ = compare(
        capsys,
        ROUTER,
        "--function",
        "main",
        "--per-dispatch",
        f"--input=@{tmp_path}/tokens.npy",
        "--save",
        str(tmp_path / "repro"),
    )
    assert rc == 1, out
    call, name = first(out)
    assert "scatter" in name, out
    assert "changed before it reached function result 0" in out
    # alone the scatter is right: the bug is where its result goes, not in its code
    assert "computes exactly its traced outputs" in out
    got = np.load(tmp_path / "repro" / "expected0.npy")
    assert ((got == 0) | (got == 1)).all() and (got.sum(1) == 1).all()  # the one-hot mask it produced


def test_errors_exit_2_without_traceback(capsys, tmp_path):
    rc, _, err = compare(capsys, MATMUL_SUMEXP, "--function", "main", "--save", str(tmp_path))
    assert rc == 2 and "--save and --a-target need --per-dispatch" in err
    rc, _, err = compare(capsys, MATMUL_SUMEXP, "--function", "nope", "--per-dispatch")
    assert rc == 2 and "nope" in err

"""The harness on small programs: with and without injected passes, through
both runners, against numpy; GPU devices when present, GPU compiles always."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from harness import Case, check
from opt_py.execution import e2e


def elementwise(shape: str, elem: str) -> str:
    add = "arith.addf" if elem.startswith("f") else "arith.addi"
    mul = "arith.mulf" if elem.startswith("f") else "arith.muli"
    t = f"tensor<{shape}x{elem}>"
    return f"""
func.func @add_mul(%a: {t}, %b: {t}) -> {t} {{
  %0 = {add} %a, %b : {t}
  %1 = {mul} %0, %b : {t}
  return %1 : {t}
}}
"""


def two(shape, dtype):
    def make(rng):
        if np.issubdtype(dtype, np.floating):
            return [rng.standard_normal(shape).astype(dtype), rng.standard_normal(shape).astype(dtype)]
        return [rng.integers(-100, 100, shape).astype(dtype), rng.integers(-100, 100, shape).astype(dtype)]

    return make


CASES = [
    Case(
        "static_f32",
        elementwise("4x16", "f32"),
        "add_mul",
        two((4, 16), np.float32),
        lambda a, b: [(a + b) * b],
        inject=("executable-sources:canonicalize,test-fold-addi-zero",),
    ),
    Case(
        "dynamic_f32",
        elementwise("?x16", "f32"),
        "add_mul",
        two((5, 16), np.float32),
        lambda a, b: [(a + b) * b],
        inject=("executable-sources:canonicalize",),
    ),
    Case(
        "static_f16",
        elementwise("32", "f16"),
        "add_mul",
        two((32,), np.float16),
        lambda a, b: [(a.astype(np.float32) + b) * b],
        inject=("global-optimization:cse",),
    ),
    Case(
        "dynamic_i32",
        elementwise("?", "i32"),
        "add_mul",
        two((9,), np.int32),
        lambda a, b: [(a + b) * b],
        inject=("executable-sources:test-fold-addi-zero",),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_identity_injections_match_numpy(case, run_target):
    outcome = check(case, run_target)
    assert not outcome.problems, "\n".join(outcome.problems)
    assert len(outcome.results) == 4  # 2 builds x 2 runners


def test_harness_sees_a_meaning_change(run_target):
    case = Case(
        "addf_to_subf",
        elementwise("8", "f32"),
        "add_mul",
        two((8,), np.float32),
        lambda a, b: [(a + b) * b],
        inject=("executable-sources:test-addf-to-subf",),
    )
    # Against the unchanged reference, only the injected build must differ...
    outcome = check(case, run_target)
    assert outcome.problems and all("[injected," in p for p in outcome.problems)
    # ...and against the reference of what the pass means, nothing does.
    outcome = check(
        case, run_target, reference_for=lambda build, a, b: [(a - b) * b if build == "injected" else (a + b) * b]
    )
    assert not outcome.problems, "\n".join(outcome.problems)


@pytest.mark.parametrize("case", CASES[:2], ids=[c.name for c in CASES[:2]])
def test_gpu_targets_compile(case, gpu_compile_target, tmp_path):
    path = tmp_path / "p.mlir"
    path.write_text(case.program)
    vmfb = e2e.compile_program(str(path), gpu_compile_target, inject=case.inject)
    assert len(vmfb) > 0


def test_absent_device_is_a_clear_error(tmp_path):
    import subprocess
    import sys

    from opt_py.execution.e2e import TARGETS, device_available

    missing = [t for t in ("cuda", "rocm") if not device_available(TARGETS[t])[0]]
    if not missing:
        pytest.skip("every GPU device is present here")
    path = tmp_path / "p.mlir"
    path.write_text(elementwise("4", "f32"))
    proc = subprocess.run(
        [sys.executable, "-m", "opt_py", "compare", str(path), "--function", "add_mul", "--target", missing[0]],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert f"cannot run on target '{missing[0]}'" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "inject, status, verdict",
    [
        ("executable-sources:canonicalize", 0, "same"),
        ("executable-sources:test-addf-to-subf", 1, "DIFFERENT"),
    ],
)
def test_compare_reports_differences(tmp_path, inject, status, verdict):
    import os

    plugin_site = str(
        Path(__file__).resolve().parents[1] / "plugins" / "site"
    )  # not via conftest: test/models has one too
    path = tmp_path / "p.mlir"
    path.write_text(elementwise("?x8", "f32"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "opt_py",
            "compare",
            str(path),
            "--function",
            "add_mul",
            "--inject",
            inject,
            "--dynamic-size",
            "3",
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=plugin_site),
    )
    assert proc.returncode == status, proc.stderr
    assert "inputs: 3x8xfloat32, 3x8xfloat32 (random, seed 0)" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == verdict
    if status:
        assert "| 0 | 3x8 | float32 |" in proc.stdout and "24/24 | DIFFERENT |" in proc.stdout


def test_compare_with_given_inputs(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "p.mlir"
    path.write_text(elementwise("4", "f32"))
    a = tmp_path / "a.npy"
    np.save(a, np.arange(4, dtype=np.float32))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "opt_py",
            "compare",
            str(path),
            "--function",
            "add_mul",
            "--inject",
            "executable-sources:cse",
            f"--input=@{a}",
            f"--input=@{a}",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "(given)" in proc.stdout


def test_compare_takes_scalar_arguments():
    """A function of i32 scalars (what a small example program takes) gets random scalars, passed as values."""
    program = Path(__file__).resolve().parents[2] / "examples" / "addi.mlir"
    proc = subprocess.run(
        [sys.executable, "-m", "opt_py", "compare", str(program), "--function", "add_zero"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "inputs: int32, int32 (random, seed 0)" in proc.stdout and "same" in proc.stdout

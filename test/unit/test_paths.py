"""The two execution paths give the same IR.

Without instrumentation, C++ runs get their own pass managers and Python
passes are called directly; with --mlir-timing (or IR printing, statistics)
one pass manager runs everything. A differential test over the lit inputs
and mixed pipelines.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "plugins" / "site"))
PIPELINES = [
    "canonicalize,test-fold-addi-zero,cse",
    "builtin.module(func.func(test-fold-addi-zero,canonicalize),test-walk-mul-to-add,cse)",
    "test-tag-func{label=x},affine-loop-invariant-code-motion,test-tag{count=3}",
    "hal.executable.variant(builtin.module(test-tag)),test-fold-addi-zero",
]
INPUTS = ["nesting.mlir", "debug-patterns.mlir", "timing-statistics.mlir", "print-flags.mlir"]


def opt_py(*args):
    return subprocess.run([sys.executable, "-m", "opt_py", *args], capture_output=True, text=True, env=ENV)


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("name", INPUTS)
def test_same_ir_with_and_without_instrumentation(name, pipeline):
    path = str(ROOT / "lit" / "tool" / name)
    plain = opt_py(path, "-p", pipeline)
    timed = opt_py(path, "-p", pipeline, "--mlir-timing")
    assert plain.returncode == timed.returncode == 0, plain.stderr + timed.stderr
    assert plain.stdout == timed.stdout

"""A Python pass whose output fails verification inside IREE's compile must
give a compile error, not a hang: the bindings' Operation.verify() holds the
GIL while MLIR verifies regions on worker threads, and a worker reporting the
error waits for the GIL. opt-py verifies with the context's threads off."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGIN_SITE = ROOT / "plugins" / "site"

# test-addf-to-subf turns the scatter's add region into a sub: IREE's verifier
# rejects it ("expected add/mul op in the body") on one of its threads.
CHILD = r"""
import sys
from opt_py import OptPyError
from opt_py.execution import e2e
for i in range(5):
    try:
        e2e.compile_program(sys.argv[1], e2e.TARGETS["cpu"], inject=("executable-sources:test-addf-to-subf",))
    except OptPyError as e:
        assert "expected add/mul op in the body" in str(e), str(e)
    else:
        raise SystemExit("compiled")
print("ok")
"""


def test_verification_error_in_injected_pass_does_not_hang():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PLUGIN_SITE), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT / "models" / "moe_router" / "model.mlir")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


# Modules nested in a module, each with functions the verifier rejects: the
# parser's verification reports from a worker of a worker, which waits for
# the GIL that Module.parse holds. Before opt-py parsed with the context's
# threads off, 8 of 10 runs from a file and 5 of 10 from stdin hung here, and
# 30 run_pipeline calls in one process hung (each test failed on a467734).
NESTED_INVALID = "".join(
    f"module @m{j} {{\n"
    + "".join(
        f"  func.func @f{i}() -> i32 {{\n    %c = arith.constant 1 : i64\n    return %c : i64\n  }}\n" for i in range(8)
    )
    + "}\n"
    for j in range(8)
)


def test_parse_time_verification_errors_do_not_hang(tmp_path):
    src = tmp_path / "nested.mlir"
    src.write_text(NESTED_INVALID)
    env = dict(os.environ, OPT_PY_NO_SERVER="1")
    for i in range(6):
        stdin = i % 2 == 1  # a file (parseFile) and stdin (parse)
        proc = subprocess.run(
            [sys.executable, "-m", "opt_py", "-" if stdin else str(src)],
            input=NESTED_INVALID if stdin else None,
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 1 and proc.stdout == "", proc.stderr
        assert "doesn't match function result type ('i32') in function @f0" in proc.stderr


RUN_PIPELINE_CHILD = r"""
import sys
from opt_py import PipelineFailed, run_pipeline
for _ in range(30):
    try:
        run_pipeline(TEXT, "builtin.module()")
    except PipelineFailed as e:
        assert "doesn't match function result type" in str(e), str(e)
    else:
        raise SystemExit("an invalid module passed")
print("ok")
"""


def test_run_pipeline_parse_errors_do_not_hang():
    child = f"TEXT = {NESTED_INVALID!r}\n" + RUN_PIPELINE_CHILD
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr

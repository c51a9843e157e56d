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
from opt_py.iree import e2e
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
    proc = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "models" / "moe_router" / "model.mlir")],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr

"""The opt-py command run in a subprocess with a server of its own (test_server, test_crash, test_cli_streams).

Each environment has its own XDG_RUNTIME_DIR, so a server started in it is its
own and ends with it; the server's log (OPT_PY_SERVER_LOG) says whether a run
was served warm.
"""

import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

OPT_PY = shutil.which("opt-py") or str(Path(sys.executable).parent / "opt-py")
# A pass that marks the file SLEEPY_MARK names when it starts, then sleeps: a run to signal mid-way.
SLEEPY_PLUGIN = """
import os, time
from opt_py import Pass

class Sleepy(Pass):
    name = "test-sleepy"
    anchor = "builtin.module"
    summary = "says it started, then sleeps"

    def run(self, op, ctx):
        open(os.environ["SLEEPY_MARK"], "w").close()
        time.sleep(60)
"""


def run_opt_py(args, env, **kw) -> subprocess.CompletedProcess:
    """``opt-py args`` in ``env``, its output and errors captured, whatever its exit status."""
    return subprocess.run([OPT_PY, *args], env=env, capture_output=True, check=False, **kw)


def sleeping_run(env, cwd: Path) -> subprocess.Popen:
    """``opt-py`` running the test-sleepy pass (SLEEPY_PLUGIN, written to ``cwd``/sleepy.py) on
    ``cwd``/in.mlir, its output and errors piped, once the pass has started (marking ``cwd``/mark;
    60 s at most): the run to send a signal to."""
    mark = cwd / "mark"
    mark.unlink(missing_ok=True)
    plugin = cwd / "sleepy.py"
    plugin.write_text(SLEEPY_PLUGIN)
    proc = subprocess.Popen(
        [OPT_PY, "--load-pass-plugin", str(plugin), "-p", "test-sleepy", "in.mlir"],
        env=dict(env, SLEEPY_MARK=str(mark)),
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.time() + 60
    while not mark.exists() and time.time() < deadline:
        time.sleep(0.05)
    return proc


def served_runs(env) -> int:
    """How many runs the server of ``env`` has taken (its log says so)."""
    log = Path(env["OPT_PY_SERVER_LOG"])
    return log.read_text().count("accepted a run") if log.exists() else 0


def wait_for_server(env, timeout=60) -> Path:
    """Start a server (a first run) and wait until it serves; its socket."""
    run_opt_py(["--help"], env)
    deadline = time.time() + timeout
    while time.time() < deadline:
        socks = list((Path(env["XDG_RUNTIME_DIR"]) / "opt-py").glob("*.sock"))
        if socks:
            before = served_runs(env)
            run_opt_py(["--help"], env)
            if served_runs(env) > before:
                return socks[0]
        time.sleep(0.2)
    raise AssertionError("no server came up")


@contextmanager
def own_server(tmp_path, mode: str | None = None, **extra):
    """The environment of runs with their own server under ``tmp_path``, and ``extra`` variables:
    the server on but not started (``mode`` None), started and serving ("served"), or off ("cold").
    On leaving, the server's socket is removed: a server exits when its socket is gone."""
    assert mode in (None, "served", "cold"), mode
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = dict(
        os.environ,
        XDG_RUNTIME_DIR=str(runtime),
        OPT_PY_SERVER_IDLE="60",
        OPT_PY_SERVER_LOG=str(tmp_path / "server.log"),
        **extra,
    )
    env.pop("OPT_PY_NO_SERVER", None)
    try:
        if mode == "cold":
            env["OPT_PY_NO_SERVER"] = "1"
        elif mode == "served":
            wait_for_server(env)
        yield env
    finally:
        for sock in (runtime / "opt-py").glob("*.sock") if (runtime / "opt-py").exists() else []:
            sock.unlink()

"""The opt-py command with its standard streams closed or gone, and numbers
spelled as LLVM's option parser would not read them: a clear error or
iree-opt's exit status, never a traceback or a hang; the same with the warm
server on and off (closed streams always run cold, by design)."""

import os
import signal
import subprocess

import pytest
from opt_py_process import OPT_PY, own_server, served_runs

SRC = "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n"


@pytest.fixture(params=["served", "cold"])
def env(request, tmp_path):
    with own_server(tmp_path, request.param) as env:
        (tmp_path / "in.mlir").write_text(SRC)
        yield env


def _shell(cmd, env, cwd):
    return subprocess.run(cmd, shell=True, env=env, cwd=cwd, capture_output=True, timeout=60, check=False)


@pytest.mark.parametrize("args", ["", "-"])
def test_closed_stdin_is_an_input_error(env, tmp_path, args):
    """As iree-opt: "cannot open input file '-'", exit 1. (With the server on,
    the client's socket took the closed fd 0 and the worker read its stdin
    from it: a hang.)"""
    res = _shell(f"exec {OPT_PY} {args} <&-", env, tmp_path)
    assert res.returncode == 1, res.stderr
    assert b"opt-py: error: cannot open input file '-': Bad file descriptor" in res.stderr
    assert b"Traceback" not in res.stderr


def test_closed_stdin_with_a_file_input_runs(env, tmp_path):
    res = _shell(f"exec {OPT_PY} in.mlir <&-", env, tmp_path)
    assert res.returncode == 0 and b"return %arg0" in res.stdout, res.stderr


def test_closed_stdout_is_an_output_error(env, tmp_path):
    res = _shell(f"exec {OPT_PY} in.mlir >&-", env, tmp_path)
    assert res.returncode == 1
    assert b"opt-py: error: cannot write output file '-': Bad file descriptor" in res.stderr
    assert b"Traceback" not in res.stderr


def test_a_reader_gone_early_kills_with_sigpipe(env, tmp_path):
    """``opt-py big.mlir | head -c1``: the output is lost, so not exit 0; as
    iree-opt, killed by SIGPIPE (141 in a shell). Python's buffered write
    straight to the pipe returned short without an error."""
    big = "".join(f"func.func @f{i}(%a: i32) -> i32 {{\n  return %a : i32\n}}\n" for i in range(5000))
    (tmp_path / "big.mlir").write_text(big)
    before = served_runs(env)
    proc = subprocess.Popen([OPT_PY, "big.mlir"], env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.read(1) == b"m"
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == -signal.SIGPIPE, err
    assert b"Traceback" not in err
    if "OPT_PY_NO_SERVER" not in env:
        assert served_runs(env) == before + 1


@pytest.mark.parametrize("value", ["١٢", "1_2", "１２"])
def test_integer_options_take_ascii_digits_only(env, tmp_path, value):
    """Python's int() reads other scripts' digits and '_'; LLVM's parser does not."""
    res = _shell(
        f"exec {OPT_PY} in.mlir -p 'fold-collapse-shape-into-generic{{max-iterations={value}}}'", env, tmp_path
    )
    assert res.returncode == 1 and not res.stdout
    assert f"option 'max-iterations' expects an integer, got '{value}'".encode() in res.stderr
    ok = _shell(f"exec {OPT_PY} in.mlir -p 'fold-collapse-shape-into-generic{{max-iterations=0x12}}'", env, tmp_path)
    assert ok.returncode == 0, ok.stderr


@pytest.mark.parametrize("argv", [["compile", "--list-fixes", "--iree-hal-target-device=cuda"], ["--list-passes"]])
def test_every_listing_dies_of_sigpipe_without_a_traceback(env, tmp_path, argv):
    """A subcommand's output to a reader that is gone (``opt-py compile --list-fixes | head -1``) ends as
    the mlir-opt job's does: killed by SIGPIPE, no traceback. The reader is closed before the run writes."""
    r, w = os.pipe()
    os.close(r)
    proc = subprocess.run([OPT_PY, *argv], env=env, cwd=tmp_path, stdout=w, stderr=subprocess.PIPE, timeout=120)
    os.close(w)
    assert proc.returncode == -signal.SIGPIPE, proc.stderr
    assert b"Traceback" not in proc.stderr

"""Input read once; ``-o`` all or nothing, never at the expense of the file system.

The input is read once, so a FIFO, ``/dev/stdin`` or a process substitution
works as a file does (reading it a second time would hang or see nothing).

A regular target is replaced atomically (a temp file renamed into place)
and keeps its mode; a special file (``/dev/null``, a FIFO) is written as it
is, never replaced, since renaming over ``/dev/null`` as root would turn the
machine's null device into a plain file; a symlink is written through; no
temp file survives a failure.
"""

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from opt_py.tool.output import write_output


def leftovers(directory):
    return [p for p in os.listdir(directory) if p.startswith(".opt-py-")]


def test_replaces_a_regular_file_keeping_its_mode(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("old")
    os.chmod(out, 0o640)
    assert write_output(str(out), b"new") == 0
    assert out.read_bytes() == b"new"
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o022)
    try:
        assert write_output(str(tmp_path / "new.mlir"), b"x") == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.mlir").stat().st_mode) == 0o644


def test_writes_through_a_symlink(tmp_path):
    real = tmp_path / "real.mlir"
    real.write_text("old")
    link = tmp_path / "link.mlir"
    link.symlink_to(real)
    assert write_output(str(link), b"new") == 0
    assert link.is_symlink() and real.read_bytes() == b"new"


def test_a_fifo_is_written_not_replaced(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    assert write_output(str(fifo), b"through the pipe") == 0
    reader.join(10)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_dev_null_stays_a_device():
    assert write_output("/dev/null", b"gone") == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("target", ["", "adir", "afile/below"])
def test_bad_targets_fail_cleanly(target, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("x")
    assert write_output(target, b"data") == 1
    assert "cannot write output file" in capsys.readouterr().err
    assert leftovers(tmp_path) == [] and leftovers(tmp_path.parent) == []
    assert (tmp_path / "afile").read_text() == "x"


def test_no_temp_file_survives_a_failed_rename(tmp_path, monkeypatch, capsys):
    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    assert write_output(str(tmp_path / "out.mlir"), b"data") == 1
    assert "No space left on device" in capsys.readouterr().err
    assert leftovers(tmp_path) == [] and not (tmp_path / "out.mlir").exists()


PROGRAM = """func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %x = arith.addi %a, %c0 : i32
  return %x : i32
}
"""


def opt_py(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "opt_py", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_dev_stdin_is_read_once():
    r = opt_py("-p", "canonicalize", "/dev/stdin", stdin=PROGRAM)
    assert r.returncode == 0, r.stderr
    assert "func.func @f" in r.stdout and "arith.addi" not in r.stdout


def test_fifo_input(tmp_path):
    fifo = tmp_path / "in.mlir"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: Path(fifo).write_text(PROGRAM))
    writer.start()
    r = opt_py("-p", "canonicalize", str(fifo))
    writer.join(10)
    assert r.returncode == 0, r.stderr
    assert "func.func @f" in r.stdout


def test_compile_reads_dev_stdin_once():
    r = opt_py(
        "compile",
        "/dev/stdin",
        "--compile-to=input",
        "-o",
        "-",
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
        stdin=PROGRAM,
    )
    assert r.returncode == 0, r.stderr
    assert "util.func public @f" in r.stdout


def test_compile_a_directory_is_a_clear_error(tmp_path):
    r = opt_py(
        "compile",
        str(tmp_path),
        "-o",
        str(tmp_path / "x.vmfb"),
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
    )
    assert r.returncode == 1
    assert "cannot open input file" in r.stderr and "Is a directory" in r.stderr
    assert "Traceback" not in r.stderr

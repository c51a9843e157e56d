"""The warm server's watch over the package's source (python/tool/codewatch.py)."""

import os
import time

import pytest
from opt_py.tool import codewatch
from opt_py.tool.codewatch import CodeWatch


@pytest.fixture(params=["inotify", "stamps"])
def watch_of(request, monkeypatch):
    if request.param == "stamps":

        def no_inotify(self):
            raise OSError("no inotify here")

        monkeypatch.setattr(CodeWatch, "_watch_with_inotify", no_inotify)

    def make(root):
        watch = CodeWatch(str(root))
        assert (watch.fd is not None) == (request.param == "inotify")
        return watch

    yield make


def tree(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("A = 1\n")
    (tmp_path / "pkg" / "sub" / "b.py").write_text("B = 1\n")
    return tmp_path / "pkg"


@pytest.mark.parametrize(
    "edit",
    [
        lambda root: (root / "a.py").write_text("A = 2\n"),
        lambda root: (root / "sub" / "b.py").write_text("B = 2\n"),
        lambda root: (root / "sub" / "c.py").write_text(""),
        lambda root: (root / "a.py").unlink(),
        lambda root: os.replace(root / "a.py", root / "sub" / "a.py"),
        lambda root: os.utime(root / "a.py", ns=(1, 1)),
    ],
    ids=["edit", "edit-below", "new-file", "removed", "moved", "touched"],
)
def test_a_change_to_a_source_file_is_seen(tmp_path, watch_of, edit):
    root = tree(tmp_path)
    watch = watch_of(root)
    assert not watch.changed()
    edit(root)
    assert watch.changed() and watch.changed()  # and stays seen
    watch.close()


def test_bytecode_and_other_files_are_not_changes(tmp_path, watch_of):
    root = tree(tmp_path)
    watch = watch_of(root)
    (root / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"x")
    (root / "sub" / "__pycache__").mkdir()
    (root / "notes.txt").write_text("x")
    (root / ".a.py.swp").write_text("x")
    assert not watch.changed()
    watch.close()


def test_a_new_folder_is_a_change(tmp_path):
    root = tree(tmp_path)
    watch = CodeWatch(str(root))
    (root / "newpkg").mkdir()
    assert watch.changed()
    watch.close()


def test_an_edit_before_the_watch_began_is_seen_by_its_time(tmp_path):
    root = tree(tmp_path)
    started = time.time_ns()

    class Module:
        __file__ = str(root / "a.py")

    watch = CodeWatch(str(root))
    os.utime(root / "a.py", ns=(started - 10**9, started - 10**9))
    assert not watch.newer_than([Module], started)
    os.utime(root / "a.py", ns=(started + 10**6, started + 10**6))
    assert watch.newer_than([Module], started)
    watch.close()


def test_relevant_events():
    assert codewatch.relevant(0x2, b"x.py")
    assert not codewatch.relevant(0x2, b"x.pyc")
    assert codewatch.relevant(0x100 | 0x40000000, b"newpkg")
    assert not codewatch.relevant(0x100 | 0x40000000, b"__pycache__")
    assert codewatch.relevant(0x4000, b"")  # the queue overflowed: anything may have changed

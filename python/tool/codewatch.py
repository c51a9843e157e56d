"""Whether the package's source files changed since the warm server loaded them.

The server's socket name does not cover the files' contents (stating every
file on every run would cost the client more than the rest of its key), so
the server watches them itself: with inotify on every folder of the package,
where the kernel offers it, else by comparing the files' sizes and
modification times on each request. A change to a ``.py`` file, a folder
created, removed or renamed, or a lost event makes the server stale: it
serves nothing more, and the client that asked runs cold and starts a fresh
server.
"""

from __future__ import annotations

import os
import struct

_IN_MODIFY, _IN_ATTRIB, _IN_CLOSE_WRITE = 0x2, 0x4, 0x8
_IN_MOVED_FROM, _IN_MOVED_TO, _IN_CREATE, _IN_DELETE = 0x40, 0x80, 0x100, 0x200
_IN_DELETE_SELF, _IN_MOVE_SELF, _IN_Q_OVERFLOW, _IN_IGNORED = 0x400, 0x800, 0x4000, 0x8000
_IN_ONLYDIR, _IN_ISDIR = 0x01000000, 0x40000000
_WATCHED = (
    _IN_MODIFY
    | _IN_ATTRIB
    | _IN_CLOSE_WRITE
    | _IN_MOVED_FROM
    | _IN_MOVED_TO
    | _IN_CREATE
    | _IN_DELETE
    | _IN_DELETE_SELF
    | _IN_MOVE_SELF
    | _IN_ONLYDIR
)
_LOST = _IN_Q_OVERFLOW | _IN_IGNORED | _IN_DELETE_SELF | _IN_MOVE_SELF
_CLOCK_SLACK_NS = 50_000_000  # file times come from a coarse clock: an edit may look older than it is
_EVENT = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)


def folders(root: str) -> list[str]:
    """``root`` and every folder below it but ``__pycache__``."""
    out, todo = [], [root]
    while todo:
        here = todo.pop()
        out.append(here)
        with os.scandir(here) as entries:
            todo += [e.path for e in entries if e.is_dir(follow_symlinks=False) and e.name != "__pycache__"]
    return out


def tree_stamp(root: str) -> list:
    """(path, mtime, size) of every ``.py`` file under ``root``."""
    out = []
    for folder in folders(root):
        with os.scandir(folder) as entries:
            for e in entries:
                if e.name.endswith(".py") and e.is_file(follow_symlinks=False):
                    st = e.stat(follow_symlinks=False)
                    out.append((e.path, st.st_mtime_ns, st.st_size))
    return sorted(out)


def relevant(mask: int, name: bytes) -> bool:
    """Whether an inotify event can change the code a run would import."""
    if mask & _LOST:
        return True
    if mask & _IN_ISDIR:
        return name != b"__pycache__" and bool(name)
    return name.endswith(b".py")


class CodeWatch:
    """``changed()`` is true once any source file under ``root`` may have changed since the watch began."""

    def __init__(self, root: str):
        self.root = root
        self.fd = None
        self._changed = False
        self._stamp = None
        try:
            self._watch_with_inotify()
        except OSError:
            self.close()
            self._stamp = tree_stamp(root)

    def _watch_with_inotify(self) -> None:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self.fd = fd
        for folder in folders(self.root):
            if libc.inotify_add_watch(fd, os.fsencode(folder), _WATCHED) < 0:
                raise OSError(ctypes.get_errno(), f"inotify_add_watch {folder}")

    def changed(self) -> bool:
        """Whether anything changed; reads every event queued so far (never blocks)."""
        if self._changed:
            return True
        if self.fd is None:
            self._changed = tree_stamp(self.root) != self._stamp
            return self._changed
        while not self._changed:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            if not data:
                break
            self._changed = any(relevant(mask, name) for mask, name in _events(data))
        return self._changed

    def newer_than(self, modules, since_ns: int) -> bool:
        """Whether a loaded module's file was modified after ``since_ns``, or
        about then: the edits made between its import and the start of the watch."""
        for module in list(modules):
            path = getattr(module, "__file__", None)
            if not path or not path.startswith(self.root + os.sep):
                continue
            try:
                if os.stat(path).st_mtime_ns >= since_ns - _CLOCK_SLACK_NS:
                    return True
            except OSError:
                return True
        return False

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _events(data: bytes):
    pos = 0
    while pos + _EVENT.size <= len(data):
        _wd, mask, _cookie, length = _EVENT.unpack_from(data, pos)
        start = pos + _EVENT.size
        yield mask, data[start : start + length].rstrip(b"\0")
        pos = start + length

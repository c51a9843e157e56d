"""A warm server's forked run: a worker forked ahead of its request becomes the client's process for one run.

While it waits it copies the pages a run would otherwise copy on its first
write to each (``MADV_POPULATE_WRITE`` over the heap and the small writable
mappings): after a fork every first write to a page is a fault and a copy.
Nothing is written, so its state stays the server's, and it stops as soon
as its request is there. It then takes the client's descriptors, working
directory, environment, umask and argv, runs ``cli.main`` as the interpreter
would run the command, and reports its exit status itself, with its standard
streams already closed, before the process is torn down: neither the client
nor a pipe's reader waits for the unmapping.
"""

from __future__ import annotations

import os
import sys

from .client import PROTOCOL, finish, flush_std_streams, record_progress

_MADV_POPULATE_WRITE = 23  # Linux 5.14
_PREFAULT_LIMIT = 4 << 20  # writable mappings above this (except the heap) are mostly untouched reservations


def fork_spare(close: list[int], log) -> tuple | None:
    """A worker forked ahead of its request: (pid, pidfd, channel), or None.

    The server hands it a connection over ``channel``; ``close`` are the
    server's files, which the worker must not keep.
    """
    import socket

    try:
        channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError:
        return None
    pid = os.fork()
    if pid == 0:
        channel.close()
        _spare(theirs, close)  # never returns
    theirs.close()
    log(f"forked spare {pid}")
    try:
        return pid, os.pidfd_open(pid), channel
    except OSError:
        end_spare((pid, None, channel))
        return None


def end_spare(spare: tuple) -> None:
    import signal

    pid, pidfd, channel = spare
    channel.close()
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
    if pidfd is not None:
        os.close(pidfd)


def hand_over(spare: tuple, conn) -> None:
    """Give the client's connection to the spare (raises OSError if it is gone)."""
    import socket

    fd = conn.fileno().to_bytes(4, sys.byteorder, signed=True)
    spare[2].sendmsg([b"C"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fd)])


def _spare(channel, close: list[int]) -> None:
    for fd in close:
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        _prefault(channel)
        conn = _take_connection(channel)
    except BaseException:  # noqa: BLE001 - the server is gone, or sent nothing usable
        os._exit(0)
    _worker(conn)


def _take_connection(channel):
    import socket

    _, anc, _, _ = channel.recvmsg(1, socket.CMSG_SPACE(4))
    fds = [
        int.from_bytes(data[:4], sys.byteorder, signed=True)
        for level, kind, data in anc
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS and len(data) >= 4
    ]
    if not fds:
        raise EOFError("no connection")
    channel.close()
    return socket.socket(fileno=fds[0])


def _writable_ranges() -> list[tuple[int, int]]:
    """The heap and the small private writable mappings of this process."""
    ranges = []
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split()
            lo, hi = (int(x, 16) for x in fields[0].split("-"))
            name = fields[5] if len(fields) > 5 else ""
            if fields[1] == "rw-p" and (name == "[heap]" or (hi - lo <= _PREFAULT_LIMIT and not name.startswith("["))):
                ranges.append((lo, hi))
    return ranges


def _prefault(channel) -> None:
    """Copy the server's written pages into this process now, not at first write.

    Stops at the first sign of a request (or of the server's end) on
    ``channel``, and quietly where the kernel cannot do it.
    """
    import ctypes
    import select

    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    step = 1 << 20
    for lo, hi in _writable_ranges():
        for start in range(lo, hi, step):
            if select.select([channel], [], [], 0)[0]:
                return
            if madvise(start, min(hi, start + step) - start, _MADV_POPULATE_WRITE) != 0:
                if ctypes.get_errno() == 22:  # EINVAL: an older kernel
                    return


def _receive(conn):
    """The client's request: (descriptors, argv[0], args, environment, umask)."""
    import marshal
    import socket

    conn.settimeout(30)
    fds: list[int] = []
    head, anc, _flags, _ = conn.recvmsg(8, socket.CMSG_SPACE(4 * 4))
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds += [int.from_bytes(data[i : i + 4], sys.byteorder, signed=True) for i in range(0, len(data) - 3, 4)]
    size = int.from_bytes(head, "little") if len(head) == 8 else -1
    body = bytearray()
    while 0 <= len(body) < size:
        chunk = conn.recv(min(1 << 20, size - len(body)))
        if not chunk:
            break
        body += chunk
    if len(body) != size or len(fds) != 4:
        raise ValueError("incomplete request")
    protocol, argv0, args, env, umask = marshal.loads(bytes(body))
    if protocol != PROTOCOL:
        raise ValueError("protocol mismatch")
    return fds, argv0, args, env, umask


def _become_the_client(conn) -> tuple[str, list[str]]:
    """Take the client's descriptors, directory, umask and environment; (argv[0], args)."""
    fds, argv0, args, env, umask = _receive(conn)
    os.fchdir(fds[3])
    for target, fd in enumerate(fds[:3]):
        os.dup2(fd, target)
    for fd in set(fds):
        if fd > 2:
            os.close(fd)
    os.umask(umask)
    os.environb.clear()
    os.environb.update(env)
    conn.sendall(b"P%d\n" % os.getpid())
    return argv0, args


def _worker(conn) -> None:
    """In the forked child: become the client's process, run ``main``, exit."""
    import signal

    signal.signal(signal.SIGINT, signal.default_int_handler)
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(s, signal.SIG_DFL)
    try:
        argv0, args = _become_the_client(conn)
    except BaseException:  # noqa: BLE001 - a bad request: nothing ran, the client hears exit 1
        os._exit(1)
    rc = _run_as_main(argv0, args)
    for fd in (0, 1, 2):  # a pipe's reader sees its end now, not after the teardown
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        conn.sendall(b"X%d\n" % rc)
    except OSError:
        pass
    os._exit(rc)


def _std_streams() -> None:
    """sys.stdin/stdout/stderr as Python would make them for these fds."""
    import io

    for name, fd, mode in (("stdin", 0, "rb"), ("stdout", 1, "wb"), ("stderr", 2, "wb")):
        old = getattr(sys, "__" + name + "__")
        tty = os.isatty(fd)
        raw = io.FileIO(fd, mode, closefd=False)
        buffered = (io.BufferedReader if mode == "rb" else io.BufferedWriter)(raw)
        stream = io.TextIOWrapper(
            buffered,
            encoding=old.encoding,
            errors=old.errors,
            newline="\n",
            line_buffering=mode == "wb" and (tty or fd == 2),
        )
        setattr(sys, name, stream)
        setattr(sys, "__" + name + "__", stream)


def _run_as_main(argv0: str, args: list[str]) -> int:
    """``opt-py ARGS`` as the interpreter would run it, to the exit status."""
    import importlib
    import signal

    importlib.invalidate_caches()  # files created since the server's imports are seen
    import tempfile

    tempfile.tempdir = None  # TMPDIR is the client's
    _std_streams()
    sys.argv = [argv0, *args]
    record_progress()
    from . import cli

    try:
        rc = cli.main(list(args))
    except SystemExit as e:
        rc = e.code
    except KeyboardInterrupt:
        import traceback

        traceback.print_exc()
        flush_std_streams()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        rc = 130
    except BaseException:  # noqa: BLE001 - as the interpreter reports an uncaught exception
        sys.excepthook(*sys.exc_info())
        rc = 1
    return finish(rc)

"""The warm server: ``opt-py`` runs served by a process that has the bindings loaded.

Why. A cold ``opt-py`` spends most of its time before reading any IR: the
Python start-up, importing the MLIR bindings (a 100 MB shared library and
its dialect registrations) and opt-py itself. The native ``iree-opt`` pays
none of that. Every lit RUN line pays it. Bazel's and Gradle's servers and
Mercurial's ``chg`` answer the same problem the same way: a small client
hands the command to a process that stays warm.

How. The first ``opt-py`` finds no server, runs cold, and starts one in the
background (``client.py``). The server imports the bindings and opt-py's
modules once, then listens on a Unix socket. Each request gets a worker
forked from that warm state: the worker receives the client's stdin,
stdout, stderr and working directory as file descriptors (SCM_RIGHTS), its
argv, environment and umask, and runs the ordinary ``cli.main`` on them.
A fork per request rather than one long-lived interpreter, because a run
changes process state: plugins register passes and import modules, MLIR
loads dialects into contexts, caches fill, signal handlers move. A forked
worker starts from the same clean warm state every time and all of that
ends with it, so a run served warm sees what a cold run sees.

The worker is forked before its request comes (a spare, one at a time, forked
once no run is running: forking and copying beside a run took ~5 ms from it on
two cores; a request that finds no spare gets a worker forked for it), and
while it waits it copies the pages a run would otherwise copy on its first
write to them (``MADV_POPULATE_WRITE`` over the malloc heap and the small
writable mappings, about 30 MB): after a fork every first write to a page
is a fault and a copy, about 2,000 of them in a one-function run, which
doubled that run's time. Nothing is written, so the spare's state is the
server's; it stops copying as soon as its request is there. The worker
reports its exit status itself, with its standard streams already closed,
before the process is torn down, so neither the client nor a pipe's reader
waits for the unmapping.

What makes it invisible. The output goes straight to the client's own file
descriptors, so files, pipes, terminals and ``/dev/stdout`` behave as they
would. The exit status comes back from ``waitpid`` in the server: a worker
killed by a signal makes the client raise the same signal. SIGINT, SIGTERM,
SIGHUP and SIGQUIT at the client are forwarded to the worker; a client that
dies (SIGKILL) takes its worker with it (the server watches both pids).
Whatever Python or the bindings read only at start-up (``sys.path`` and
PYTHONPATH, interpreter flags, locale, resource limits) is part of the
socket's name, with the modification times of opt-py's and the bindings'
files: another checkout, Python, environment or an edited file gets another
server, and a stale one exits when idle. A worker is only forked while the
server has a single thread (MLIR creates its thread pool lazily; numpy's
BLAS pool is held to one thread while it is imported), so no lock held by a
thread that does not exist in the child can be inherited. Runs the server
cannot represent (an interpreter started with options, a closed standard
stream) run cold, as do all runs with ``OPT_PY_NO_SERVER=1``.

Who may use it. A worker runs code on a client's behalf, so only the
user who started it may connect: the socket is a filesystem ``AF_UNIX``
socket (never a network address, never the abstract namespace, which has no
permissions) in a directory that is this user's and mode 0700
(``$XDG_RUNTIME_DIR/opt-py``, else ``/tmp/opt-py-<uid>``); each connection's
peer uid is checked with ``SO_PEERCRED`` and any other is refused; the
client checks the server's uid the same way. A socket that is stale (no one
listening), not a socket, or not this user's is replaced, never used.

Lifetime. One server per socket name (a lock file beside it); it exits
after ``OPT_PY_SERVER_IDLE`` seconds (default 300) without a request, or as
soon as its socket file is removed or replaced.
"""

from __future__ import annotations

import os
import sys
import time

from .client import _flush, _private_dir, finish, peer_pid, peer_uid

DEFAULT_IDLE_S = 300.0


def _log(line: str) -> None:
    path = os.environ.get("OPT_PY_SERVER_LOG")
    if path:
        with open(path, "a") as f:
            f.write(f"{os.getpid()} {line}\n")


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


# Dialects whose ops a pass over IREE's phases or codegen sees (``--fixes``
# wraps hal, flow and util ops at every phase): ~70 ms of module imports a
# warm run would otherwise pay.
_PIPELINE_DIALECTS = (
    "builtin",
    "func",
    "arith",
    "math",
    "cf",
    "scf",
    "affine",
    "tensor",
    "memref",
    "vector",
    "gpu",
    "hal",
    "flow",
    "stream",
    "util",
    "iree_tensor_ext",
    "iree_codegen",
    "iree_gpu",
)


def preload() -> None:
    """Import what runs need, keeping this process single-threaded."""
    import importlib

    from ..run.bindings import import_bindings_lean, stub_missing_dialect_modules

    import_bindings_lean()
    stub_missing_dialect_modules()
    saved = {k: os.environ.get(k) for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    os.environ.update({k: "1" for k in saved})  # numpy's BLAS reads these once, when loaded
    try:
        from ..pipeline import registry

        for target in registry.BUILTIN_PASSES.values():
            importlib.import_module("opt_py.passes." + target.partition(":")[0])
        for name in (
            "opt_py.tool.cli",
            "opt_py.tool.opt",
            "opt_py.tool.output",
            "opt_py.tool.verify",
            "opt_py.run.engine",
            "opt_py.run.rewrite_driver",
            "opt_py.pipeline.plan",
            "opt_py.pipeline.anchors",
            "iree.compiler.passmanager",
            "iree.compiler.rewrite",
            # opt-py compile (--fixes): the compiler API and the IREE layer
            "iree.compiler.api",
            "opt_py.iree.phases",
            "opt_py.iree.fixes",
            "opt_py.iree.codegen",
            "iree.compiler.tools.binaries",
            "shlex",
            "argparse",
            "gettext",
        ):
            importlib.import_module(name)
        for ns in _PIPELINE_DIALECTS:  # the bindings import a dialect's module when they first wrap one of its ops
            importlib.import_module("iree.compiler.dialects." + ns)
        from ..run.bindings import prepare_warm_context
        from .cli import opt_parser

        prepare_warm_context()
        opt_parser().parse_args(["-p", "canonicalize", "-o", "-", "-"])  # also fills re's cache for argparse
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def main(path: str) -> None:
    os.closerange(3, 1 << 16)  # nothing inherited from the client that started us (a pipe lit waits on)
    os.chdir("/")
    os.umask(0o077)
    directory = os.path.dirname(path)
    if not _ensure_private_dir(directory):
        return
    import fcntl
    import socket

    lock = os.open(path[: -len(".sock")] + ".lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return  # another server has this name
    try:
        idle = float(os.environ.get("OPT_PY_SERVER_IDLE", DEFAULT_IDLE_S))
    except ValueError:
        idle = DEFAULT_IDLE_S
    preload()
    import gc

    gc.freeze()  # the collector leaves the warm objects alone: fewer pages copied after each fork
    if _threads() != 1:
        _log(f"not serving: {_threads()} threads after preloading; forking would be unsafe")
        return
    try:
        os.unlink(path)  # stale, or not a socket: we hold the lock, so no live server owns it
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(128)
    inode = os.stat(path).st_ino
    _log(f"serving {path}")
    try:
        _serve(listener, lock, path, inode, idle)
    finally:
        try:
            if os.stat(path).st_ino == inode:
                os.unlink(path)
        except OSError:
            pass
        _log("exit")


def _ensure_private_dir(directory: str) -> bool:
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    if _private_dir(directory, strict=False) and not _private_dir(directory):
        try:
            os.chmod(directory, 0o700)
        except OSError:
            return False
    return _private_dir(directory)


def _serve(listener, lock: int, path: str, inode: int, idle: float) -> None:
    import selectors
    import signal

    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, ("accept", None))
    workers: dict[int, tuple] = {}  # worker pid -> (connection, worker pidfd, client pidfd)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    server_fds = [listener.fileno(), sel.fileno(), lock]
    spare = [_fork_spare(_held_fds(server_fds, workers))]
    try:
        _loop(listener, sel, workers, spare, server_fds, path, inode, idle)
    finally:
        if spare[0] is not None:
            _end_spare(spare[0])


def _held_fds(server_fds: list[int], workers: dict, *more: int) -> list[int]:
    """What a forked worker must not keep: the server's and other runs' files."""
    return server_fds + [fd for c, wfd, cfd in workers.values() for fd in (c.fileno(), wfd, cfd)] + list(more)


def _loop(listener, sel, workers, spare, server_fds, path, inode, idle) -> None:
    import signal

    last = time.monotonic()
    while True:
        wait = 30.0 if workers else max(0.0, min(30.0, idle - (time.monotonic() - last)))
        for key, _ in sel.select(timeout=wait):
            kind, pid = key.data
            if kind == "accept":
                _accept(listener, sel, workers, spare, server_fds)
            elif kind == "worker":
                conn, wfd, cfd = workers.pop(pid)
                _, status = os.waitpid(pid, 0)
                sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
                reply = b"S%d\n" % sig if sig else b"X%d\n" % os.WEXITSTATUS(status)
                try:
                    conn.sendall(reply)  # the worker has usually said so itself: then nobody reads this
                except OSError:
                    pass
                for fd in (wfd, cfd):
                    sel.unregister(fd)
                    os.close(fd)
                conn.close()
                if not workers and spare[0] is None:
                    spare[0] = _fork_spare(_held_fds(server_fds, workers))  # the next run's, now that none runs
            elif kind == "client":  # the client died before its worker: so does the worker
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            last = time.monotonic()
        try:
            if os.stat(path).st_ino != inode:
                return  # replaced by another server
        except OSError:
            return  # removed
        if not workers and time.monotonic() - last >= idle:
            return


def _fork_spare(close: list[int]) -> tuple | None:
    """A worker forked ahead of its request: (pid, pidfd, channel), or None.

    The server hands it a connection over ``channel``; meanwhile it copies
    the pages a run would copy on first write (see the module docstring).
    """
    import socket

    try:
        channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError:
        return None
    pid = os.fork()
    if pid == 0:
        channel.close()
        for fd in close:
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            _prefault(theirs)
            conn = _take_connection(theirs)
        except BaseException:  # noqa: BLE001 - the server is gone, or sent nothing usable
            os._exit(0)
        _worker(conn)  # never returns
    theirs.close()
    _log(f"forked spare {pid}")
    try:
        return pid, os.pidfd_open(pid), channel
    except OSError:
        _end_spare((pid, None, channel))
        return None


def _end_spare(spare: tuple) -> None:
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


_MADV_POPULATE_WRITE = 23  # Linux 5.14
_PREFAULT_LIMIT = 4 << 20  # writable mappings above this (except the heap) are mostly untouched reservations


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
    with open("/proc/self/maps") as f:
        ranges = []
        for line in f:
            fields = line.split()
            lo, hi = (int(x, 16) for x in fields[0].split("-"))
            name = fields[5] if len(fields) > 5 else ""
            if fields[1] == "rw-p" and (name == "[heap]" or (hi - lo <= _PREFAULT_LIMIT and not name.startswith("["))):
                ranges.append((lo, hi))
    step = 1 << 20
    for lo, hi in ranges:
        for start in range(lo, hi, step):
            if select.select([channel], [], [], 0)[0]:
                return
            if madvise(start, min(hi, start + step) - start, _MADV_POPULATE_WRITE) != 0:
                if ctypes.get_errno() == 22:  # EINVAL: an older kernel
                    return


def _accept(listener, sel, workers, spare: list, server_fds: list[int]) -> None:
    import selectors
    import socket

    try:
        conn, _ = listener.accept()
    except OSError:
        return
    try:
        if peer_uid(conn) != os.getuid():
            _log("refused a connection from another user")
            conn.close()
            return
        client = os.pidfd_open(peer_pid(conn))
    except OSError:
        conn.close()
        return
    _log("accepted a run")
    worker = None
    for _ in range(2):  # a spare that died unused is replaced once
        if spare[0] is None:
            spare[0] = _fork_spare(_held_fds(server_fds, workers, conn.fileno(), client))
        if spare[0] is None:
            break
        try:
            spare[0][2].sendmsg(
                [b"C"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, conn.fileno().to_bytes(4, sys.byteorder, signed=True))]
            )
            worker, spare[0] = spare[0], None
            break
        except OSError:
            _end_spare(spare[0])
            spare[0] = None
    if worker is None:
        conn.close()
        os.close(client)
        return
    pid, wfd, channel = worker
    _log(f"spare {pid} took the run")
    channel.close()
    workers[pid] = (conn, wfd, client)
    sel.register(wfd, selectors.EVENT_READ, ("worker", pid))
    sel.register(client, selectors.EVENT_READ, ("client", pid))


def _receive(conn):
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
    from .client import PROTOCOL

    if protocol != PROTOCOL:
        raise ValueError("protocol mismatch")
    return fds, argv0, args, env, umask


def _worker(conn) -> None:
    """In the forked child: become the client's process, run ``main``, exit."""
    import signal

    signal.signal(signal.SIGINT, signal.default_int_handler)
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(s, signal.SIG_DFL)
    try:
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
    from . import cli

    try:
        rc = cli.main(list(args))
    except SystemExit as e:
        rc = e.code
    except KeyboardInterrupt:
        import traceback

        traceback.print_exc()
        _flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        rc = 130
    except BaseException:  # noqa: BLE001 - as the interpreter reports an uncaught exception
        sys.excepthook(*sys.exc_info())
        rc = 1
    return finish(rc)

"""The warm server: ``opt-py`` runs forked from a process that has the bindings loaded.

A cold run spends most of its time before it reads any IR: starting Python,
importing the MLIR bindings and opt-py. The first run starts this server in
the background (``client.py``); it imports all that once, listens on a Unix
socket and serves each request with a worker forked from that warm state
(``forked_run.py``). Whatever a run changes (plugins, dialects, caches, signal
handlers) ends with its worker, so each run sees what a cold run sees: its
output goes to the client's own descriptors, its exit status or killing
signal comes back, signals at the client are forwarded, and a client that
dies takes its worker along. Workers are forked only while the server has a
single thread, so no lock of a thread missing in the child is inherited.

Only its user may use it: a filesystem ``AF_UNIX`` socket (never a network
address, never the abstract namespace) in a directory of the user's with
mode 0700, and each connection's peer uid checked with ``SO_PEERCRED``, both
ways. One server per socket name (a lock file beside it); it leaves after
``OPT_PY_SERVER_IDLE`` seconds idle (default 300), when its socket file is
removed or replaced, or when the package's source changes (``codewatch.py``).
"""

from __future__ import annotations

import os
import sys
import time

from .client import package_dir, peer_pid, peer_uid, private_dir
from .codewatch import CodeWatch
from .forked_run import end_spare, fork_spare, hand_over

DEFAULT_IDLE_S = 300.0
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_WARM_MODULES = (
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
)
# Dialects whose ops a pass over IREE's phases or codegen sees (``--fixes``
# wraps hal, flow and util ops at every phase): the bindings import a
# dialect's module when they first wrap one of its ops.
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


def log(line: str) -> None:
    path = os.environ.get("OPT_PY_SERVER_LOG")
    if path:
        with open(path, "a") as f:
            f.write(f"{os.getpid()} {line}\n")


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def preload() -> None:
    """Import what runs need, keeping this process single-threaded."""
    import importlib

    from ..run.bindings import import_bindings_lean, stub_missing_dialect_modules

    import_bindings_lean()
    stub_missing_dialect_modules()
    saved = {k: os.environ.get(k) for k in _BLAS_THREADS}
    os.environ.update({k: "1" for k in saved})  # numpy's BLAS reads these once, when loaded
    try:
        from ..pipeline import registry

        for module in registry.BUILTIN_PASSES.values():
            importlib.import_module("opt_py.passes." + module)
        for name in _WARM_MODULES:
            importlib.import_module(name)
        for ns in _PIPELINE_DIALECTS:
            importlib.import_module("iree.compiler.dialects." + ns)
        from ..pipeline.cpp import probe_context
        from ..run.bindings import prepare_warm_context
        from .cli import opt_parser

        prepare_warm_context()
        probe_context()
        opt_parser().parse_args(["-p", "canonicalize", "-o", "-", "-"])  # also fills re's cache for argparse
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def main(path: str, started_ns: int | None = None) -> None:
    """Serve on ``path`` until idle, replaced or stale. ``started_ns``: when
    this process started, before it imported any of the package."""
    os.closerange(3, 1 << 16)  # nothing inherited from the client that started us (a pipe lit waits on)
    os.chdir("/")
    os.umask(0o077)
    if not _ensure_private_dir(os.path.dirname(path)):
        return
    lock = _lock(path)
    if lock is None:
        return  # another server has this name
    imported = list(sys.modules.values())
    watch = CodeWatch(package_dir())
    if started_ns is not None and watch.newer_than(imported, started_ns):
        log("not serving: the package changed while this server started")
        return
    preload()
    import gc

    gc.freeze()  # the collector leaves the warm objects alone: fewer pages copied after each fork
    if _threads() != 1:
        log(f"not serving: {_threads()} threads after preloading; forking would be unsafe")
        return
    Server(path, lock, watch, _idle_seconds()).run()


def _ensure_private_dir(directory: str) -> bool:
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    if private_dir(directory, strict=False) and not private_dir(directory):
        try:
            os.chmod(directory, 0o700)
        except OSError:
            return False
    return private_dir(directory)


def _lock(path: str) -> int | None:
    import fcntl

    lock = os.open(path[: -len(".sock")] + ".lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock)
        return None
    return lock


def _idle_seconds() -> float:
    try:
        return float(os.environ.get("OPT_PY_SERVER_IDLE", DEFAULT_IDLE_S))
    except ValueError:
        return DEFAULT_IDLE_S


class Server:
    """The listening socket, the running workers and the spare, and the loop serving them."""

    def __init__(self, path: str, lock: int, watch: CodeWatch, idle: float):
        import selectors
        import socket

        self.path, self.lock, self.watch, self.idle = path, lock, watch, idle
        try:
            os.unlink(path)  # stale, or not a socket: we hold the lock, so no live server owns it
        except FileNotFoundError:
            pass
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(128)
        self.inode = os.stat(path).st_ino
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.listener, selectors.EVENT_READ, ("accept", None))
        if watch.fd is not None:
            self.sel.register(watch.fd, selectors.EVENT_READ, ("watch", None))
        self.workers: dict[int, tuple] = {}  # worker pid -> (connection, worker pidfd, client pidfd)
        self.spare = None
        self.serving = True

    def run(self) -> None:
        import signal

        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        log(f"serving {self.path}")
        self.spare = self._fork_spare()
        try:
            self._loop()
        finally:
            self._vacate()
            log("exit")

    def _held_fds(self, *more: int) -> list[int]:
        """What a forked worker must not keep: the server's and other runs' files."""
        mine = [self.listener.fileno(), self.sel.fileno(), self.lock, self.watch.fd]
        runs = [fd for c, wfd, cfd in self.workers.values() for fd in (c.fileno(), wfd, cfd)]
        return [fd for fd in mine + runs + list(more) if fd is not None and fd >= 0]

    def _fork_spare(self, *more: int):
        return fork_spare(self._held_fds(*more), log)

    def _loop(self) -> None:
        last = time.monotonic()
        while self.serving or self.workers:
            wait = 30.0 if self.workers else max(0.0, min(30.0, self.idle - (time.monotonic() - last)))
            for key, _ in self.sel.select(timeout=wait):
                kind, pid = key.data
                if kind == "accept":
                    self._accept()
                elif kind == "worker":
                    self._reap(pid)
                elif kind == "client":  # the client died before its worker: so does the worker
                    _kill(pid)
                elif kind == "watch" and self.watch.changed():
                    self._vacate()
                last = time.monotonic()
            if self.serving and not self._still_named():
                self._vacate()
            if not self.workers and time.monotonic() - last >= self.idle:
                return

    def _still_named(self) -> bool:
        try:
            return os.stat(self.path).st_ino == self.inode
        except OSError:
            return False  # removed

    def _vacate(self) -> None:
        """Serve no more: free the socket's name and the lock for a fresh server; running workers go on."""
        if not self.serving:
            return
        self.serving = False
        if self._still_named():
            try:
                os.unlink(self.path)
            except OSError:
                pass
        self.sel.unregister(self.listener)
        self.listener.close()
        if self.watch.fd is not None:
            self.sel.unregister(self.watch.fd)
        self.watch.close()
        os.close(self.lock)
        if self.spare is not None:
            end_spare(self.spare)
            self.spare = None

    def _reap(self, pid: int) -> None:
        conn, wfd, cfd = self.workers.pop(pid)
        _, status = os.waitpid(pid, 0)
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
        try:
            conn.sendall(b"S%d\n" % sig if sig else b"X%d\n" % os.WEXITSTATUS(status))
        except OSError:
            pass  # the worker has usually said so itself: then nobody reads this
        for fd in (wfd, cfd):
            self.sel.unregister(fd)
            os.close(fd)
        conn.close()
        if self.serving and not self.workers and self.spare is None:
            self.spare = self._fork_spare()  # the next run's, now that none runs

    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        try:
            if peer_uid(conn) != os.getuid():
                log("refused a connection from another user")
                conn.close()
                return
            client = os.pidfd_open(peer_pid(conn))
        except OSError:
            conn.close()
            return
        if self.watch.changed():
            log("the package changed: not serving, the client runs it")
            self._vacate()
            _reply_and_close(conn, b"R\n")
            os.close(client)
            return
        log("accepted a run")
        self._start(conn, client)

    def _start(self, conn, client: int) -> None:
        """Hand the connection to the spare (a fresh one if it is gone) and watch the run."""
        import selectors

        worker = None
        for _ in range(2):  # a spare that died unused is replaced once
            if self.spare is None:
                self.spare = self._fork_spare(conn.fileno(), client)
            if self.spare is None:
                break
            try:
                hand_over(self.spare, conn)
                worker, self.spare = self.spare, None
                break
            except OSError:
                end_spare(self.spare)
                self.spare = None
        if worker is None:
            conn.close()
            os.close(client)
            return
        pid, wfd, channel = worker
        log(f"spare {pid} took the run")
        channel.close()
        self.workers[pid] = (conn, wfd, client)
        self.sel.register(wfd, selectors.EVENT_READ, ("worker", pid))
        self.sel.register(client, selectors.EVENT_READ, ("client", pid))


def _kill(pid: int) -> None:
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _reply_and_close(conn, reply: bytes) -> None:
    try:
        conn.sendall(reply)
    except OSError:
        pass
    conn.close()

"""The warm server's client: hand this ``opt-py`` run to a warm process.

It runs before anything else in ``opt-py`` and imports only what the
interpreter has built in (``_socket``, ``_blake2``, ``marshal``, ``_signal``),
so a run served warm costs a Python start-up plus a fork in the server. Why
and how the server works: ``server.py``. What the client does:

1. ``OPT_PY_NO_SERVER`` set (to anything but ``0`` or empty): no server.
2. The socket is ``<dir>/<key>.sock``: ``<dir>`` is ``$XDG_RUNTIME_DIR/opt-py``
   (or ``/tmp/opt-py-<uid>``) and must be a real directory owned by this
   user with mode 0700; ``<key>`` hashes everything that decides what code
   the server would run (interpreter, flags, ``sys.path``, the environment
   variables Python reads at start-up, the resource limits, the opt-py and
   bindings files' modification times). Any other checkout, Python, or
   PYTHONPATH has another socket.
3. The socket file must be a socket owned by this user, and the process
   listening on it must run as this user (``SO_PEERCRED``); anything else
   is not trusted: the run is done here, and a fresh server replaces it.
4. Sent: argv, environment and umask, and as file descriptors (SCM_RIGHTS)
   stdin, stdout, stderr and the working directory. Received: the worker's
   pid (SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded to it), then how
   it ended: an exit status (returned) or a signal (raised here).

Whenever the server cannot be used, ``run_on_server`` returns None and the
run happens in this process, as it would without a server; when none is up,
one is started in the background for the next run.
"""

import os
import sys

PROTOCOL = 1
_START_UP_ENV = (  # what Python or the bindings read once, at start-up
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSAFEPATH",
    "PYTHONNOUSERSITE",
    "PYTHONUSERBASE",
    "PYTHONSTARTUP",
    "PYTHONOPTIMIZE",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONPYCACHEPREFIX",
    "PYTHONHASHSEED",
    "PYTHONWARNINGS",
    "PYTHONDEVMODE",
    "PYTHONMALLOC",
    "PYTHONIOENCODING",
    "PYTHONUTF8",
    "PYTHONCOERCECLOCALE",
    "PYTHONFAULTHANDLER",
    "PYTHONINTMAXSTRDIGITS",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "MLIR_CRASH_REPRODUCER_DIRECTORY",
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "OPT_PY_SERVER_IDLE",
    "OPT_PY_SERVER_LOG",
)
_SERVER_MAIN = (
    "import marshal, sys; sys.path[:] = marshal.loads(bytes.fromhex(sys.argv[1])); "
    "from opt_py.tool.server import main; main(sys.argv[2])"
)
_FORWARDED_SIGNALS = (2, 15, 1, 3)  # SIGINT, SIGTERM, SIGHUP, SIGQUIT


_COLD_SUBCOMMANDS = ("compare", "bundle", "check")  # they run IREE's runtime: cold


def main() -> int:
    """The ``opt-py`` command: served warm where it can be, else run here.

    The console script's entry point, so that a served run imports nothing
    of opt-py but this module.
    """
    args = sys.argv[1:]
    served = serve(args)
    if served is not None:
        return served
    from .cli import main as run_here

    os._exit(finish(run_here(args)))  # as a warm worker ends: no teardown of the module and its context


def serve(args: list[str]) -> int | None:
    """The exit status of ``opt-py ARGS`` run by the warm server, or None."""
    if args and args[0] in _COLD_SUBCOMMANDS:
        return None
    return run_on_server(args)


def disabled() -> bool:
    return os.environ.get("OPT_PY_NO_SERVER", "0") not in ("", "0")


def socket_dir() -> str:
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base and os.path.isabs(base) and _private_dir(base, strict=False):
        return os.path.join(base, "opt-py")
    return f"/tmp/opt-py-{os.getuid()}"


def _private_dir(path: str, strict: bool = True) -> bool:
    """A directory (not a link) owned by this user; with ``strict``, mode 0700."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if (st.st_mode & 0o170000) != 0o040000 or st.st_uid != os.getuid():
        return False
    return not strict or (st.st_mode & 0o077) == 0


def _tree_stamp(root: str) -> list:
    out, todo = [], [root]
    while todo:
        for e in os.scandir(todo.pop()):
            if e.is_dir(follow_symlinks=False):
                if e.name != "__pycache__":
                    todo.append(e.path)
            elif e.name.endswith(".py"):
                st = e.stat()
                out.append((e.path, st.st_mtime_ns, st.st_size))
    return sorted(out)


def server_key() -> str:
    """Everything that decides what code the server would run, hashed."""
    import _blake2
    import resource

    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    bindings = []
    for p in sys.path:
        try:
            st = os.stat(os.path.join(p or ".", "iree", "compiler", "_mlir_libs"))
        except OSError:
            continue
        bindings.append((p, st.st_ino, st.st_mtime_ns))
        break
    limits = [resource.getrlimit(getattr(resource, n)) for n in dir(resource) if n.startswith("RLIMIT_")]
    material = repr(
        (
            PROTOCOL,
            sys.prefix,
            os.path.realpath(sys.executable),
            sys.version,
            tuple(sys.flags),
            sys.path,
            package,
            _tree_stamp(package),
            bindings,
            [(k, os.environ.get(k)) for k in _START_UP_ENV],
            limits,
            os.getuid(),
        )
    )
    return _blake2.blake2b(material.encode("utf-8", "surrogateescape"), digest_size=12).hexdigest()


def socket_path(key: str | None = None) -> str:
    return os.path.join(socket_dir(), (key or server_key()) + ".sock")


def peer_uid(sock) -> int:
    import _socket

    creds = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)  # struct ucred: pid, uid, gid
    return int.from_bytes(creds[4:8], sys.byteorder)


def peer_pid(sock) -> int:
    import _socket

    creds = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    return int.from_bytes(creds[0:4], sys.byteorder)


def run_on_server(args: list[str]) -> int | None:
    """The exit status of this run done by the warm server, or None: run it here."""
    if disabled() or not _plain_interpreter() or not _std_streams_open():
        return None
    try:
        key = server_key()
        directory = socket_dir()
        path = os.path.join(directory, key + ".sock")
        sock = _connect(directory, path)
    except OSError:
        sock = None
    if sock is None:
        _start_server(path if "path" in locals() else None)
        return None
    try:
        return _run(sock, args)
    finally:
        sock.close()


def _std_streams_open() -> bool:
    """Whether stdin, stdout and stderr are open. Checked before anything is
    opened: a closed one's number goes to the next file opened (the socket,
    which the worker would then take for stdin: a hang). A run with one
    closed runs here, where it stays closed."""
    try:
        for fd in (0, 1, 2):
            os.fstat(fd)
    except OSError:
        return False
    return True


def _plain_interpreter() -> bool:
    """Run as the ``opt-py`` script, without interpreter options: ``python -X
    ...`` or ``-O`` would differ from the server's flags, and ``python -m
    opt_py`` puts the working directory first on sys.path (a server per
    directory): those run cold."""
    orig = getattr(sys, "orig_argv", [])
    return len(orig) >= 2 and not orig[1].startswith("-") and not sys._xoptions


def _connect(directory: str, path: str):
    import _socket

    if not _private_dir(directory):
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if (st.st_mode & 0o170000) != 0o140000 or st.st_uid != os.getuid():
        return None  # not a socket, or not ours: never trusted
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(path)
        if peer_uid(sock) != os.getuid():
            sock.close()
            return None
    except OSError:
        sock.close()
        return None
    return sock


def _run(sock, args: list[str]) -> int | None:
    import _socket
    import marshal

    fds = []
    try:
        cwd = os.open(".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    fds = [0, 1, 2, cwd]
    umask = os.umask(0o022)
    os.umask(umask)
    body = marshal.dumps((PROTOCOL, sys.argv[0], list(args), dict(os.environb), umask))
    fd_bytes = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in fds)
    try:
        sock.sendmsg([len(body).to_bytes(8, "little"), body], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fd_bytes)])
    except OSError:
        return None  # nothing ran: run here
    finally:
        os.close(cwd)
    return _wait(sock)


def _wait(sock) -> int:
    """Forward signals to the worker until the server says how it ended."""
    import _signal

    worker = [0]
    pending = []

    def forward(signum, _frame):
        if worker[0]:
            try:
                os.kill(worker[0], signum)
            except OSError:
                pass
        else:
            pending.append(signum)

    previous = {s: _signal.signal(s, forward) for s in _FORWARDED_SIGNALS}
    buf = b""
    try:
        while True:
            while b"\n" in buf:
                line, _, buf = buf.partition(b"\n")
                kind, value = line[:1], int(line[1:])
                if kind == b"P":
                    worker[0] = value
                    for s in pending:
                        os.kill(value, s)
                    pending.clear()
                elif kind == b"X":
                    return value
                elif kind == b"S":
                    for s, h in previous.items():
                        _signal.signal(s, h)
                    _signal.signal(value, _signal.SIG_DFL)
                    os.kill(os.getpid(), value)
                    return 128 + value  # the signal is blocked or ignored here
            chunk = sock.recv(64)
            if not chunk:
                break
            buf += chunk
    finally:
        for s, h in previous.items():
            _signal.signal(s, h)
    os.write(2, b"opt-py: error: the warm server ended before the run did (set OPT_PY_NO_SERVER=1 to run without it)\n")
    return 1


def _start_server(path: str | None) -> None:
    """Start a server in the background (its own session, no inherited files)."""
    import marshal

    if path is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        try:
            # sys.path as this process has it (a console script's, or -m's
            # with the working directory first), not the one -c would give.
            os.posix_spawn(
                sys.executable,
                [sys.executable, "-c", _SERVER_MAIN, marshal.dumps(sys.path).hex(), path],
                os.environ,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, devnull, 0),
                    (os.POSIX_SPAWN_DUP2, devnull, 1),
                    (os.POSIX_SPAWN_DUP2, devnull, 2),
                ],
                setsid=True,
            )
        finally:
            os.close(devnull)
    except OSError:
        pass  # no server: every run is a cold one


def finish(rc) -> int:
    """The exit status, after what the interpreter does at exit short of tearing objects down.

    It waits for non-daemon threads, runs atexit functions and flushes stdout
    and stderr (status 120 if that fails, as Python's). The caller then
    leaves with ``os._exit``: destroying a big module and its MLIR context
    takes time (a small cold run ends ~50 ms sooner, a 20 MB module ~0.1 s)
    and changes nothing the user can see.
    """
    if rc is None:
        rc = 0
    elif not isinstance(rc, int):
        print(rc, file=sys.stderr)
        rc = 1
    import atexit
    import threading

    threading._shutdown()
    atexit._run_exitfuncs()
    return (rc & 0xFF) if _flush() else 120


def _flush() -> bool:
    ok = True
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # the fd was closed when Python started
            continue
        try:
            stream.flush()
        except (OSError, ValueError):
            ok = False
    return ok

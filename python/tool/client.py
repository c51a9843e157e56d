"""The warm server's client: hand this ``opt-py`` run to a warm process, or run it here.

It is the console script's entry point and imports only modules the
interpreter has built in or already loaded, plus ``_socket``: a served run
costs a Python start-up and the worker's own work (why and how the server
works: ``server.py``).

1. ``OPT_PY_NO_SERVER`` set (to anything but ``0`` or empty): no server.
2. The socket is ``<dir>/<key>.sock``: ``<dir>`` is ``$XDG_RUNTIME_DIR/opt-py``
   (or ``/tmp/opt-py-<uid>``), a real directory of this user's, mode 0700;
   ``<key>`` hashes what decides the code a server runs (interpreter, flags,
   ``sys.path``, start-up environment, resource limits, the package's folder,
   the bindings' install). Edits to the package's files are the server's to
   notice (``codewatch.py``): it then answers "run it yourself" and leaves.
3. The socket must be this user's, and so must the process listening on it
   (``SO_PEERCRED``); anything else is never used.
4. Sent: argv, environment, umask, and as descriptors stdin, stdout, stderr
   and the working directory. Received: ``P<pid>`` (signals are forwarded to
   it), then ``X<status>`` or ``S<signal>``; or ``R``: not served, run here.

Either way this process supervises the run, which may die with IREE in it
(a C++ crash): a cold run is forked from it (``run_cold``). It creates the
run's progress file and names it in ``OPT_PY_PROGRESS`` (``run/progress.py``);
when the run dies of a crash signal it did not forward, ``crash.py`` reports
where and why instead of dying silently.
"""

import os
import sys

PROTOCOL = 2
START_UP_ENV = (  # what Python or the bindings read once, at start-up
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
SERVER_MAIN = (
    "import marshal, sys, time; started = time.time_ns(); "
    "sys.path[:] = marshal.loads(bytes.fromhex(sys.argv[1])); "
    "from opt_py.tool.server import main; main(sys.argv[2], started)"
)
FORWARDED_SIGNALS = (2, 15, 1, 3)  # SIGINT, SIGTERM, SIGHUP, SIGQUIT
# A cold run's supervisor forwards every signal that would end it, as the run's own process would get it.
ENDING_SIGNALS = (1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 24, 25, 26, 27, 29, 30, 31)
COLD_SUBCOMMANDS = ("compare", "bundle", "check")  # they run IREE's runtime: cold
PROGRESS_ENV = "OPT_PY_PROGRESS"  # the run's progress file (run/progress.py), created by its supervisor
CRASH_SIGNALS = (4, 5, 6, 7, 8, 11, 31)  # SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS
_SI_KERNEL = 0x80  # si_code of a signal from the kernel: a terminal's Ctrl-C reaches its whole foreground group
_KEY_MODULUS = (1 << 127) - 1  # the key: the material as one integer, modulo this prime


class NotServed(Exception):
    """The server did not start this run (its code changed, or it went away first): run it here."""


def main() -> int:
    """The ``opt-py`` command: served warm where it can be, else forked from here; a crash is reported.

    Either way the process ends with ``os._exit`` once its streams are
    flushed: the interpreter's teardown changes nothing the user can see.
    """
    args = sys.argv[1:]
    progress = _create_progress_file()
    rc = serve(args)
    if rc is None:
        rc = run_cold(args)
    if rc is None:  # no fork: run here, unsupervised
        from .cli import main as run_here

        rc = run_here(args)
    elif rc < 0:
        rc = _report_crash(-rc, args, progress)
    _remove_progress_file()
    os._exit(finish(rc))


def _report_crash(signum: int, args: list[str], progress: str | None) -> int:
    """``crash.py``'s report of the run's death by ``signum``; the exit status, 128 + ``signum``,
    even where the report cannot be written."""
    try:
        from .crash import report

        return report(signum, args, progress, PROGRESS_ENV)
    except (OSError, KeyboardInterrupt):
        return 128 + signum
    finally:
        _remove_progress_file()


_PROGRESS = [None]  # this supervisor's progress file


def _create_progress_file() -> str | None:
    """A new empty file only this user can read, named to the run in ``PROGRESS_ENV``; None if none can be made."""
    path = os.path.join(os.environ.get("TMPDIR") or "/tmp", f"opt-py-progress-{os.getpid()}-{os.urandom(6).hex()}")
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
    except OSError:
        os.environ.pop(PROGRESS_ENV, None)
        return None
    os.environ[PROGRESS_ENV] = path
    _PROGRESS[0] = path
    return path


def _remove_progress_file() -> None:
    if _PROGRESS[0]:
        try:
            os.unlink(_PROGRESS[0])
        except OSError:
            pass
        _PROGRESS[0] = None


def run_cold(args: list[str]) -> int | None:
    """Run ``opt-py ARGS`` in a child forked from here and supervise it: its exit status, minus the
    signal of a crash, or None where no child could be forked. The child runs ``cli.main``; a signal
    that would end this process, sent to it alone, is forwarded to the child instead (one a
    terminal sends reaches both), and this process dies of it when the child does."""
    import _signal

    watched = {_signal.SIGCHLD, *ENDING_SIGNALS}
    old = _signal.pthread_sigmask(_signal.SIG_BLOCK, watched)  # from before the fork: none is lost
    try:
        pid = os.fork()
    except OSError:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, old)
        return None
    if pid == 0:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, old)
        record_progress()
        from .cli import main as run_here

        os._exit(finish(run_here(args)))
    forwarded = set()
    while True:
        info = _signal.sigwaitinfo(watched)
        if info.si_signo != _signal.SIGCHLD:
            if info.si_code != _SI_KERNEL:
                _kill_quietly(pid, info.si_signo)
                forwarded.add(info.si_signo)
            continue
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    _signal.pthread_sigmask(_signal.SIG_SETMASK, old)
    if os.WIFSIGNALED(status):
        return _died_of(os.WTERMSIG(status), forwarded)
    return os.WEXITSTATUS(status)


def record_progress() -> None:
    """In the run: record its steps in the file its supervisor named (``run/progress.py``)."""
    path = os.environ.pop(PROGRESS_ENV, None)  # this run's: not a subprocess's
    if path:
        from ..run import progress

        progress.attach(path)


def _kill_quietly(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except OSError:
        pass


def _died_of(signum: int, forwarded: set) -> int:
    """The run died of ``signum``: minus it for a crash (reported), else this process dies of it too."""
    import _signal

    if signum in CRASH_SIGNALS and signum not in forwarded:
        return -signum
    _remove_progress_file()
    try:
        _signal.signal(signum, _signal.SIG_DFL)
    except OSError:
        pass  # SIGKILL or SIGSTOP: no handler to reset
    os.kill(os.getpid(), signum)
    return 128 + signum  # the signal is blocked or ignored here


def serve(args: list[str]) -> int | None:
    """The exit status of ``opt-py ARGS`` run by the warm server (minus the signal of a crash), or None."""
    if args and args[0] in COLD_SUBCOMMANDS:
        return None
    return run_on_server(args)


def disabled() -> bool:
    return os.environ.get("OPT_PY_NO_SERVER", "0") not in ("", "0")


def socket_dir() -> str:
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base and os.path.isabs(base) and private_dir(base, strict=False):
        return os.path.join(base, "opt-py")
    return f"/tmp/opt-py-{os.getuid()}"


def private_dir(path: str, strict: bool = True) -> bool:
    """A directory (not a link) owned by this user; with ``strict``, mode 0700."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if (st.st_mode & 0o170000) != 0o040000 or st.st_uid != os.getuid():
        return False
    return not strict or (st.st_mode & 0o077) == 0


def package_dir() -> str:
    """The folder of the package's code (``python/`` in a checkout)."""
    return os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def _bindings_stamp() -> list:
    for p in sys.path:
        try:
            st = os.stat(os.path.join(p or ".", "iree", "compiler", "_mlir_libs"))
        except OSError:
            continue
        return [p, st.st_ino, st.st_mtime_ns]
    return []


def _resource_limits() -> bytes:
    """This process's resource limits, which a server's workers would inherit instead."""
    try:
        with open("/proc/self/limits", "rb") as f:
            return f.read()
    except OSError:
        import resource

        names = sorted(n for n in dir(resource) if n.startswith("RLIMIT_"))
        return repr([resource.getrlimit(getattr(resource, n)) for n in names]).encode()


def server_key() -> str:
    """Everything that decides what code the server would run, hashed (not the files' contents)."""
    material = repr(
        (
            PROTOCOL,
            sys.prefix,
            os.path.realpath(sys.executable),
            sys.version,
            tuple(sys.flags),
            sys.path,
            package_dir(),
            _bindings_stamp(),
            [(k, os.environ.get(k)) for k in START_UP_ENV],
            os.getuid(),
        )
    ).encode("utf-8", "surrogateescape")
    value = int.from_bytes(material + _resource_limits(), "little") % _KEY_MODULUS
    return f"{value & ((1 << 96) - 1):024x}"  # short: a socket's path has room for 107 bytes


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
    path = None
    try:
        directory = socket_dir()
        path = os.path.join(directory, server_key() + ".sock")
        sock = _connect(directory, path)
    except OSError:
        sock = None
    if sock is None:
        start_server(path)
        return None
    try:
        return _run(sock, args)
    except NotServed:
        start_server(path)  # the old one has left the name free
        return None
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

    if not private_dir(directory):
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

    try:
        cwd = os.open(".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    umask = os.umask(0o022)
    os.umask(umask)
    body = marshal.dumps((PROTOCOL, sys.argv[0], list(args), dict(os.environb), umask))
    fd_bytes = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in (0, 1, 2, cwd))
    try:
        sock.sendmsg([len(body).to_bytes(8, "little"), body], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fd_bytes)])
    except OSError:
        return None  # nothing ran: run here
    finally:
        os.close(cwd)
    return _wait(sock)


def _wait(sock) -> int:
    """Forward signals to the worker until the server says how it ended: its exit status, or minus
    the signal of a crash."""
    import _signal

    worker = [0]
    pending = []
    forwarded = set()

    def forward(signum, _frame):
        forwarded.add(signum)
        if worker[0]:
            _kill_quietly(worker[0], signum)
        else:
            pending.append(signum)

    previous = {s: _signal.signal(s, forward) for s in FORWARDED_SIGNALS}
    buf = b""
    try:
        while True:
            while b"\n" in buf:
                line, _, buf = buf.partition(b"\n")
                kind = line[:1]
                if kind == b"R":
                    _not_served(pending, previous)
                value = int(line[1:])
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
                    return _died_of(value, forwarded)
            try:
                chunk = sock.recv(64)
            except OSError:
                chunk = b""
            if not chunk:
                if not worker[0]:
                    _not_served(pending, previous)  # no worker started: nothing ran
                break
            buf += chunk
    finally:
        for s, h in previous.items():
            _signal.signal(s, h)
    os.write(2, b"opt-py: error: the warm server ended before the run did (set OPT_PY_NO_SERVER=1 to run without it)\n")
    return 1


def _not_served(pending: list[int], previous: dict) -> None:
    """Raise NotServed; or, if a signal came meanwhile, die of it as the run would have."""
    import _signal

    if pending:
        for s, h in previous.items():
            _signal.signal(s, h)
        _remove_progress_file()
        _signal.signal(pending[0], _signal.SIG_DFL)
        os.kill(os.getpid(), pending[0])
    raise NotServed


def start_server(path: str | None) -> None:
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
                [sys.executable, "-c", SERVER_MAIN, marshal.dumps(sys.path).hex(), path],
                {k: v for k, v in os.environ.items() if k != PROGRESS_ENV},  # this run's, not the server's
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
    takes time and changes nothing the user can see.
    """
    if rc is None:
        rc = 0
    elif not isinstance(rc, int):
        print(rc, file=sys.stderr)
        rc = 1
    if "threading" in sys.modules:  # a served client never imported it: nothing to wait for
        sys.modules["threading"]._shutdown()
    if "typing" in sys.modules:
        # The bindings (nanobind) register an atexit function that empties
        # typing's caches before their leak check at finalization: with no
        # finalization, emptying them only copies a forked worker's pages.
        getattr(sys.modules["typing"], "_cleanups", []).clear()
    import atexit

    atexit._run_exitfuncs()
    return (rc & 0xFF) if flush_std_streams() else 120


def flush_std_streams() -> bool:
    """Flush sys.stdout and sys.stderr; False if either fails. A reader of stdout that is gone kills
    the process with SIGPIPE, as it kills iree-opt (and as a write during the run does)."""
    ok = True
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # the fd was closed when Python started
            continue
        try:
            stream.flush()
        except BrokenPipeError:
            if stream is sys.stdout:
                from .output import die_of_sigpipe

                die_of_sigpipe()
            ok = False
        except (OSError, ValueError):
            ok = False
    return ok

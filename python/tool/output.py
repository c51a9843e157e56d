"""Writing results as mlir-opt does, and running deep-recursing MLIR code safely."""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile


def on_big_stack(fn, *args):
    """Run ``fn`` on a thread with a 512 MiB stack (reserved, not committed).

    MLIR's parser, verifier and printer recurse once per region level; on the
    main thread's 8 MiB stack a few thousand nested regions are a segfault.
    """
    import threading

    result, error = [], []

    def target():
        # Python recursion over nested ops (pipeline nesting, say) follows the
        # IR's depth, which the driver bounds at MAX_NESTING; the stack holds it.
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 50_000))
        try:
            result.append(fn(*args))
        except BaseException as e:  # noqa: BLE001 - re-raised on the calling thread
            error.append(e)

    old = threading.stack_size()
    threading.stack_size(512 * 1024 * 1024)
    try:
        t = threading.Thread(target=target, name="opt-py")
        t.start()
    finally:
        threading.stack_size(old)
    try:
        t.join()
    except KeyboardInterrupt:
        # MLIR's code does not look at Python's signals: the run would go on
        # to its end before the exit, and shutting the interpreter down under
        # a running thread can abort. End now; nothing has been written.
        print("opt-py: interrupted", file=sys.stderr, flush=True)
        os._exit(130)
    if error:
        raise error[0]
    return result[0]


def write_output(target: str, data: bytes) -> int:
    """Write all or nothing: a temp file beside the target, renamed into place.

    A special file (``/dev/null``, a FIFO, ``/dev/stdout``) is written as it
    is, never replaced; a symlink is written through; a replaced file keeps
    its mode, and a new one gets the umask's. No temp file outlives a failure.
    """

    def fail(reason) -> int:
        print(f"opt-py: error: cannot write output file '{target}': {reason}", file=sys.stderr)
        return 1

    if target == "-":
        return _write_stdout(data, fail)
    if not target:
        return fail("empty path")
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        return fail(e.strerror)
    if st is not None and stat.S_ISDIR(st.st_mode):
        return fail("is a directory")
    try:
        if st is not None and not stat.S_ISREG(st.st_mode):
            with open(target, "wb") as f:
                f.write(data)
            return 0
        _replace(target, data, st)
    except OSError as e:
        return fail(e.strerror or str(e))
    return 0


def _write_stdout(data: bytes, fail) -> int:
    if sys.stdout is None:  # closed when Python started
        return fail(os.strerror(errno.EBADF))
    try:
        write_all(sys.stdout.buffer, data)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        die_of_sigpipe()
    except OSError as e:
        return fail(e.strerror or str(e))
    return 0


def _replace(target: str, data: bytes, st) -> None:
    """Write a regular file (``st``: its stat, None if new) through a temp file renamed over it."""
    real = os.path.realpath(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".opt-py-", dir=os.path.dirname(real))
    except PermissionError:
        if st is None or not os.access(real, os.W_OK):
            raise
        with open(real, "wb") as f:  # a writable file in a directory we may not create in
            f.write(data)
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_all(stream, data: bytes) -> None:
    """All of ``data``: a buffered write straight to a pipe returns short,
    without an error, when the reader goes away midway."""
    view = memoryview(data)
    while view:
        view = view[stream.write(view) :]


def die_of_sigpipe() -> None:
    """Die as iree-opt does when its reader has gone (killed by SIGPIPE, 141
    in a shell): Python ignores SIGPIPE and raises BrokenPipeError instead."""
    import signal

    try:
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
    os._exit(128 + signal.SIGPIPE)  # not reached: SIGPIPE is not blocked

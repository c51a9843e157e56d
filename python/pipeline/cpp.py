"""C++ passes: asking MLIR whether a name (with its options) is a registered pass."""

from __future__ import annotations

import functools


@functools.cache
def cpp_probe(pass_text: str) -> str | None:
    """Validate a C++ pass by parsing it under ``any``; None when fine.

    LLVM's option parser writes its complaint straight to fd 2; it is caught
    here and folded into the message instead.
    """
    from iree.compiler import passmanager

    with captured_stderr() as captured:
        try:
            passmanager.PassManager.parse(f"any({pass_text})", context=probe_context())
            return None
        except ValueError as e:
            error = str(e).strip()
    extra = captured.text().strip().lstrip(":").strip()
    return f"{extra} {error}" if extra else error


_PROBE_CONTEXT = []


def probe_context():
    """The current context, or one kept for probing pass names outside a run."""
    from iree.compiler import ir

    try:
        current = ir.Context.current
    except ValueError:
        current = None
    if current is not None:
        return current
    if not _PROBE_CONTEXT:
        _PROBE_CONTEXT.append(ir.Context(load_on_create_dialects=[]))  # naming passes needs no dialect
    return _PROBE_CONTEXT[0]


class captured_stderr:
    """Redirect fd 2 into a temp file for the duration of a with-block.

    An anonymous memory file where the system has one, used through its
    descriptor alone: every run probes its pipeline's C++ passes, and a
    temporary file on disk costs a run the search for a temporary directory.
    """

    def __enter__(self):
        import os
        import sys

        sys.stderr.flush()
        try:
            self._fd = os.memfd_create("opt-py-stderr", os.MFD_CLOEXEC)
        except (AttributeError, OSError):
            import tempfile

            self._fd, name = tempfile.mkstemp(prefix="opt-py-stderr-")
            os.unlink(name)
        self._text = None
        self._saved = os.dup(2)
        os.dup2(self._fd, 2)
        return self

    def __exit__(self, *exc):
        import os

        os.dup2(self._saved, 2)
        os.close(self._saved)
        self.text()
        return False

    def text(self) -> str:
        """What was written to fd 2 so far; read once, then the file is closed."""
        import os

        if self._text is None:
            os.lseek(self._fd, 0, os.SEEK_SET)
            chunks = []
            while chunk := os.read(self._fd, 1 << 16):
                chunks.append(chunk)
            os.close(self._fd)
            self._text = b"".join(chunks).decode(errors="replace")
        return self._text

"""Every error opt-py reports to its user, in one place every layer can import.

An ``OptPyError`` is a user-facing error: the command prints it as
``opt-py: error: ...`` and exits 1; the library raises it. Subclasses say
which layer found the problem. Errors that are bugs in a pass or pattern
(``PatternContractError``) are not OptPyErrors: the driver turns them into
located pass failures.
"""

from __future__ import annotations


class OptPyError(Exception):
    """A user-facing error: printed as ``opt-py: error: ...`` with exit 1."""


class PassOptionError(OptPyError):
    """A pass option that does not parse or a pass that cannot be built from its options."""


class PassRegistrationError(OptPyError):
    """A pass declared wrongly, or a name that collides with another pass."""


class PipelineError(OptPyError):
    """A textual pipeline that does not parse or resolve; located by column when possible."""

    def __init__(self, message: str, text: str = "", col: int | None = None):
        self.text, self.col, self.bare = text, col, message
        if col is not None and text:
            message = f"pipeline:1:{col}: {message}\n  {text}\n  {' ' * (col - 1)}^"
        super().__init__(message)


class PipelineFailed(OptPyError):
    """The pipeline failed; ``diagnostics`` holds what MLIR and the passes said."""

    def __init__(self, diagnostics: list, rendered: str):
        self.diagnostics = diagnostics
        super().__init__(rendered)


class CompileError(OptPyError):
    """An ``opt-py compile`` request that cannot be carried out (flags, phases, files)."""


class CodegenError(OptPyError):
    """A codegen injection that cannot be carried out faithfully."""


class DeviceUnavailable(OptPyError):
    """The IREE runtime cannot open the requested device here."""


class PatternContractError(Exception):
    """A pattern broke the driver's contract (e.g. changed IR, reported no match)."""

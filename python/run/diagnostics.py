"""Diagnostics: capture from MLIR, print like mlir-opt, with file:line:col locations.

Errors raised while parsing or running a pipeline arrive inside the bindings'
``MLIRError``; warnings and remarks arrive at the context's handler. Both are
turned into ``Diag`` records here, rendered as ``file:line:col: error: ...``
with the source line and a caret (tool/verify.py checks them against ``expected-*``
comments for ``--verify-diagnostics``).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field

_SEVERITY = {"ERROR": "error", "WARNING": "warning", "REMARK": "remark", "NOTE": "note"}


@dataclass
class Diag:
    severity: str
    message: str
    file: str | None = None
    line: int = 0
    col: int = 0
    notes: list[Diag] = field(default_factory=list)

    def flat(self):
        yield self
        for n in self.notes:
            yield from n.flat()


def from_mlir(d) -> Diag:
    sev = str(d.severity).rsplit(".", 1)[-1].upper()
    flc = parse_location(d.location)
    f, line, col = flc if flc else (None, 0, 0)
    return Diag(_SEVERITY.get(sev, sev.lower()), str(d.message), f, line, col, [from_mlir(n) for n in d.notes])


class Collector:
    """Collects every diagnostic emitted in a context, in order."""

    def __init__(self, context):
        self.diags: list[Diag] = []
        self.errors_seen = 0  # errors that reached the handler (see engine.errors_to_handlers)
        self._context = context
        self._handle = context.attach_diagnostic_handler(self._on)

    def _on(self, d) -> bool:
        diag = from_mlir(d)
        self.diags.append(diag)
        self.errors_seen += diag.severity == "error"
        return True

    def add_error(self, e, errors_seen_before: int | None = None) -> None:
        """Record the diagnostics carried by an ``MLIRError``. One raised with
        errors sent to the handler carries none: its bare message is recorded
        only when no error reached the handler since ``errors_seen_before``."""
        infos = getattr(e, "error_diagnostics", None) or []
        if not infos and (errors_seen_before is None or self.errors_seen == errors_seen_before):
            self.diags.append(Diag("error", str(e)))
        for d in infos:
            self.diags.append(from_mlir(d))

    def detach(self):
        if self._handle is not None:
            self._handle.detach()
            self._handle = None

    @contextmanager
    def paused(self):
        """No Python handler in the context for the duration (see iree/phases.Compilation.in_iree)."""
        self.detach()
        try:
            yield
        finally:
            self._handle = self._context.attach_diagnostic_handler(self._on)


def render(diag: Diag, rename: dict[str, str], sources: dict[str, str]) -> str:
    lines = []
    for d in diag.flat():
        f = rename.get(d.file, d.file) if d.file is not None else None
        where = f"{f}:{d.line}:{d.col}: " if f is not None else ""
        msg = d.message.rstrip()
        lines.append(f"{where}{d.severity}: {msg}")
        text = sources.get(f) if f is not None else None
        if text is not None and d.line > 0:
            src_lines = text.splitlines()
            if d.line <= len(src_lines):
                src = src_lines[d.line - 1]
                lines.append(src)
                if 0 < d.col <= len(src) + 1:  # a column from the input may be anything
                    lines.append(" " * (d.col - 1) + "^")
    return "\n".join(lines)


_CONSOLE_LINE = re.compile(r"^(loc\(.*\)): (error|warning|remark|note): (.*)$")


def from_console(text: str) -> list[Diag | str]:
    """What an IREE invocation's console handler printed: its diagnostics, and
    any other line (IR dumps a user's flags asked for, say) as it was.

    The handler prints ``loc(...): severity: message``, the location raw; the
    first file location in it is the one kept, as ``from_mlir`` does.
    """
    out: list[Diag | str] = []
    for line in text.splitlines():
        m = _CONSOLE_LINE.match(line)
        if m is None:
            out.append(line)
            continue
        flc = parse_location(m.group(1))
        f, no, col = flc if flc else (None, 0, 0)
        out.append(Diag(m.group(2), m.group(3), f, no, col))
    return out


# --------------------------------------------------------------------------
# Locations
# --------------------------------------------------------------------------

_FILE_LOC = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')


def parse_location(loc) -> tuple[str, int, int] | None:
    """(file, line, col) of the first file location inside ``loc``, if any."""
    m = _FILE_LOC.search(str(loc))
    if not m:
        return None
    return m.group(1), int(m.group(2)), int(m.group(3))


def format_location(loc, rename: dict | None = None) -> str:
    flc = parse_location(loc)
    if flc is None:
        return "<unknown>"
    f, line, col = flc
    if rename:
        f = rename.get(f, f)
    return f"{f}:{line}:{col}"

"""Diagnostics: capture from MLIR, print like mlir-opt, verify like mlir-opt.

Errors raised while parsing or running a pipeline arrive inside the bindings'
``MLIRError``; warnings and remarks arrive at the context's handler. Both are
turned into ``Diag`` records here, rendered as ``file:line:col: error: ...``
with the source line and a caret, or checked against ``expected-*`` comments
for ``--verify-diagnostics``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .locations import parse_location

_SEVERITY = {"ERROR": "error", "WARNING": "warning", "REMARK": "remark", "NOTE": "note"}


@dataclass
class Diag:
    severity: str
    message: str
    file: str | None = None
    line: int = 0
    col: int = 0
    notes: list["Diag"] = field(default_factory=list)

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
        self._handle = context.attach_diagnostic_handler(self._on)

    def _on(self, d) -> bool:
        self.diags.append(from_mlir(d))
        return True

    def add_error(self, e) -> None:
        """Record the diagnostics carried by an ``MLIRError``."""
        infos = getattr(e, "error_diagnostics", None) or []
        if not infos:
            self.diags.append(Diag("error", str(e)))
        for d in infos:
            self.diags.append(from_mlir(d))

    def detach(self):
        if self._handle is not None:
            self._handle.detach()
            self._handle = None


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


# --------------------------------------------------------------------------
# --verify-diagnostics
# --------------------------------------------------------------------------

_EXPECTED = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}\s*$"
)


@dataclass
class Expected:
    severity: str
    text: str
    is_regex: bool
    line: int  # the line the diagnostic must be on; 0 for @unknown
    directive_line: int
    directive_col: int
    matched: bool = False

    def matches(self, message: str) -> bool:
        if not self.is_regex:
            return self.text in message
        pattern = "".join(
            part if i % 2 else re.escape(part) for i, part in enumerate(re.split(r"\{\{(.*?)\}\}", self.text))
        )
        return re.search(pattern, message) is not None


class VerifyError(Exception):
    pass


def parse_expectations(text: str) -> list[Expected]:
    """Every ``expected-*`` designator in ``text``, with its target line."""
    out: list[Expected] = []
    below: list[Expected] = []
    last_plain = 0
    for no, line in enumerate(text.splitlines(), start=1):
        m = _EXPECTED.search(line)
        if not m:
            for e in below:
                e.line = no
            below.clear()
            last_plain = no
            continue
        sev, re_flag, _, where, body = m.groups()
        e = Expected(sev, body, bool(re_flag), no, no, m.start() + 1)
        if where is None:
            pass
        elif where == "above":
            e.line = last_plain
        elif where == "below":
            below.append(e)
        elif where == "unknown":
            e.line = 0
        else:
            e.line = no + int(where)
        if e.is_regex:
            try:
                e.matches("")
            except re.error as err:
                raise VerifyError(f"{no}:{m.start() + 1}: error: invalid regex in expected-{sev}-re: {err}") from None
        out.append(e)
    return out


def verify(expected: list[Expected], diags: list[Diag], filename: str) -> list[str]:
    """Problems found matching ``diags`` against ``expected``; [] when all match."""
    problems = []
    for diag in diags:
        for d in diag.flat():
            line = d.line if d.file is not None else 0
            cands = [e for e in expected if not e.matched and e.line == line and e.matches(d.message)]
            exact = [e for e in cands if e.severity == d.severity]
            if exact:
                exact[0].matched = True
                continue
            where = f"{filename}:{d.line}:{d.col}" if d.file is not None else filename
            if cands:
                cands[0].matched = True
                problems.append(
                    f"{where}: error: '{d.severity}' diagnostic emitted when expecting a '{cands[0].severity}'"
                )
            else:
                problems.append(f"{where}: error: unexpected {d.severity}: {d.message}")
    for e in expected:
        if not e.matched:
            problems.append(
                f"{filename}:{e.directive_line}:{e.directive_col}: error: expected {e.severity} "
                f'"{e.text}" was not produced'
            )
    return problems

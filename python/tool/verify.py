"""``--verify-diagnostics``: check emitted diagnostics against ``expected-*`` comments, as mlir-opt does."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..run.diagnostics import Diag

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


OP_NOTE = "see current operation: "


def without_op_notes(diag: Diag) -> Diag:
    """``diag`` less the "see current operation" notes MLIR attaches to an op's
    diagnostics: mlir-opt turns them off under ``--verify-diagnostics``
    (``printOpOnDiagnostic(false)``), and the bindings cannot, so they are
    dropped here (only those: a note at the op's own location, first among
    its notes, as ``Operation::emitError`` attaches it)."""
    notes = [without_op_notes(n) for n in diag.notes]
    first = diag.notes[0] if diag.notes else None
    if (
        first is not None
        and first.message.startswith(OP_NOTE)
        and first.severity == "note"
        and (first.file, first.line, first.col) == (diag.file, diag.line, diag.col)
    ):
        notes = notes[1:]
    return Diag(diag.severity, diag.message, diag.file, diag.line, diag.col, notes)


def verify(expected: list[Expected], diags: list[Diag], filename: str) -> list[str]:
    """Problems found matching ``diags`` against ``expected``; [] when all match."""
    problems = []
    for diag in diags:
        for d in without_op_notes(diag).flat():
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

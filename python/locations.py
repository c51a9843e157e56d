"""Formatting MLIR locations the way compilers print them: file:line:col."""

from __future__ import annotations

import re

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

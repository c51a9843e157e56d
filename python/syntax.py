"""The one scanner for MLIR's bracketed text: pipelines, pass options, attributes.

Pipelines (``a{x=1},b(c)``), pass options (``a=1 b="x y" c={1,2}``), list
values (``{"a,b",c}``) and attribute text (``pipeline = #x<"...">, ...``) all
need the same thing: split at a separator that is outside quotes and
brackets, or find where a bracketed part ends. ``parse_pipeline`` reads
MLIR's textual pipeline syntax into passes and nests, with their columns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import PipelineError

OPEN = "{[(<"
CLOSE = "}])>"


def split_top_level(text: str, is_separator, *, brackets: str = "{[(", keep_quotes: bool = True):
    """Split ``text`` where ``is_separator(char)`` holds outside quotes and
    ``brackets``; returns the pieces (stripped, empty ones kept) and whether
    the text was balanced. ``keep_quotes=False`` drops the quote characters."""
    closers = {OPEN[OPEN.index(b)]: CLOSE[OPEN.index(b)] for b in brackets}
    pieces, cur, quote, depth = [], [], None, 0
    for c in text:
        if quote:
            if c == quote:
                quote = None
                if keep_quotes:
                    cur.append(c)
            else:
                cur.append(c)
            continue
        if c in "\"'":
            quote = c
            if keep_quotes:
                cur.append(c)
            continue
        if c in closers:
            depth += 1
        elif c in closers.values():
            depth -= 1
        elif depth == 0 and is_separator(c):
            pieces.append("".join(cur).strip())
            cur = []
            continue
        cur.append(c)
    pieces.append("".join(cur).strip())
    return pieces, quote is None and depth == 0


def balanced_end(text: str, start: int, opener: str, closer: str) -> int:
    """Index of the ``closer`` matching the ``opener`` at ``start``; -1 when unbalanced."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == opener:
            depth += 1
        elif text[i] == closer:
            depth -= 1
            if depth == 0:
                return i
    return -1


def value_end(text: str, start: int, stops: str = ", ") -> int:
    """End of an attribute value starting at ``start``: the first of ``stops``
    outside ``<...>``, or the ``>`` closing an enclosing bracket."""
    depth = 0
    j = start
    while j < len(text):
        c = text[j]
        if c == "<":
            depth += 1
        elif c == ">":
            if depth == 0:
                break
            depth -= 1
        elif c in stops and depth == 0:
            break
        j += 1
    return j


@dataclass
class PassRef:
    name: str
    options: str  # raw text between the braces, '' when absent
    col: int

    def text(self) -> str:
        return f"{self.name}{{{self.options}}}" if self.options else self.name


@dataclass
class Nest:
    op_name: str
    children: list[PassRef | Nest]
    col: int


Element = PassRef | Nest

_NAME = re.compile(r"[A-Za-z0-9_.$\-]+")
MAX_PIPELINE_DEPTH = 64


def parse_pipeline(text: str) -> list[Element]:
    """Parse MLIR's textual pipeline syntax into a list of elements."""
    return _PipelineParser(text).pipeline()


class _PipelineParser:
    """Recursive descent over ``element (',' element)*``, where an element is
    ``name``, ``name{options}`` or ``name(elements)``."""

    def __init__(self, text: str):
        self.text, self.pos, self.depth = text, 0, 0

    def pipeline(self) -> list[Element]:
        self._skip_ws()
        if self._at_end():
            return []
        items = self._element_list()
        self._skip_ws()
        if not self._at_end():
            raise PipelineError(f"unexpected '{self.text[self.pos]}' in pipeline", self.text, self.pos + 1)
        return items

    def _at_end(self) -> bool:
        return self.pos >= len(self.text)

    def _peek(self) -> str:
        return "" if self._at_end() else self.text[self.pos]

    def _skip_ws(self) -> None:
        while not self._at_end() and self.text[self.pos].isspace():
            self.pos += 1

    def _element_list(self) -> list[Element]:
        items = [self._element()]
        self._skip_ws()
        while self._peek() == ",":
            self.pos += 1
            items.append(self._element())
            self._skip_ws()
        return items

    def _element(self) -> Element:
        self._skip_ws()
        m = _NAME.match(self.text, self.pos)
        if not m:
            what = repr(self._peek()) if not self._at_end() else "end of pipeline"
            raise PipelineError(f"expected a pass or op name, found {what}", self.text, self.pos + 1)
        start, name = self.pos + 1, m.group(0)
        self.pos = m.end()
        self._skip_ws()
        if self._peek() == "{":
            return PassRef(name, self._options(), start)
        if self._peek() == "(":
            return Nest(name, self._children(start), start)
        return PassRef(name, "", start)

    def _options(self) -> str:
        end = balanced_end(self.text, self.pos, "{", "}")
        if end < 0:
            raise PipelineError("unbalanced '{' in pass options", self.text, self.pos + 1)
        options = self.text[self.pos + 1 : end].strip()
        self.pos = end + 1
        return options

    def _children(self, start: int) -> list[Element]:
        self.depth += 1
        if self.depth > MAX_PIPELINE_DEPTH:
            raise PipelineError(f"pipeline nests deeper than {MAX_PIPELINE_DEPTH} levels", self.text, start)
        self.pos += 1
        self._skip_ws()
        children: list[Element] = []
        if self._peek() != ")":
            children = self._element_list()
            self._skip_ws()
            if self._peek() != ")":
                raise PipelineError("unbalanced '(' in pipeline", self.text, start)
        self.pos += 1
        self.depth -= 1
        return children

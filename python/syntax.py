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

from .errors import PassOptionError, PipelineError

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

    def pairs(self) -> list[tuple[str, str]]:
        """The options as key/value text pairs (what a Python pass is built from)."""
        return split_option_text(self.options)


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


def split_option_text(text: str) -> list[tuple[str, str]]:
    """Split ``a=1 b="x y" c={1,2}`` into key/value pairs, MLIR-style."""
    tokens, balanced = split_top_level(text, str.isspace)
    if not balanced:
        raise PassOptionError(f"unbalanced quotes or braces in options '{text}'")
    pairs = []
    for token in tokens:
        if not token:
            continue
        key, eq, value = token.partition("=")
        if not eq:
            value = "true"  # a bare flag, as MLIR allows for bool options
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif len(value) >= 2 and value[0] == "{" and value[-1] == "}":
            value = value[1:-1]
        pairs.append((key.strip(), value))
    return pairs


def split_list_value(raw: str) -> list[str]:
    """Split a list option on commas outside quotes and braces, unquoting items."""
    items, _ = split_top_level(raw, lambda c: c == ",", keep_quotes=False)
    return [i for i in items if i]

"""The one scanner for MLIR's bracketed text: pipelines, pass options, attributes.

Pipelines (``a{x=1},b(c)``), pass options (``a=1 b="x y" c={1,2}``), list
values (``{"a,b",c}``) and attribute text (``pipeline = #x<"...">, ...``) all
need the same thing: split at a separator that is outside quotes and
brackets, or find where a bracketed part ends.
"""

from __future__ import annotations

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

"""Pass options as MLIR spells them: ``a=1 b="x y" c={1,2}``, typed by the pass's fields.

A field typed by an ``Enum`` is a choice: spelled by its members' names in
lower case with ``-`` for ``_`` (``Form.ARGMAX`` is ``argmax``), checked when
the pipeline is parsed, listed by ``--list-passes``.
"""

from __future__ import annotations

import collections.abc
import enum
import typing

from ..errors import PassOptionError
from ..syntax import split_top_level


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


_TRUE = {"true", "1", "on", "yes"}
_FALSE = {"false", "0", "off", "no"}


def parse_option_value(pass_name: str, key: str, typ, raw: str):
    def bad(expected):
        return PassOptionError(f"pass '{pass_name}': option '{key}' expects {expected}, got '{raw}'")

    origin = typing.get_origin(typ)
    if origin in (list, tuple, collections.abc.Sequence):
        args = [a for a in typing.get_args(typ) if a is not Ellipsis] or [str]
        if len(set(args)) != 1:
            raise bad("a list (options of fixed-length tuple types are not supported)")
        items = [parse_option_value(pass_name, key, args[0], s) for s in split_list_value(raw)]
        return tuple(items) if origin is tuple else items
    if typ is bool:
        low = raw.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise bad("a boolean (true/false)")
    if typ is int:
        try:
            value = int(_plain_number(raw), 0)
        except ValueError:
            raise bad("an integer") from None
        if not -(2**63) <= value < 2**63:
            raise bad("a 64-bit integer")
        return value
    if typ is float:
        try:
            return float(_plain_number(raw))
        except ValueError:
            raise bad("a number") from None
    if typ is str:
        return raw
    if is_choice(typ):
        try:
            return typ[raw.replace("-", "_").upper()]
        except KeyError:
            raise bad(f"one of {', '.join(choices(typ))}") from None
    raise bad(f"a value of type {typ}")


def is_choice(typ) -> bool:
    """Whether an option of type ``typ`` is a choice among an Enum's members."""
    return isinstance(typ, type) and issubclass(typ, enum.Enum)


def choice_name(member: enum.Enum) -> str:
    """How a choice is spelled in option text: ``Form.ARGMAX`` is ``argmax``."""
    return member.name.lower().replace("_", "-")


def choices(typ) -> list[str]:
    """The spellings of a choice option's values, in declaration order."""
    return [choice_name(m) for m in typ]


def format_option_value(value) -> str:
    """``value`` as option text spells it (what ``parse_option_value`` reads back)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return choice_name(value)
    if isinstance(value, (list, tuple)):
        return ",".join(format_option_value(x) for x in value)
    return str(value)


def option_type_name(typ) -> str:
    """An option's type as ``--list-passes`` shows it: ``int``, ``bool``..., or a choice's values."""
    if is_choice(typ):
        return "|".join(choices(typ))
    return getattr(typ, "__name__", str(typ))


def _plain_number(raw: str) -> str:
    """``raw`` if it is spelled as LLVM's option parser would read a number:
    ASCII only (Python's ``int`` and ``float`` also take other scripts'
    digits, ``_`` separators and surrounding blanks)."""
    if not raw.isascii() or "_" in raw or raw != raw.strip():
        raise ValueError(raw)
    return raw

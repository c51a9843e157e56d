"""Declaring a Python pass: name, anchor, summary and typed options, once.

A pass is a frozen dataclass. Its class attributes say what it is (``name``,
``anchor``, ``summary``); its dataclass fields are its typed options, with
defaults, spelled on the command line with ``-`` for ``_``::

    @dataclass(frozen=True)
    class FoldThing(PatternPass):
        name = "fold-thing"
        anchor = "func.func"
        summary = "Fold thing into other thing"
        limit: int = option(8, "largest extent to fold")

        def patterns(self):
            return [fold_thing_into_other.bind(limit=self.limit)]

An option typed by an ``Enum`` is a choice, checked when the pipeline is
parsed (``parse_option_value`` below). A ``PatternPass`` lists patterns; the engine runs them
with MLIR's greedy driver (or the walk driver) configured by options every
pattern pass has. A plain ``Pass`` implements ``run(op, ctx)`` instead. This
module imports no MLIR bindings, so declaring passes costs nothing until one
runs.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import functools
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from ..errors import PassOptionError
from ..syntax import split_list_value, split_option_text
from .fix import Fix
from .rewriting import Pattern

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


def option(default: Any, help: str = "") -> Any:
    """A pass option: a dataclass field with a default and a help line."""
    if isinstance(default, list):
        return dataclasses.field(default_factory=lambda: list(default), metadata={"help": help})
    return dataclasses.field(default=default, metadata={"help": help})


class PassContext:
    """Per-run services for a pass: diagnostics, statistics and the record of what it rewrote."""

    def __init__(self, pass_name: str, debug_patterns=None, stats=None, rename=None, rewrites=None):
        self.pass_name = pass_name
        self.rename = rename or {}  # file names in locations -> names to print
        self.debug_patterns = debug_patterns  # callable(line) or None
        self.stats = stats if stats is not None else {}
        self.rewrites = rewrites  # a list of Rewrite records when the caller asked for them, else None
        self.locate = str  # location -> printed (the engine prints them as diagnostics are)
        self.failed = False
        self.cache: dict = {}  # per pass run: e.g. frozen pattern sets shared by all anchor ops

    def rewrote(self, what: str, op):
        """Record that ``what`` rewrote ``op`` (for ``opt-py compile --fixes-report``): a plain pass calls
        it for each op it changes; the pattern driver records every pattern it applies."""
        if self.rewrites is not None:
            op = op.operation if hasattr(op, "operation") else op
            self.rewrites.append(Rewrite(self.pass_name, what, op.name, self.locate(op.location)))

    def emit_error(self, op_or_loc, message: str):
        """Emit an error at an op's location; the pass will fail."""
        loc = op_or_loc.location if hasattr(op_or_loc, "location") else op_or_loc
        loc.emit_error(message)
        self.failed = True

    def bump(self, stat: str, n: int = 1):
        self.stats[stat] = self.stats.get(stat, 0) + n


@dataclass(frozen=True)
class Rewrite:
    """One rewrite a pass made: by what (its pattern), of which op, where (a printed location)."""

    pass_name: str
    what: str
    op_name: str
    where: str


@dataclass(frozen=True)
class Pass:
    """Base of every Python pass. Subclasses set name/anchor/summary and fields."""

    name: ClassVar[str] = ""
    anchor: ClassVar[str] = "any"
    summary: ClassVar[str] = ""
    fix: ClassVar[Fix | None] = None  # for a fix among opt-py's own passes: where --fixes runs it

    def run(self, op, ctx: PassContext) -> None:  # pragma: no cover - abstract
        raise NotImplementedError(f"pass '{self.name}' declares no run()")

    # -- options -----------------------------------------------------------

    @classmethod
    def options(cls) -> list[tuple[str, str, type, Any, str]]:
        """(cli-name, field-name, type, default, help) for each option."""
        hints = typing.get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
            out.append((f.name.replace("_", "-"), f.name, hints[f.name], default, f.metadata.get("help", "")))
        return out

    @classmethod
    def from_options(cls, text: str) -> Pass:
        """Build the pass from MLIR pass-option text: ``a=1 b=true c=1,2``."""
        return cls.from_pairs(split_option_text(text))

    @classmethod
    def from_pairs(cls, pairs: Sequence[tuple[str, str]]) -> Pass:
        """Build the pass from option key/value text pairs, each value parsed by its field's type."""
        try:
            declared = cls.options()
        except Exception as e:  # noqa: BLE001 - a plugin's declaration bug, reported with its name
            raise PassOptionError(f"pass '{cls.name}' declares its options wrongly: {type(e).__name__}: {e}") from None
        known = {cli: (field, typ) for cli, field, typ, _, _ in declared}
        values = {}
        for key, raw in pairs:
            if key not in known:
                expected = ", ".join(sorted(known)) or "none"
                raise PassOptionError(f"pass '{cls.name}' has no option '{key}' (options: {expected})")
            field, typ = known[key]
            values[field] = parse_option_value(cls.name, key, typ, raw)
        try:
            return cls(**values)
        except Exception as e:  # noqa: BLE001 - e.g. a __post_init__ rejecting the values
            raise PassOptionError(f"pass '{cls.name}' cannot be built: {type(e).__name__}: {e}") from None

    def option_text(self) -> str:
        """The options as pass-option text, which ``from_options`` reads back to an equal pass."""
        return " ".join(f"{cli}={format_option_value(getattr(self, field))}" for cli, field, *_ in self.options())

    def __post_init__(self):
        """A choice given by its spelling (from Python: ``Pass(form="rank")``) becomes its Enum member,
        checked as the pipeline parser checks it."""
        for cli, field, typ in _choice_fields(type(self)):
            value = getattr(self, field)
            if not isinstance(value, typ):
                object.__setattr__(self, field, parse_option_value(self.name, cli, typ, str(value)))


@functools.cache
def _choice_fields(cls) -> tuple[tuple[str, str, type], ...]:
    """(cli-name, field-name, Enum) of each choice option of ``cls``."""
    return tuple((cli, field, typ) for cli, field, typ, _, _ in cls.options() if is_choice(typ))


class RegionSimplify(StrEnum):
    """The greedy driver's region simplification (MLIR's GreedySimplifyRegionLevel)."""

    DISABLED = "disabled"
    NORMAL = "normal"
    AGGRESSIVE = "aggressive"


@dataclass(frozen=True)
class PatternPass(Pass):
    """A pass made of rewrite patterns, applied by MLIR's greedy or walk driver.

    The driver's configuration is exposed as options. Folding, constant CSE
    and region simplification are off by default: a pattern pass does what its
    patterns say and nothing else (add ``canonicalize`` to the pipeline for
    the rest), which keeps lit tests about one rewrite at a time.
    """

    driver: ClassVar[str] = "greedy"  # or "walk"

    max_iterations: int = option(10, "greedy driver: iterations before giving up")
    max_num_rewrites: int = option(-1, "greedy driver: rewrites before giving up (-1: no limit)")
    fold: bool = option(False, "greedy driver: also fold ops")
    cse_constants: bool = option(False, "greedy driver: CSE constants while folding")
    top_down: bool = option(True, "greedy driver: visit ops top-down")
    region_simplify: RegionSimplify = option(RegionSimplify.DISABLED, "greedy driver: how far to simplify regions")

    def __post_init__(self):
        super().__post_init__()
        for opt in ("max_iterations", "max_num_rewrites"):
            if not -(2**63) <= getattr(self, opt) < 2**63:
                raise PassOptionError(f"pass '{self.name}': option '{opt.replace('_', '-')}' is out of range")

    def patterns(self) -> Sequence[Pattern]:  # pragma: no cover - abstract
        raise NotImplementedError

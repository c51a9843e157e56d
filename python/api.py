"""The pass-author API: declare a Python pass once, with its options.

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
            return [fold_thing_into_other]

A ``PatternPass`` runs its patterns with MLIR's greedy driver (or the walk
driver) and exposes the driver's configuration as options of its own. A plain
``Pass`` implements ``run(op, ctx)`` instead.

Patterns are plain functions ``fn(op, rewriter) -> bool``: True when they
rewrote, False/None for no match (``return rewriter.fail("why")`` records the
reason for ``--debug-patterns``). This module imports no MLIR bindings, so
declaring passes costs nothing until one runs.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import typing
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Sequence


class OptPyError(Exception):
    """A user-facing error: printed as ``opt-py: error: ...`` with exit 1."""


class PassOptionError(OptPyError):
    pass


def option(default: Any, help: str = "") -> Any:
    """A pass option: a dataclass field with a default and a help line."""
    if isinstance(default, list):
        return dataclasses.field(default_factory=lambda: list(default), metadata={"help": help})
    return dataclasses.field(default=default, metadata={"help": help})


# --------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    """A rewrite pattern: a pure function of (op, rewriter) rooted at an op name."""

    root: str
    fn: Callable[[Any, "Rewriter"], Any]
    name: str
    benefit: int = 1

    def __call__(self, op, rewriter):
        return self.fn(op, rewriter)


def pattern(root: str, *, benefit: int = 1, name: str | None = None):
    """Decorator: ``@pattern("tensor.collapse_shape")`` over ``fn(op, rewriter)``."""

    def wrap(fn):
        return Pattern(root=root, fn=fn, name=name or fn.__name__, benefit=benefit)

    return wrap


class PatternContractError(Exception):
    """A pattern broke the driver's contract (e.g. changed IR, reported no match)."""


class Rewriter:
    """What a pattern sees: MLIR's PatternRewriter plus bookkeeping.

    The bindings' rewriter offers only ``ip``, ``replace_op`` and ``erase_op``
    and does not report ops created under ``ip``. This wrapper forwards those
    and records whether the pattern erased or replaced anything, so a pattern
    that changed the IR but claims "no match" is caught instead of leaving the
    driver holding a dangling op.
    """

    __slots__ = ("_rw", "changed", "failure_reason")

    def __init__(self, rw=None):
        self.reset(rw)

    def reset(self, rw) -> "Rewriter":
        """Reuse for the next pattern call (one object per pass run, not per op)."""
        self._rw = rw
        self.changed = False
        self.failure_reason: str | None = None
        return self

    @property
    def ip(self):
        return self._rw.ip

    def replace_op(self, op, new_values_or_op):
        self.changed = True
        if not isinstance(new_values_or_op, (list, tuple)) and hasattr(new_values_or_op, "results"):
            new_values_or_op = list(new_values_or_op.results)
        self._rw.replace_op(_operation(op), list(new_values_or_op))

    def erase_op(self, op):
        self.changed = True
        self._rw.erase_op(_operation(op))

    def fail(self, reason: str) -> bool:
        """Record why the pattern did not match; returns False for ``return``."""
        self.failure_reason = reason
        return False

    notify_match_failure = fail


def _operation(op):
    return op.operation if hasattr(op, "operation") else op


# --------------------------------------------------------------------------
# Passes
# --------------------------------------------------------------------------


class PassContext:
    """Per-run services for a pass: diagnostics and statistics."""

    def __init__(self, pass_name: str, debug_patterns=None, stats=None, rename=None):
        self.pass_name = pass_name
        self.rename = rename or {}  # file names in locations -> names to print
        self.debug_patterns = debug_patterns  # callable(line) or None
        self.stats = stats if stats is not None else {}
        self.failed = False
        self.cache: dict = {}  # per pass run: e.g. frozen pattern sets shared by all anchor ops

    def emit_error(self, op_or_loc, message: str):
        """Emit an error at an op's location; the pass will fail."""
        loc = op_or_loc.location if hasattr(op_or_loc, "location") else op_or_loc
        loc.emit_error(message)
        self.failed = True

    def bump(self, stat: str, n: int = 1):
        self.stats[stat] = self.stats.get(stat, 0) + n


@dataclass(frozen=True)
class Pass:
    """Base of every Python pass. Subclasses set name/anchor/summary and fields."""

    name: ClassVar[str] = ""
    anchor: ClassVar[str] = "any"
    summary: ClassVar[str] = ""

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
    def from_options(cls, text: str) -> "Pass":
        """Build the pass from MLIR pass-option text: ``a=1 b=true c=1,2``."""
        try:
            declared = cls.options()
        except Exception as e:  # noqa: BLE001 - a plugin's declaration bug, reported with its name
            raise PassOptionError(f"pass '{cls.name}' declares its options wrongly: {type(e).__name__}: {e}") from None
        known = {cli: (field, typ) for cli, field, typ, _, _ in declared}
        values = {}
        for key, raw in split_option_text(text):
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
        parts = []
        for cli, field, typ, _, _ in self.options():
            v = getattr(self, field)
            if isinstance(v, bool):
                v = "true" if v else "false"
            elif isinstance(v, (list, tuple)):
                v = ",".join(str(x) for x in v)
            parts.append(f"{cli}={v}")
        return " ".join(parts)


def split_option_text(text: str) -> list[tuple[str, str]]:
    """Split ``a=1 b="x y" c={1,2}`` into key/value pairs, MLIR-style."""
    pairs = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            break
        start = i
        depth, quote = 0, None
        while i < n:
            c = text[i]
            if quote:
                if c == quote:
                    quote = None
            elif c in "\"'":
                quote = c
            elif c in "{[(":
                depth += 1
            elif c in "}])":
                depth -= 1
            elif c.isspace() and depth == 0:
                break
            i += 1
        if quote or depth:
            raise PassOptionError(f"unbalanced quotes or braces in options '{text}'")
        token = text[start:i]
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
    items, cur, quote, depth = [], [], None, 0
    for c in raw:
        if quote:
            if c == quote:
                quote = None
            else:
                cur.append(c)
            continue
        if c in "\"'":
            quote = c
        elif c in "{[(":
            depth += 1
            cur.append(c)
        elif c in "}])":
            depth -= 1
            cur.append(c)
        elif c == "," and depth == 0:
            items.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    items.append("".join(cur).strip())
    return [i for i in items if i]


_TRUE = {"true", "1", "on", "yes"}
_FALSE = {"false", "0", "off", "no"}


def parse_option_value(pass_name: str, key: str, typ, raw: str):
    def bad(expected):
        return PassOptionError(
            f"pass '{pass_name}': option '{key}' expects {expected}, got '{raw}'"
        )

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
            value = int(raw, 0)
        except ValueError:
            raise bad("an integer") from None
        if not -(2**63) <= value < 2**63:
            raise bad("a 64-bit integer")
        return value
    if typ is float:
        try:
            return float(raw)
        except ValueError:
            raise bad("a number") from None
    if typ is str:
        return raw
    if isinstance(typ, type) and hasattr(typ, "__members__"):  # Enum
        try:
            return typ[raw.replace("-", "_").upper()]
        except KeyError:
            choices = ", ".join(m.lower().replace("_", "-") for m in typ.__members__)
            raise bad(f"one of {choices}") from None
    raise bad(f"a value of type {typ}")


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
    region_simplify: str = option("disabled", "greedy driver: disabled, normal or aggressive")

    def __post_init__(self):
        if self.region_simplify.lower() not in ("disabled", "normal", "aggressive"):
            raise PassOptionError(
                f"pass '{self.name}': option 'region-simplify' expects one of disabled, normal, "
                f"aggressive, got '{self.region_simplify}'"
            )
        for opt in ("max_iterations", "max_num_rewrites"):
            if not -(2**63) <= getattr(self, opt) < 2**63:
                raise PassOptionError(f"pass '{self.name}': option '{opt.replace('_', '-')}' is out of range")

    def patterns(self) -> Sequence[Pattern]:  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, op, ctx: PassContext) -> None:
        from . import rewrite_driver

        rewrite_driver.apply_pattern_pass(self, op, ctx)

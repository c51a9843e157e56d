"""What a pattern author writes against: ``@pattern`` and the ``Rewriter``.

Patterns are plain functions ``fn(op, rewriter) -> bool``: True when they
rewrote, False/None for no match (``return rewriter.fail("why")`` records the
reason for ``--debug-patterns``). This module imports no MLIR bindings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pattern:
    """A rewrite pattern: a pure function of (op, rewriter) rooted at an op name.

    Keyword parameters of the function (``def fold(op, rewriter, partial=True)``)
    are bound from pass options with ``bind``, so one implementation serves
    every setting of an option.
    """

    root: str
    fn: Callable[..., Any]
    name: str
    benefit: int = 1
    params: tuple = ()  # (name, value) pairs bound by ``bind``

    def __call__(self, op, rewriter):
        return self.fn(op, rewriter, **dict(self.params))

    def bind(self, **params) -> Pattern:
        """The same pattern with keyword parameters fixed (from a pass's options)."""
        return dataclasses.replace(self, params=tuple({**dict(self.params), **params}.items()))


def pattern(root: str, *, benefit: int = 1, name: str | None = None):
    """Decorator: ``@pattern("tensor.collapse_shape")`` over ``fn(op, rewriter, **params)``."""

    def wrap(fn):
        return Pattern(root=root, fn=fn, name=name or fn.__name__, benefit=benefit)

    return wrap


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

    def reset(self, rw) -> Rewriter:
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

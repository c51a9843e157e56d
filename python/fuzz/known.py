"""IREE issues a bucket may be: the error text each is known by, found in IREE's tracker.

A bucket's signature (its normalised first error, or ``wrong`` and its ops)
is matched against these; the report names the first that matches, so a
bucket that is not here is new to the tracker as far as this table knows.
Each entry says how the issue was found (the search, its date) in its
``why``; add one when a campaign's bucket turns out to be a known bug.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Known:
    issue: str  # "iree-org/iree#NNNNN"
    pattern: str  # a regex over "SIGNATURE | ops: OP, OP"
    targets: tuple[str, ...] = ("cpu", "cuda", "rocm")
    fix: str = ""  # the opt-py pass that fixes it, if any
    why: str = ""


KNOWN: tuple[Known, ...] = (
    Known(
        "iree-org/iree#19898",
        r"tiling is not supported for the semi-affine indexing map",
        fix="rotation-map-to-slices",
        why="a linalg.generic reading an input through (d + c) mod n; docs/passes/rotation-map-to-slices.md",
    ),
)


def match(signature: str, ops, target: str) -> str:
    text = f"{signature} | ops: {', '.join(ops)}"
    for k in KNOWN:
        if target in k.targets and re.search(k.pattern, text):
            return k.issue + (f" (fixed by `{k.fix}`)" if k.fix else "")
    return "none found"

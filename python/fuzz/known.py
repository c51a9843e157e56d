"""Known issues a bucket may be: the error text each is known by, found in IREE's and torch-mlir's trackers.

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
    issue: str  # "iree-org/iree#NNNNN", "llvm/torch-mlir#NNNN"
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
    Known(
        "iree-org/iree#24180",
        r"buffer view byte length N exceeds backing buffer",
        targets=("cpu",),
        fix="abi-convert-demoted-tensors",
        why="f64 demoted to f32 inside the module but not at its ABI; the 2026-11-28 campaign's triage "
        "(docs/reports/fuzzing.md)",
    ),
    Known(
        "iree-org/iree#24735",
        r"(unbounded stack allocations|stack allocation size overflows|exceeded stack allocation limit)"
        r".*\| ops: .*\b(argsort|sort|topk\w*)\b",
        fix="argsort-indices-only",
        why="a sort's working copy on the stack, sized by a dynamic dim; the 2026-11-28 campaign's triage",
    ),
    Known(
        "llvm/torch-mlir#4578",
        r"left unconverted: .*torch\.aten\.logsumexp\b",
        fix="torch-decompose-logsumexp",
        why="logsumexp neither decomposed nor lowered; the 2026-11-28 campaign's triage",
    ),
    Known(
        "llvm/torch-mlir#4749",
        r"torch\.aten\.__and__\.Tensor",
        fix="torch-and-to-bitwise-and",
        why="__and__.Tensor has no lowering (an open PR); the 2026-11-28 campaign's triage",
    ),
)


def match(signature: str, ops, target: str) -> str:
    text = f"{signature} | ops: {', '.join(ops)}"
    for k in KNOWN:
        if target in k.targets and re.search(k.pattern, text):
            return k.issue + (f" (fixed by `{k.fix}`)" if k.fix else "")
    return "none found"

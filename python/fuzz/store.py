"""A campaign's folder: its files, its JSON lines, and the names of its buckets.

Read by the driver (``campaign.py``) and the report (``report.py``); written
by the driver alone. A line a killed campaign cut short is skipped on
reading and closed before the next is appended.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from . import tasks


@dataclass
class Paths:
    root: Path

    @property
    def config(self) -> Path:
        return self.root / "campaign.json"

    @property
    def results(self) -> Path:
        return self.root / "results.jsonl"

    @property
    def reductions(self) -> Path:
        return self.root / "reductions.jsonl"

    @property
    def buckets(self) -> Path:
        return self.root / "buckets"

    @property
    def report(self) -> Path:
        return self.root / "report.md"


# --------------------------------------------------------------------------
# The folder
# --------------------------------------------------------------------------


def read_jsonl(path: Path) -> list[dict]:
    """Every complete record; a line a killed campaign cut short is skipped."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def append_jsonl(path: Path, rec: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab+") as f:
        f.seek(0, os.SEEK_END)
        if f.tell():
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":  # the last line was cut short
                f.write(b"\n")
        f.write((json.dumps(rec, default=_plain) + "\n").encode())


def _plain(x):
    import numpy as np

    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"{type(x).__name__} is not JSON")


# --------------------------------------------------------------------------
# Signatures and buckets
# --------------------------------------------------------------------------


def failures(rec: dict) -> list[str]:
    """The sides of a seed's record that failed (stock first)."""
    return [s for s, o in rec.get("sides", {}).items() if tasks.failing(o) and o.get("outcome") != "invalid"]


def first_signature(rec: dict, side: str) -> str:
    """What decides whether a failure is reduced: the side, its signature, and for wrong numbers the op
    that made the first wrong output (reduction tells the rest)."""
    o = rec["sides"][side]
    sig = tasks.signature(o)
    if sig == "wrong" and rec.get("program"):
        outs = rec["program"]["outputs"]
        k = (o.get("wrong_outputs") or [0])[0]
        ops = {n["id"]: n["op"] for n in rec["program"]["nodes"]}
        sig += f" at {ops.get(outs[k], 'an input') if k < len(outs) else '?'}"
    return f"{side}: {sig}"


def bucket_key(red: dict) -> str:
    sig = red["signature"]
    if sig == "wrong":
        sig += " | " + ", ".join(sorted(set(red["ops"])))
    return sig


def bucket_name(key: str) -> str:
    digest = hashlib.sha1(key.encode()).hexdigest()[:8]
    words = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")[:48].strip("-")
    return f"{words}-{digest}"

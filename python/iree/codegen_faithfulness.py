"""Is ``--inject-codegen`` exactly stock when the injected pipeline changes nothing?

For a program, a target and an injection point, compile twice: stock, and
with ``test-nothing`` (a Python pass whose run() returns at once) injected at
the point; compare the executables IREE dumps
(``--iree-hal-dump-executable-intermediates-to``): the instructions of the
CPU ``.s`` files, the PTX text for cuda, the AMDGPU assembly for rocm, each
without comments and debug lines and with functions renamed by position.

Outcomes: ``identical``; ``different``; ``refused`` (opt-py said the point
cannot be replayed faithfully, naming it); ``failed`` (anything else - a
defect, reported with its message).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..authoring import Pass
from ..errors import CodegenError
from .codegen_lowering import CodegenInjection, FunctionLowering, discover, pass_name
from .codegen_replay import UNFAITHFUL_MARK

NOTHING = "test-nothing"


class Nothing(Pass):
    """Leaves the IR alone: the pipeline injected by the faithfulness checks."""

    name = NOTHING
    anchor = "any"
    summary = "does nothing (codegen faithfulness checks)"

    def run(self, op, ctx) -> None:
        return None


TOUCH = "test-touch"


class Touch(Pass):
    """Changes the IR without changing what it computes: an unused constant at the
    function's entry. A function whose IR changed is replayed after the point, so
    this is what checks the replay (``Nothing`` leaves the function to IREE)."""

    name = TOUCH
    anchor = "func.func"
    summary = "adds an unused constant to each function (codegen faithfulness checks)"

    def run(self, op, ctx) -> None:
        from iree.compiler import ir
        from iree.compiler.dialects import arith

        block = op.regions[0].blocks[0]
        with ir.InsertionPoint.at_block_begin(block), op.location:
            arith.constant(ir.IndexType.get(), 0)


def register_nothing() -> None:
    """Register the check passes (``Nothing``, ``Touch``) once per process."""
    from ..errors import PassRegistrationError
    from ..pipeline.registry import register_pass

    for cls in (Nothing, Touch):
        try:
            register_pass(cls)
        except PassRegistrationError:
            pass  # registered already by an earlier call in this process


_SUFFIX = {"cpu": ".s", "cuda": ".ptx", "rocm": ".rocmasm"}


def executable_code(dump_dir: str, target_name: str) -> list[str]:
    """Normalized code of every executable dumped into ``dump_dir``."""
    out = []
    files = sorted(Path(dump_dir).glob("*" + _SUFFIX[target_name]))
    if not files:
        raise RuntimeError(f"no {_SUFFIX[target_name]} file dumped in {dump_dir}")
    for p in files:
        out.append(f"== {p.name}")
        out += _normalize(p.read_text(), target_name)
    return out


def _normalize(text: str, target_name: str) -> list[str]:
    if target_name == "cpu":
        names = re.findall(r"^\s*\.type\s+([^,\s]+),@function", text, re.M)
        lines = [ln.strip() for ln in text.splitlines() if ln.startswith("\t") and not ln.lstrip().startswith(".")]
    elif target_name == "cuda":
        names = re.findall(r"\.entry\s+([\w$.]+)", text) + re.findall(r"\.func\s+(?:\([^)]*\)\s*)?([\w$.]+)", text)
        lines = [ln.split("//", 1)[0].rstrip() for ln in text.splitlines()]
        lines = [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith((".loc", ".file"))]
    else:
        names = re.findall(r"^\s*\.type\s+([^,\s]+),@function", text, re.M)
        lines = [ln.split(";", 1)[0].rstrip() for ln in text.splitlines()]
        lines = [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith((".loc", ".file"))]
    if not names:
        return lines
    rename = {n: f"fn{i}" for i, n in enumerate(dict.fromkeys(names))}
    symbol = re.compile(
        r"(?<![\w.$])(" + "|".join(map(re.escape, sorted(rename, key=len, reverse=True))) + r")(?![\w.$])"
    )
    return [symbol.sub(lambda m: rename[m.group(1)], ln) for ln in lines]


@dataclass
class Outcome:
    kind: str  # identical | different | refused | failed
    detail: str = ""


def compile_code(path: str, target, codegen=()) -> tuple[list[str] | None, list[str]]:
    """(normalized code or None, messages) of ``path`` compiled for ``target``."""
    from .phases import compile_with_injections

    with tempfile.TemporaryDirectory() as dump:
        res = compile_with_injections(
            path,
            [
                *target.compile_flags,
                f"--iree-hal-dump-executable-intermediates-to={dump}",
                f"--iree-hal-dump-executable-binaries-to={dump}",
            ],
            [],
            codegen_injections=[CodegenInjection.parse(c) for c in codegen],
        )
        if not res.ok:
            return None, res.messages
        return executable_code(dump, target.name), res.messages


def lowering_of_program(path: str, iree_flags: list[str]) -> dict[str, FunctionLowering]:
    """``discover`` for a program at input level."""
    from .phases import compile_with_injections

    res = compile_with_injections(path, list(iree_flags), [], compile_to="executable-configurations")
    if not res.ok:
        raise CodegenError("\n".join(res.messages))
    return discover(res.output.decode(), iree_flags)


def codegen_points(path: str, target) -> list[str]:
    """Every splice position of every dispatch function, as injection points:
    ``before:`` the first pass, then ``after:P#n`` for each pass occurrence
    (``before:Q`` is the same splice as ``after:`` the pass preceding Q)."""
    from iree.compiler import ir

    with ir.Context():
        lowered = lowering_of_program(path, list(target.compile_flags))
    points: list[str] = []
    for low in lowered.values():
        if low.failed_at:
            raise CodegenError(f"IREE's own lowering fails at {low.failed_at}")
        seen: dict[str, int] = {}
        if low.passes:
            points.append(f"before:{pass_name(low.passes[0])}#1")
        for p in low.passes:
            n = seen[pass_name(p)] = seen.get(pass_name(p), 0) + 1
            points.append(f"after:{pass_name(p)}#{n}")
    return list(dict.fromkeys(points))


def check_point(path: str, target, point: str, stock: list[str], pipeline: str = NOTHING) -> Outcome:
    code, messages = compile_code(path, target, [f"{point}:{pipeline}"])
    if code is None:
        text = "\n".join(messages)
        if UNFAITHFUL_MARK in text:
            return Outcome("refused", _last_error(text))
        return Outcome("failed", _last_error(text))
    if code == stock:
        return Outcome("identical")
    return Outcome("different", _first_difference(stock, code))


def _last_error(text: str) -> str:
    errs = [ln for ln in text.splitlines() if "error" in ln]
    return (errs[-1] if errs else text.strip().splitlines()[-1] if text.strip() else "?")[:300]


def _first_difference(a: list[str], b: list[str]) -> str:
    import difflib

    diff = [
        ln for ln in difflib.unified_diff(a, b, lineterm="", n=0) if ln[:1] in "+-" and ln[:3] not in ("+++", "---")
    ]
    return f"{len(diff)} lines differ; first: " + " | ".join(diff[:4])

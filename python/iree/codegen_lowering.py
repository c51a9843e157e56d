"""IREE's code generation of each dispatch function, read from outside.

IREE lowers a dispatch function with a pipeline it picks at run time from the
function's ``translation_info``, built in C++ and run inside an opaque
``iree-*-lower-executable-target`` pass. What it runs and what the function
looks like at a point are read from IREE's own IR dumps: ``discover`` reads
the pass sequence off the dump headers of a compile with
``--mlir-print-ir-after-all --mlir-print-skip-regions`` (a function whose
lowering fails is reported, not guessed); ``lowering_dumps`` gives the
function's IR, generic and with locations, before or after named passes.
``CodegenInjection`` names a point among those passes (``split_points``).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import ClassVar

from ..errors import CodegenError
from . import points
from .points import PointInjection

START_MARKER = "iree-codegen-lower-executable-using-transform-dialect"
END_MARKERS = (
    "iree-llvmcpu-lower-executable-target",
    "iree-llvmgpu-lower-executable-target",
    "iree-spirv-lower-executable-target-pass",
    "iree-vmvx-lower-executable-target",
)
_HEADER = re.compile(r"^// -----// IR Dump (After|Before) (\S+)(?: Failed)?: (.*) //----- //$")
_FUNC_LINE = re.compile(r"^func\.func (?:\w+ )?@([\w$.\-]+)")
_SYM_NAME = re.compile(r'sym_name = "([^"]+)"')


@dataclass
class CodegenInjection(PointInjection):
    """A point among a dispatch function's codegen passes (``--inject-codegen``)."""

    FLAG: ClassVar[str] = "--inject-codegen"
    ERROR: ClassVar[type[Exception]] = CodegenError
    ops: frozenset[str] | None = None  # an opt-py fix: runs only where one of these ops is in the module


@dataclass
class FunctionLowering:
    """What IREE ran on one dispatch function."""

    name: str
    passes: list[str] = field(default_factory=list)  # textual pass, options included
    failed_at: str | None = None  # the pass that failed, when discovery did not finish


def pass_name(pass_text: str) -> str:
    return pass_text.split("{", 1)[0]


def split_points(passes: list[str], inj: CodegenInjection) -> list[int]:
    """Indices in ``passes`` where the injected pipeline runs."""
    return points.split_points([pass_name(p) for p in passes], inj)


def point_text(low: FunctionLowering, at: int) -> str:
    """Splice ``at`` of ``low``'s passes as an injection point names it."""
    return points.point_name([pass_name(p) for p in low.passes], at)


def selectable(name: str) -> bool:
    """Whether ``--mlir-print-ir-after/before=name`` can select the pass: it has a
    textual registration (``fold-tensor-subset-ops``, added in C++ by
    ``tensor::createFoldTensorSubsetOpsPass()``, has none; naming it makes
    iree-compile stop with "Cannot find option named ...")."""
    from ..pipeline.cpp import cpp_probe

    return cpp_probe(name) is None


def dispatch_functions(module) -> dict[str, object]:
    """func.func ops inside hal.executable variants, by symbol name."""
    from ..run.placement import find_anywhere

    found = {}
    for f in find_anywhere(module, ("func.func",)):
        if "translation_info" not in f.attributes:
            continue
        name = f.attributes["sym_name"].value
        if name in found:
            raise CodegenError(f"two dispatch functions are named '@{name}'; cannot tell their lowerings apart")
        found[name] = f
    return found


# --------------------------------------------------------------------------
# Discovery: the passes each function's lowering runs
# --------------------------------------------------------------------------

_discovered: dict = {}


def discover(module, iree_flags: list[str]) -> dict[str, FunctionLowering]:
    """Pass sequences IREE's codegen runs per dispatch function of ``module``.

    ``module`` is the program at ``executable-configurations`` (or its text).
    The last few answers are kept: the same program is often lowered again.
    """
    text = module if isinstance(module, str) else module.get_asm(assume_verified=True)
    iree_flags = _without_dump_flags(iree_flags)
    key = (text, tuple(iree_flags))
    if key not in _discovered:
        if len(_discovered) > 8:
            _discovered.clear()
        _discovered[key] = _discover(text, iree_flags)
    return _discovered[key]


def _discover(text: str, iree_flags: list[str]) -> dict[str, FunctionLowering]:
    proc = _compile_codegen(text, iree_flags, ["--mlir-print-ir-after-all", "--mlir-print-skip-regions"])
    return parse_dump_headers(proc.stderr, compile_failed=proc.returncode != 0)


def parse_dump_headers(stderr: str, compile_failed: bool = False) -> dict[str, FunctionLowering]:
    lowered: dict[str, FunctionLowering] = {}
    lines = stderr.splitlines()
    inside = False
    last = None
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if not m:
            continue
        text = m.group(3).strip()
        name = pass_name(text)
        if name == START_MARKER or name in END_MARKERS:
            inside = name == START_MARKER
            continue
        fm = _FUNC_LINE.match(lines[i + 1]) if inside and i + 1 < len(lines) else None
        if fm is None:
            continue
        fn = lowered.setdefault(fm.group(1), FunctionLowering(fm.group(1)))
        if line.rstrip().endswith("//----- //") and " Failed: " in line:
            fn.failed_at = text
        else:
            fn.passes.append(text)
        last = fn
    if compile_failed and inside and last is not None and last.failed_at is None:
        last.failed_at = "(a pass after the last one shown)"
    return lowered


# --------------------------------------------------------------------------
# The function's IR at a point, as IREE's lowering prints it
# --------------------------------------------------------------------------


def lowering_dumps(module, iree_flags, print_flags: list[str]):
    """(function, "before"/"after", pass, occurrence, generic text) of each function dump
    IREE's own lowering prints with ``print_flags``; and iree-compile's error, None if it succeeded."""
    markers = ",".join(sorted({START_MARKER, *END_MARKERS}))
    proc = _compile_codegen(
        module.get_asm(assume_verified=True, enable_debug_info=True),  # the source locations kept
        iree_flags,
        [
            f"--mlir-print-ir-after={markers}",
            *print_flags,
            "--mlir-print-op-generic",
            "--mlir-print-debuginfo",
            "--mlir-print-local-scope",
        ],
    )
    dumps = []
    counts: dict[tuple, int] = {}
    for where, name, text in _parse_dumps(proc.stderr):
        head = text[:4000]
        if not head.lstrip().startswith('"func.func"'):
            continue
        symbols = _SYM_NAME.findall(text[: text.find("({")] if "({" in text else head)
        if not symbols:
            continue
        key = (symbols[-1], where, name)
        counts[key] = counts.get(key, 0) + 1
        dumps.append((*key, counts[key], text))
    error = None
    if proc.returncode != 0:
        errs = [ln.strip() for ln in proc.stderr.splitlines() if "error" in ln.lower() or "Cannot find" in ln]
        error = (errs[-1] if errs else "failed")[:200]
    return dumps, error


def _parse_dumps(stderr: str):
    """(``before`` or ``after``, pass name, op text) of each IR dump between the codegen markers."""
    inside = False
    header = None
    body: list[str] = []
    for line in stderr.splitlines(keepends=True):
        m = _HEADER.match(line.rstrip("\n"))
        if m:
            if header is not None and inside:
                yield (*header, "".join(body))
            name = pass_name(m.group(3).strip())
            when = m.group(1).lower()
            if when == "after" and name == START_MARKER:
                inside, header = True, None
            elif when == "after" and name in END_MARKERS:
                inside, header = False, None
            else:
                header = (when, name)
            body = []
        elif header is not None:
            body.append(line)
    if header is not None and inside:
        yield (*header, "".join(body))


def _without_dump_flags(iree_flags) -> list[str]:
    return [f for f in iree_flags if not f.startswith("--iree-hal-dump-executable-")]


def _compile_codegen(text: str, iree_flags, print_flags: list[str]) -> subprocess.CompletedProcess:
    """iree-compile of ``text`` from executable-configurations to executable-targets, output
    dropped, printing what ``print_flags`` ask (on stderr), on one thread."""
    from iree.compiler.tools.binaries import find_tool

    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=True) as f:
        f.write(text)
        f.flush()
        return subprocess.run(
            [
                find_tool("iree-compile"),
                f.name,
                "-o",
                "/dev/null",
                *_without_dump_flags(iree_flags),
                "--compile-from=executable-configurations",
                "--compile-to=executable-targets",
                *print_flags,
                "--mlir-disable-threading",
            ],
            capture_output=True,
            text=True,
            check=False,
        )

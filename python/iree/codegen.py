"""Python passes inside IREE's code generation of each dispatch function.

IREE lowers a dispatch function with a pipeline chosen at run time from its
``translation_info`` (for example ``#iree_cpu.pipeline<DoubleTilingExpert>``)
and run by ``iree-*-lower-executable-target`` inside an opaque
``iree-op-pipeline-adaptor``; no textual pipeline names those passes, so
nothing can be inserted into it from outside. opt-py therefore:

1. *discovers* the pass sequence IREE runs on each dispatch function: the
   module at ``executable-configurations`` is compiled to
   ``executable-targets`` by ``iree-compile`` with the same flags and
   ``--mlir-print-ir-after-all --mlir-print-skip-regions``; the dump headers
   of function-level passes between ``lower-executable-using-transform-dialect``
   and ``*-lower-executable-target`` are that sequence, with their options;
2. *replays* the sequence on each function in process, running the injected
   pipeline (Python and C++ passes) before or after the named pass;
3. sets the function's pipeline to the empty ``#iree_codegen.pass_pipeline<"">``
   so IREE's adaptor does nothing more to it, and lets IREE finish the
   variant (LLVM conversion, linking, serialization) as usual.

Supported: every pipeline of the ``llvm-cpu``, ``cuda`` and ``rocm`` targets
whose lowering of the *unmodified* program runs to the end (discovery needs
to see every pass); a function whose discovery fails is reported, not
guessed. ``opt-py compile --list-codegen-passes`` prints the insertion points.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field

from ..errors import CodegenError
from ..syntax import value_end

START_MARKER = "iree-codegen-lower-executable-using-transform-dialect"
END_MARKERS = (
    "iree-llvmcpu-lower-executable-target",
    "iree-llvmgpu-lower-executable-target",
    "iree-spirv-lower-executable-target-pass",
    "iree-vmvx-lower-executable-target",
)
EMPTY_PIPELINE = '#iree_codegen.pass_pipeline<"">'
_HEADER = re.compile(r"^// -----// IR Dump After (\S+)(?: Failed)?: (.*) //----- //$")
_FUNC_LINE = re.compile(r"^func\.func (?:\w+ )?@([\w$.\-]+)")


@dataclass
class CodegenInjection:
    """``before:PASS[#N]:PIPELINE`` or ``after:PASS[#N]:PIPELINE``."""

    where: str
    pass_name: str
    occurrence: int  # 1-based; 0 means every occurrence
    pipeline: str

    @classmethod
    def parse(cls, spec: str) -> "CodegenInjection":
        parts = spec.split(":", 2)
        if len(parts) != 3 or parts[0] not in ("before", "after") or not parts[1] or not parts[2].strip():
            raise CodegenError(
                f"malformed --inject-codegen '{spec}': expected before:PASS:PIPELINE or after:PASS:PIPELINE "
                "(PASS may end in #N for its N-th occurrence, #* for every one)"
            )
        name, _, nth = parts[1].partition("#")
        if nth in ("", "1"):
            occurrence = 1
        elif nth == "*":
            occurrence = 0
        elif nth.isdigit() and int(nth) > 0:
            occurrence = int(nth)
        else:
            raise CodegenError(f"malformed occurrence '#{nth}' in --inject-codegen '{spec}'")
        return cls(parts[0], name, occurrence, parts[2].strip())


@dataclass
class FunctionLowering:
    """What IREE ran on one dispatch function."""

    name: str
    passes: list[str] = field(default_factory=list)  # textual pass, options included
    failed_at: str | None = None  # the pass that failed, when discovery did not finish


def pass_name(pass_text: str) -> str:
    return pass_text.split("{", 1)[0]


def discover(module, iree_flags: list[str]) -> dict[str, FunctionLowering]:
    """Pass sequences IREE's codegen runs per dispatch function of ``module``.

    ``module`` is the program at ``executable-configurations``.
    """
    from iree.compiler.tools.binaries import find_tool

    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=True) as f:
        f.write(module.get_asm(assume_verified=True))
        f.flush()
        proc = subprocess.run(
            [find_tool("iree-compile"), f.name, "-o", "/dev/null", *iree_flags,
             "--compile-from=executable-configurations", "--compile-to=executable-targets",
             "--mlir-print-ir-after-all", "--mlir-print-skip-regions",
             "--mlir-disable-threading"],
            capture_output=True, text=True, check=False,
        )
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
        text = m.group(2).strip()
        name = pass_name(text)
        if name == START_MARKER:
            inside = True
            continue
        if name in END_MARKERS:
            inside = False
            continue
        if not inside:
            continue
        fm = _FUNC_LINE.match(lines[i + 1]) if i + 1 < len(lines) else None
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


def split_points(passes: list[str], inj: CodegenInjection) -> list[int]:
    """Indices in ``passes`` where the injected pipeline runs."""
    hits = [i for i, p in enumerate(passes) if pass_name(p) == inj.pass_name]
    if inj.occurrence:
        hits = hits[inj.occurrence - 1 : inj.occurrence]
    return [i if inj.where == "before" else i + 1 for i in hits]


def replay_pipeline_text(passes: list[str], injections: list[CodegenInjection]) -> str | None:
    """``func.func(...)`` running IREE's passes with the injections spliced in, or None."""
    inserts: dict[int, list[str]] = {}
    for inj in injections:
        for at in split_points(passes, inj):
            inserts.setdefault(at, []).append(inj.pipeline)
    if not inserts:
        return None
    items: list[str] = []
    for i in range(len(passes) + 1):
        items.extend(inserts.get(i, []))
        if i < len(passes):
            items.append(passes[i])
    return "func.func(" + ",".join(items) + ")"


def without_pipeline(translation_info: str) -> str:
    """The translation_info text with its pipeline replaced by the empty one."""
    start = translation_info.find("pipeline = ")
    if start < 0:
        raise CodegenError(f"no pipeline in {translation_info}")
    i = start + len("pipeline = ")
    j = value_end(translation_info, i)
    return translation_info[:i] + EMPTY_PIPELINE + translation_info[j:]


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


def inject_into_codegen(module, iree_flags, injections, run_plan, report) -> list[str]:
    """Replay IREE's codegen with the injections on every dispatch function.

    ``run_plan(pipeline_text, op) -> bool`` runs an opt-py pipeline on an op;
    ``report(line)`` receives warnings. Returns the names of the functions
    replayed. Raises CodegenError when a function cannot be replayed.
    """
    from iree.compiler import ir

    lowered = discover(module, iree_flags)
    replayed = []
    for name, func in dispatch_functions(module).items():
        low = lowered.get(name)
        if low is None:
            report(f"opt-py: warning: no codegen passes were seen for '@{name}'; left to IREE")
            continue
        text = replay_pipeline_text(low.passes, injections)
        if text is None:
            continue  # no injection point in this function's pipeline
        if low.failed_at is not None:
            raise CodegenError(
                f"IREE's own lowering of '@{name}' fails at '{low.failed_at}', so the passes after it "
                "cannot be discovered; codegen injection needs the unmodified lowering to finish"
            )
        if not run_plan(text, func):
            raise CodegenError(f"replaying the codegen pipeline of '@{name}' with the injections failed")
        info = str(func.attributes["translation_info"])
        func.attributes["translation_info"] = ir.Attribute.parse(without_pipeline(info))
        replayed.append(name)
    return replayed


def list_codegen_passes(module, iree_flags) -> str:
    lowered = discover(module, iree_flags)
    out = []
    for name, func in dispatch_functions(module).items():
        info = str(func.attributes["translation_info"])
        out.append(f"@{name}  {info}")
        low = lowered.get(name)
        if low is None:
            out.append("  (no codegen passes seen)")
            continue
        for i, p in enumerate(low.passes, start=1):
            out.append(f"  {i:3d}. {p}")
        if low.failed_at:
            out.append(f"  FAILED at {low.failed_at}: later passes unknown")
    return "\n".join(out)

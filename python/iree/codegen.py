"""Python passes inside IREE's code generation of each dispatch function.

IREE lowers a dispatch function with a pipeline chosen at run time from its
``translation_info`` (for example ``#iree_cpu.pipeline<DoubleTilingExpert>``),
built in C++ and run by ``iree-*-lower-executable-target`` inside an opaque
``iree-op-pipeline-adaptor``; nothing can be inserted into it from outside.

The contract: injecting a pipeline that changes nothing gives exactly stock
IREE's executable (same machine code / PTX / AMDGPU assembly); a point where
that cannot be guaranteed is refused with an error naming it.

Why not rebuild the whole pipeline from the pass names IREE's IR dumps show
(the first design): the dumps show each pass's *textual* options only, and
some passes get C++ state from IREE's pipeline builders. Rebuilt from text,
``iree-codegen-iree-comprehensive-bufferize`` loses its allocation and copy
functions (Common/CPU/Passes.cpp ``cpuAllocationFn``: ``memref.alloca``,
hoisted; LLVMGPU/Passes.cpp ``gpuAllocationFn`` / ``gpuRequireMemSpaceAllocationFn``:
private ``alloca`` / workgroup ``alloc``, and ``memref.copy`` with barriers)
and allocates on the heap: the CPU ELF imports ``malloc`` and does not load,
ROCm fails on a private-memory ``free``, CUDA calls device ``malloc``. Some
recorded passes have no textual registration at all (``fold-tensor-subset-ops``,
added by ``tensor::createFoldTensorSubsetOpsPass()`` on VectorDistribute).
No textual flag or pass option selects those functions, and the transform op
``transform.iree.bufferize`` uses yet other ones (no hoisting, workgroup
memory everywhere on GPU), so neither is a substitute.

The design, in two halves around the first injection point of a function:

1. *Hand-over* (``capture``): up to the point nothing is replayed. IREE
   itself compiles the module from ``executable-configurations`` to
   ``executable-targets`` printing, after the pass that precedes the point,
   the function in generic form with locations; that text replaces the
   function. The prefix is IREE's own, C++ state included. (``dense_resource``
   constants, which dumps name but do not carry, are pointed back at the
   module's own blobs.) A pass without a textual registration cannot be named
   to ``--mlir-print-ir-after``; the IR after it is then printed *before* the
   pass that follows it (``capture_spec``), and where that cannot be named
   either, or there is none, the point is refused.
2. *Faithful suffix* (``faithful_suffix``): the passes after the point are
   replayed from their recorded text, the injected pipelines spliced in, with
   one exception: a run of passes that is exactly the expansion of a pipeline
   IREE registers from its own builder (``REGISTERED_BLOCKS``:
   ``iree-codegen-llvmcpu-bufferization-pipeline`` = ``addCPUBufferizePasses``,
   ``iree-codegen-llvmgpu-bufferization-pipeline`` = LLVMGPU ``addBufferizePasses``;
   the expansion is compared text for text at run time) runs as that
   pipeline, with the right allocation functions. Any other pass in the
   suffix must rebuild from text alone: a pass with C++ state (``CPP_STATE``)
   or without a textual registration makes the point *refused*, naming the
   pass and the point (the fix: inject after that pass).

Where a function has one injection point and the injected pipeline leaves
the captured IR exactly as it was (a check that passes, patterns with nothing
to match), nothing is replayed at all: the function is left to IREE whole,
so the executable is stock's by construction, at any point the IR can be
captured at, refused or not (only a point between two passes without textual
registration, or after such a last pass, cannot be; the swept programs
have none).

3. The function's pipeline becomes ``#iree_codegen.pass_pipeline<"">`` and IREE
   finishes the variant (LLVM conversion, linking, serialization) as usual.

What is refused, then (only when the pipeline changed the function): on CPU
(and LLVMGPU pipelines using ``addBufferizePasses``) only the two points
inside the bufferization block before the bufferize pass
(after ``iree-eliminate-empty-tensors`` / ``empty-tensor-to-alloc-tensor``);
on the GPU TileAndFuse and VectorDistribute pipelines (``addGPUBufferizePasses``,
not registered) every point before ``iree-codegen-iree-comprehensive-bufferize``.
Points after it are handed over and work. ``tools/sweep_codegen_faithfulness.py``
measures the contract on the test programs.

Discovery (``discover``) reads the pass sequence off the dump headers of the
same compile with ``--mlir-print-ir-after-all --mlir-print-skip-regions``;
a function whose own lowering fails is reported, not guessed. It is a
compile of its own, so a single point naming a registered pass (what
``--fixes`` injects on GPUs) is captured first with ``--mlir-print-ir-before``
/ ``-after`` alone, and discovery runs only if the pipeline changed a
function: the common case, a fix with nothing to match, costs one extra
compile instead of two.
``opt-py compile --list-codegen-passes`` prints the insertion points.
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
_HEADER = re.compile(r"^// -----// IR Dump (After|Before) (\S+)(?: Failed)?: (.*) //----- //$")
_FUNC_LINE = re.compile(r"^func\.func (?:\w+ )?@([\w$.\-]+)")


UNFAITHFUL_MARK = "cannot be replayed faithfully"
UNNAMABLE_NOTE = (
    "(no textual registration: the IR after it is taken before the next pass; "
    "a changed function is not replayed across it)"
)


@dataclass
class CodegenInjection:
    """``before:PASS[#N]:PIPELINE`` or ``after:PASS[#N]:PIPELINE``."""

    where: str
    pass_name: str
    occurrence: int  # 1-based; 0 means every occurrence
    pipeline: str

    @classmethod
    def parse(cls, spec: str) -> CodegenInjection:
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


_discovered: dict = {}


def discover(module, iree_flags: list[str]) -> dict[str, FunctionLowering]:
    """Pass sequences IREE's codegen runs per dispatch function of ``module``.

    ``module`` is the program at ``executable-configurations`` (or its text).
    The last few answers are kept: the same program is often lowered again.
    """
    text = module if isinstance(module, str) else module.get_asm(assume_verified=True)
    iree_flags = [f for f in iree_flags if not f.startswith("--iree-hal-dump-executable-")]
    key = (text, tuple(iree_flags))
    if key not in _discovered:
        if len(_discovered) > 8:
            _discovered.clear()
        _discovered[key] = _discover(text, iree_flags)
    return _discovered[key]


def _discover(text: str, iree_flags: list[str]) -> dict[str, FunctionLowering]:
    from iree.compiler.tools.binaries import find_tool

    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=True) as f:
        f.write(text)
        f.flush()
        proc = subprocess.run(
            [
                find_tool("iree-compile"),
                f.name,
                "-o",
                "/dev/null",
                *iree_flags,
                "--compile-from=executable-configurations",
                "--compile-to=executable-targets",
                "--mlir-print-ir-after-all",
                "--mlir-print-skip-regions",
                "--mlir-disable-threading",
            ],
            capture_output=True,
            text=True,
            check=False,
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
        text = m.group(3).strip()
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


# --------------------------------------------------------------------------
# Faithful replay
# --------------------------------------------------------------------------

# Registered pipelines that IREE's own pipeline builders expand, with the C++
# state (allocation and copy functions) their textual expansion does not show.
# Source: compiler/src/iree/compiler/Codegen/LLVMCPU/Passes.cpp (every CPU
# pipeline calls addCPUBufferizePasses, registered as the first) and
# LLVMGPU/Passes.cpp (addBufferizePasses, registered as the second).
REGISTERED_BLOCKS = (
    "iree-codegen-llvmcpu-bufferization-pipeline",
    "iree-codegen-llvmgpu-bufferization-pipeline",
)

# Passes whose textual form loses what IREE's builders give them in C++.
CPP_STATE = {
    "iree-codegen-iree-comprehensive-bufferize": "IREE builds it in C++ with the target's allocation and copy functions (alloca / workgroup and "
    "private memory), which no textual pipeline carries; rebuilt from its name it allocates on the heap",
}


def _split_pipeline(text: str) -> list[str]:
    """Top-level items of a comma-separated pass list (braces, quotes respected)."""
    items, depth, quote, cur = [], 0, False, []
    for c in text:
        if c == '"':
            quote = not quote
        elif not quote and c in "{(":
            depth += 1
        elif not quote and c in "})":
            depth -= 1
        if c == "," and depth == 0 and not quote:
            items.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        items.append("".join(cur).strip())
    return items


_block_cache: dict = {}


def registered_blocks() -> dict[str, list[str]]:
    """Each registered pipeline's expansion, as the pass texts the dumps show."""
    from iree.compiler import ir, passmanager

    if not _block_cache:
        with ir.Context():
            for name in REGISTERED_BLOCKS:
                text = str(passmanager.PassManager.parse(f"builtin.module(func.func({name}))"))
                inner = text[len("builtin.module(func.func(") : -2]
                _block_cache[name] = _split_pipeline(inner)
    return _block_cache


def _unbuildable(pass_text: str) -> str | None:
    """Why ``pass_text`` cannot be rebuilt from text, or None."""
    from ..pipeline.cpp import cpp_probe

    problem = cpp_probe(pass_text)
    if problem is not None:
        return f"it has no textual registration ({problem.splitlines()[0][:160]})"
    return CPP_STATE.get(pass_name(pass_text))


def _point_text(low: FunctionLowering, at: int) -> str:
    if at == 0:
        return f"before:{pass_name(low.passes[0])}" if low.passes else "the start"
    name = pass_name(low.passes[at - 1])
    n = sum(1 for p in low.passes[:at] if pass_name(p) == name)
    return f"after:{name}#{n}"


def faithful_suffix(low: FunctionLowering, start: int, splices: dict[int, list[str]]) -> list[str]:
    """Items replaying ``low.passes[start:]`` exactly, injected pipelines spliced in.

    A contiguous run of passes that is the expansion of a registered pipeline
    (REGISTERED_BLOCKS), with no splice strictly inside, runs as that pipeline:
    IREE's own builder, C++ state included. Any other pass must rebuild from
    its text alone, or the point is refused (CodegenError with UNFAITHFUL_MARK).
    """
    passes = low.passes
    blocks = registered_blocks()
    items: list[str] = []
    i = start
    while i <= len(passes):
        items.extend(splices.get(i, []))
        if i == len(passes):
            break
        for name, seq in blocks.items():
            n = len(seq)
            if passes[i : i + n] == seq and not any(i < k < i + n for k in splices):
                items.append(name)
                i += n
                break
        else:
            why = _unbuildable(passes[i])
            if why is not None:
                inj = ", ".join(sorted({_point_text(low, k) for k in splices}))
                raise CodegenError(
                    f"codegen injection at {inj} of '@{low.name}' {UNFAITHFUL_MARK}: IREE runs "
                    f"'{pass_name(passes[i])}' (pass {i + 1} of --list-codegen-passes) after it, and {why}; "
                    "inject after that pass instead"
                )
            items.append(passes[i])
            i += 1
            continue
        # a block was taken; splices at its end are emitted by the loop head
    return items


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


def _lowering_dumps(module, iree_flags, print_flags: list[str]):
    """(function, "before"/"after", pass, occurrence, generic text) of each function dump
    IREE's own lowering prints with ``print_flags``; and iree-compile's error, None if it succeeded."""
    from iree.compiler.tools.binaries import find_tool

    flags = [f for f in iree_flags if not f.startswith("--iree-hal-dump-executable-")]
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=True) as f:
        f.write(module.get_asm(assume_verified=True))
        f.flush()
        proc = subprocess.run(
            [
                find_tool("iree-compile"),
                f.name,
                "-o",
                "/dev/null",
                *flags,
                "--compile-from=executable-configurations",
                "--compile-to=executable-targets",
                f"--mlir-print-ir-after={','.join(sorted({START_MARKER, *END_MARKERS}))}",
                *print_flags,
                "--mlir-print-op-generic",
                "--mlir-print-debuginfo",
                "--mlir-print-local-scope",
                "--mlir-disable-threading",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    dumps = []
    counts: dict[tuple, int] = {}
    sym = re.compile(r'sym_name = "([^"]+)"')
    for where, name, text in _parse_dumps(proc.stderr):
        head = text[:4000]
        if not head.lstrip().startswith('"func.func"'):
            continue
        symbols = sym.findall(text[: text.find("({")] if "({" in text else head)
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


def _selectable(name: str) -> bool:
    """Whether ``--mlir-print-ir-after/before=name`` can select the pass: it has a
    textual registration (``fold-tensor-subset-ops``, added in C++ by
    ``tensor::createFoldTensorSubsetOpsPass()``, has none; naming it makes
    iree-compile stop with "Cannot find option named ...")."""
    from ..pipeline.cpp import cpp_probe

    return cpp_probe(name) is None


def capture_spec(low: FunctionLowering, start: int) -> tuple[str, str, int]:
    """How to capture the function at splice ``start`` (> 0) of its recorded passes:
    ``("after", P, n)`` - after the n-th run of P, the pass before the point - or,
    when P cannot be named, ``("before", Q, m)`` with Q the pass after the point
    (same IR: the recorded passes run one after the other on the function).
    Refused (UNFAITHFUL_MARK) when neither can be named."""
    prev = pass_name(low.passes[start - 1])
    if _selectable(prev):
        return "after", prev, sum(1 for p in low.passes[:start] if pass_name(p) == prev)
    if start < len(low.passes):
        nxt = pass_name(low.passes[start])
        if _selectable(nxt):
            return "before", nxt, sum(1 for p in low.passes[: start + 1] if pass_name(p) == nxt)
        why = f"neither has '{nxt}', the pass after it"
    else:
        why = "it is the last pass of the function's lowering, so no pass after it can be named instead"
    raise CodegenError(
        f"codegen injection at {_point_text(low, start)} of '@{low.name}' {UNFAITHFUL_MARK}: the function "
        f"cannot be taken over from IREE's lowering there: '{prev}' has no textual registration "
        f"(IREE adds it in C++), so no IR dump can be asked for after it, and {why}"
    )


def capture(module, iree_flags, wanted: dict[str, tuple[str, str, int]]) -> dict[str, str]:
    """Each function's IR as IREE's own lowering leaves it at the given point.

    ``wanted``: function name -> (``"after"`` or ``"before"``, pass name,
    occurrence), as ``capture_spec`` gives. IREE compiles the module (as
    discovery does) printing, in generic form with locations, the function
    after (before) those passes; nothing of the prefix is replayed.
    """
    names = sorted({(w, p) for w, p, _ in wanted.values()})
    flags = [f"--mlir-print-ir-{w}={p}" for w, p in names]
    dumps, error = _lowering_dumps(module, iree_flags, flags)
    found = {fn: text for fn, when, name, n, text in dumps if wanted.get(fn) == (when, name, n)}
    missing = sorted(set(wanted) - set(found))
    if missing:
        when, name, n = wanted[missing[0]]
        why = f" (iree-compile: {error})" if error else ""
        raise CodegenError(f"could not take '@{missing[0]}' over from IREE's lowering at {when}:{name}#{n}{why}")
    return found


def capture_at_point(module, iree_flags, inj: CodegenInjection) -> dict[str, str] | None:
    """Each function's IR at the single point ``inj`` names, printed by IREE's own
    lowering in one compile with no discovery first; None where that cannot be
    relied on: every occurrence (``#*``), a pass that cannot be named on the
    command line, or a lowering that fails. A function absent from the result
    never runs the pass: it has no such point."""
    if inj.occurrence == 0 or not _selectable(inj.pass_name):
        return None
    dumps, error = _lowering_dumps(module, iree_flags, [f"--mlir-print-ir-{inj.where}={inj.pass_name}"])
    if error is not None:
        return None
    return {
        fn: text for fn, where, name, n, text in dumps if (where, name, n) == (inj.where, inj.pass_name, inj.occurrence)
    }


_RESOURCE = re.compile(r"dense_resource<([^>]+)>")


def _placeholder_resources(text: str) -> tuple[str, list[str]]:
    """IR dumps name ``dense_resource`` blobs without carrying them; parsing such
    a name again makes a new, empty blob. Each is renamed to a placeholder here
    and pointed back at the module's own blob by ``_restore_resources``."""
    keys: list[str] = []

    def sub(m):
        keys.append(m.group(1))
        return f"dense_resource<__optpy_res_{len(keys) - 1}>"

    return _RESOURCE.sub(sub, text), keys


def _resource_attrs(func) -> dict[str, object]:
    """The dense_resource attributes of the ops in ``func``, by blob name."""
    from iree.compiler import ir

    found = {}

    def visit(op):
        for attr_name in list(op.attributes):
            attr = op.attributes[attr_name]
            m = _RESOURCE.match(str(attr))
            if m:
                found[m.group(1)] = attr
        return ir.WalkResult.ADVANCE

    func.walk(visit)
    return found


def _restore_resources(new, keys: list[str], originals: dict[str, object], fname: str) -> None:
    from iree.compiler import ir

    missing = []

    def visit(op):
        for attr_name in list(op.attributes):
            attr = op.attributes[attr_name]
            m = re.match(r"dense_resource<__optpy_res_(\d+)(?:_\d+)?>", str(attr))
            if m:
                key = keys[int(m.group(1))]
                if key in originals and originals[key].type == attr.type:
                    op.attributes[attr_name] = originals[key]
                else:
                    missing.append(key)
        return ir.WalkResult.ADVANCE

    new.walk(visit)
    if missing:
        raise CodegenError(
            f"could not take '@{fname}' over from IREE's lowering: its constant "
            f"dense_resource<{missing[0]}> is not in the function IREE was given"
        )


def inject_into_codegen(module, iree_flags, injections, run_plan, report) -> list[str]:
    """Run the injections inside IREE's codegen of every dispatch function.

    IREE's own lowering runs up to the first injection point (``capture``).
    Where the function has one injection point and the injected pipeline
    leaves the captured IR exactly as it was (a check, a pattern with nothing
    to match), the function is left to IREE whole: the result is stock's by
    construction, whatever the point. Otherwise the recorded passes after the
    point are replayed with the injections spliced in (``faithful_suffix``),
    or the point is refused. ``run_plan(pipeline_text, op) -> bool`` runs an
    opt-py pipeline on an op; ``report(line)`` receives warnings. Returns the
    names of the functions that have an injection point (replayed or left to IREE).

    One point (``--fixes`` has one) is captured directly, without discovery
    (``capture_at_point``): discovery, a compile of its own, is then paid only
    when the pipeline changed a function, which needs its recorded passes.
    """
    if len(injections) == 1:
        direct = capture_at_point(module, iree_flags, injections[0])
        if direct is not None:
            return _inject_at_point(module, iree_flags, injections[0], direct, run_plan)
    from iree.compiler import ir

    lowered = discover(module, iree_flags)
    plans = {}
    for name in dispatch_functions(module):
        low = lowered.get(name)
        if low is None:
            report(f"opt-py: warning: no codegen passes were seen for '@{name}'; left to IREE")
            continue
        splices: dict[int, list[str]] = {}
        for inj in injections:
            for at in split_points(low.passes, inj):
                splices.setdefault(at, []).append(inj.pipeline)
        if not splices:
            continue  # no injection point in this function's pipeline
        if low.failed_at is not None:
            raise CodegenError(
                f"IREE's own lowering of '@{name}' fails at '{low.failed_at}', so the passes after it "
                "cannot be discovered; codegen injection needs the unmodified lowering to finish"
            )
        # Several points must be replayed between them: refuse an unfaithful suffix now, before any work.
        items = None if len(splices) == 1 else faithful_suffix(low, min(splices), splices)
        plans[name] = (min(splices), splices, low, items)
    wanted = {name: capture_spec(low, start) for name, (start, _, low, _) in plans.items() if start > 0}
    captured = capture(module, iree_flags, wanted) if wanted else {}
    funcs = dispatch_functions(module)
    for name, (start, splices, low, items) in plans.items():
        original = funcs[name]
        # The function at the point, in a module of its own until it replaces the original.
        if name in captured:
            holder, work = _taken_over(name, captured[name], original)
        else:
            holder = ir.Module.create()  # keeps the work copy alive until it replaces the original
            work = original.operation.clone(ip=ir.InsertionPoint(holder.body)).operation
        if items is None:  # one point: run it, and see whether it changed anything
            if not _changed_by(run_plan, splices[start], work, name):
                continue  # unchanged: IREE lowers the original function itself, as stock does
            items = faithful_suffix(low, start, {start: []})
        _replace_and_replay(original, work, items, run_plan)
    return list(plans)


def _inject_at_point(module, iree_flags, inj: CodegenInjection, captured: dict[str, str], run_plan) -> list[str]:
    """``inject_into_codegen`` for one point whose IR ``capture_at_point`` gave."""
    funcs = dispatch_functions(module)
    captured = {name: text for name, text in captured.items() if name in funcs}
    changed = []
    for name, text in captured.items():
        holder, work = _taken_over(name, text, funcs[name])
        if _changed_by(run_plan, [inj.pipeline], work, name):
            changed.append((name, holder, work))
        # unchanged: IREE lowers the original function itself, as stock does
    lowered = discover(module, iree_flags) if changed else {}  # before any function is replaced
    for name, _holder, work in changed:
        low = lowered.get(name)
        points = split_points(low.passes, inj) if low is not None and low.failed_at is None else []
        if len(points) != 1:
            raise CodegenError(
                f"could not find {inj.where}:{inj.pass_name}#{inj.occurrence} of '@{name}' "
                "again in its recorded codegen passes"
            )
        _replace_and_replay(funcs[name], work, faithful_suffix(low, points[0], {points[0]: []}), run_plan)
    return list(captured)


def _changed_by(run_plan, pipelines: list[str], work, name: str) -> bool:
    """Run the injected pipelines on ``work``; whether they changed it."""
    before = work.get_asm(print_generic_op_form=True, assume_verified=True)
    if not run_plan("func.func(" + ",".join(pipelines) + ")", work):
        raise CodegenError(f"the injected pipeline failed in the codegen of '@{name}'")
    return work.get_asm(print_generic_op_form=True, assume_verified=True) != before


def _replace_and_replay(original, work, items: list[str], run_plan) -> None:
    """``work`` takes the place of ``original``, runs the rest of the codegen pipeline
    (``items``), and is marked so that IREE runs none of it again."""
    from iree.compiler import ir

    work.move_before(original.operation)
    original.operation.erase()
    if items and not run_plan("func.func(" + ",".join(items) + ")", work):
        name = work.attributes["sym_name"].value
        raise CodegenError(f"replaying the codegen pipeline of '@{name}' with the injections failed")
    info = str(work.attributes["translation_info"])
    work.attributes["translation_info"] = ir.Attribute.parse(without_pipeline(info))


def _taken_over(name: str, text: str, original):
    """The function IREE's lowering printed at the point: (its module, the function)."""
    from iree.compiler import ir

    text, keys = _placeholder_resources(text)
    try:
        parsed = ir.Module.parse(text)
    except Exception as e:  # noqa: BLE001 - the parser's message says what it could not read
        raise CodegenError(f"could not take '@{name}' over from IREE's lowering: {e}") from None
    new = parsed.body.operations[0].operation
    if keys:
        _restore_resources(new, keys, _resource_attrs(original.operation), name)
    return parsed, new


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
            out.append(f"  {i:3d}. {p}" + ("" if _selectable(pass_name(p)) else f"  {UNNAMABLE_NOTE}"))
        if low.failed_at:
            out.append(f"  FAILED at {low.failed_at}: later passes unknown")
    return "\n".join(out)

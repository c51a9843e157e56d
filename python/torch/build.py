"""A traced PyTorch program (torch-dialect MLIR) to a compiled module: through the cache, or errors a user can act on.

Both front doors end here: ``opt_py.torch.compile`` with iree-turbine's
export, the dynamo backend with each graph it is handed. The module comes
from the on-disk cache (iree/module_cache.py) when the same program was compiled
with the same flags, fixes and versions before; otherwise it is compiled in
process with the fixes injected and stored. A failure raises
``TorchCompileError``, which names the graph, the op IREE stopped at and
where the user's code made it, the fixes injected and what they rewrote, and
keeps the program on disk with the command that reproduces the failure.
"""

from __future__ import annotations

import os
import re
import shlex
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import OptPyError
from .options import Options


@dataclass
class Built:
    """A compiled module's bytes and how it was had."""

    vmfb: bytes = field(repr=False)
    target: str
    key: str
    cached: bool  # loaded from the cache, not compiled
    seconds: float  # what getting it took (compiling, or reading the cache)
    messages: list[str] = field(default_factory=list)  # what the compiler said (warnings)
    written: dict | None = None  # function -> the arguments it may write in place (None: not known)


class TorchCompileError(OptPyError):
    """A PyTorch program that opt-py could not compile: what, where, which fixes, how to reproduce."""

    def __init__(self, message: str, *, what: str, op: str | None, location: str | None, program: str | None):
        super().__init__(message)
        self.what, self.op, self.location, self.program = what, op, location, program


@dataclass
class Program:
    """A traced program as ``build`` takes it. ``identity``: bytes that determine the MLIR program (the
    program itself, or what it is imported from); ``f64``: whether it has float64; ``mlir()``: the
    torch-dialect program and its suffix (.mlir or .mlirbc), asked for only when it must be compiled."""

    identity: bytes
    f64: bool
    mlir: Callable[[], tuple[bytes, str]]


def build(program: Program, options: Options, what: str) -> Built:
    """The module of ``program`` for ``options``' target and fixes: from the cache, or compiled."""
    from ..iree import fixes as fix_table
    from ..iree import module_cache
    from ..iree import written_arguments as arguments
    from ..iree.phases import compile_with_injections

    start = time.perf_counter()
    flags = options.flags(f64=program.f64)
    spec = options.fix_spec()
    chosen = fix_table.select(spec) if spec else []
    injected = sum(fix_table.specs(spec, flags), ()) if chosen else ()
    key = module_cache.key(program.identity, flags, injected)
    store = module_cache.ModuleCache(options.cache_dir) if options.cache else None
    if store is not None:
        found = store.lookup(key)
        if found is not None:
            vmfb, about = found
            return Built(vmfb, options.target, key, True, time.perf_counter() - start, written=about.get("written"))
    data, suffix = program.mlir()
    written: list[dict | None] = []

    def note_written(module):
        try:
            written.append(arguments.written_arguments(module))
        except Exception:  # noqa: BLE001 - not knowing which inputs are written means copying them all
            written.append(None)

    hook = {arguments.PHASE: [note_written]}
    with tempfile.TemporaryDirectory(prefix="opt-py-torch-") as tmp:
        path = os.path.join(tmp, "program" + suffix)
        with open(path, "wb") as f:
            f.write(data)
        if chosen:  # the fixes as --fixes runs them: held-back ones on their failure, const-eval's inside
            result, _ = fix_table.compile_with_fixes(path, flags, spec, record_rewrites=True, after_phase=hook)
        else:
            result = compile_with_injections(path, flags, [], record_rewrites=True, after_phase=hook)
    if not result.ok:
        raise failure(data, suffix, flags, spec, chosen, result, what, options)
    found = written[0] if written else None
    if store is not None:
        about = {"what": what, "target": options.target, "fixes": spec or "none", "written": found}
        store.put(key, result.output, about)
    seconds = time.perf_counter() - start
    return Built(result.output, options.target, key, False, seconds, list(result.messages), found)


def mlir_program(data: bytes, suffix: str, text: str) -> Program:
    """A program given as MLIR (``text``: its text, large constants elided, which says whether it has f64)."""
    return Program(data, "f64" in text, lambda: (data, suffix))


# MLIR's diagnostics: `LOC: error: MESSAGE`, LOC a file:line:col, a callsite(...) or a quoted name
_ERROR = re.compile(r"^(?P<loc>.*?):\s*error:\s*(?P<msg>.*)$")
_OP = re.compile(r"'([a-z][a-z0-9_]*\.[a-z][\w.]*)'")  # 'dialect.op' as MLIR quotes it
_FILE_LINE = re.compile(r'"?(?P<file>[^":()]+\.py)"?:(?P<line>\d+)')


def failure(program, suffix, flags, spec, chosen, result, what: str, options: Options) -> TorchCompileError:
    """The error of a failed compile, with the program kept where the user can reproduce it."""
    errors = [m for line in result.messages for m in line.splitlines() if _ERROR.match(m)]
    first = _ERROR.match(errors[0]) if errors else None
    said = first.group("msg") if first else (result.messages[-1] if result.messages else "no diagnostic")
    ops = [m for m in _OP.findall(" ".join(errors)) if not m.endswith((".py", ".mlir"))]
    op = ops[0] if ops else None
    named = re.search(r'name = "([\w.:]+)"', " ".join(errors)) if op == "torch.operator" else None
    if named:  # an op torch-mlir does not know is imported as torch.operator "its name"
        op = f"torch.operator '{named.group(1)}'"
    places = _FILE_LINE.findall(first.group("loc")) if first else []
    user = [f"{f}:{n}" for f, n in places if "site-packages" not in f and "/torch/" not in f]
    location = (user or [f"{f}:{n}" for f, n in places] or [None])[-1]
    kept = tempfile.mkdtemp(prefix="opt-py-failed-")
    saved = os.path.join(kept, "program" + suffix)
    with open(saved, "wb") as f:
        f.write(program)
    with open(os.path.join(kept, "messages.txt"), "w") as f:
        f.write("\n".join(result.messages) + "\n")
    rewrote = {}
    for r in result.rewrites:
        rewrote[r.pass_name] = rewrote.get(r.pass_name, 0) + 1
    names = (
        f"every fix for the target ({len(chosen)}; opt-py compile --list-fixes)"
        if spec == "all"
        else ", ".join(f.name for f in chosen)
    )
    fixes_line = (
        f"fixes injected: {names}; "
        + (
            "rewrote before the failure: " + ", ".join(f"{n} ({k} rewrite(s))" for n, k in rewrote.items())
            if rewrote
            else "none of them rewrote anything before the failure"
        )
        if chosen
        else "no fixes injected (stock IREE)"
    )
    repro = shlex.join(
        [
            "opt-py",
            "compile",
            saved,
            *(["--fixes" if spec == "all" else f"--fixes={spec}"] if spec else []),
            *flags,
            "-o",
            "/dev/null",
        ]
    )
    hint = "options fixes=False compiles with stock IREE" if chosen else "options fixes=True adds opt-py's fixes"
    lines = [
        f"compiling {what} for '{options.target}' failed",
        f"  the op: {op or '(IREE named none)'}" + (f", made at {location}" if location else ""),
        f"  IREE said: {said}",
        f"  {fixes_line}",
        f"  the program and IREE's messages are kept in {kept}; reproduce with:",
        f"    {repro}",
        f"  {hint}"
        + (
            "; with the dynamo backend, options fallback=True runs such a graph in eager PyTorch"
            if "graph" in what
            else ""
        ),
    ]
    return TorchCompileError("\n".join(lines), what=what, op=op, location=location, program=saved)

"""The mlir-opt job over one input: split chunks, run, verify diagnostics, print.

Everything ``opt-py [flags] INPUT`` does, minus argument parsing and writing.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass, field

from ..errors import OptPyError, PipelineError
from ..pipeline.plan import plan_pipeline
from ..run.diagnostics import Collector, Diag, render
from ..run.engine import OptOptions, RunHooks, make_context, print_ir, run_plan, single_threaded
from .verify import VerifyError, parse_expectations, verify

SPLIT_MARKER = "// -----"
_BYTECODE_MAGIC = b"ML\xefR"


@dataclass
class OptResult:
    ok: bool
    output: bytes = b""
    stderr: list[str] = field(default_factory=list)


def split_chunks(text: str) -> list[tuple[int, str]]:
    """(first line, chunk text padded to keep the file's line numbers)."""
    chunks, current, first = [], [], 1
    for no, line in enumerate(text.split("\n"), start=1):
        if line.rstrip().startswith(SPLIT_MARKER) and line.strip().strip("/ -") == "":
            chunks.append((first, "\n" * (first - 1) + "\n".join(current)))
            current, first = [], no + 1
        else:
            current.append(line)
    chunks.append((first, "\n" * (first - 1) + "\n".join(current)))
    return chunks


def run_opt(data: bytes | None, display_name: str, path: str | None, opts: OptOptions, err=None) -> OptResult:
    """Everything ``opt-py [flags] INPUT`` does, minus argument parsing and writing.

    ``data`` is the input's bytes, or None for a regular text file at ``path``
    that MLIR is to read itself (see ``read_input``)."""
    err = err or _print_to_stderr
    try:
        plan = plan_pipeline(opts.pipeline)
    except OptPyError as e:
        err(f"opt-py: error: {e}")
        return OptResult(ok=False)
    source = _read_source(data, display_name, path, opts, err)
    if source is None:
        return OptResult(ok=False)
    # One context for the whole input. Dialects load as the IR names them, as in
    # mlir-opt, unless a Python pass may build ops of any of them.
    ctx = make_context(opts, all_dialects=any(step.pass_.py is not None for step in plan.steps))
    outputs, all_ok = [], True
    chunks = source.chunks(opts)
    for _first, chunk in chunks:
        try:
            ok, out = _run_chunk(ctx, plan, source, (chunk, len(chunks)), opts, err)
        except PipelineError as e:
            err(f"opt-py: error: {e}")
            return OptResult(ok=False)
        all_ok = all_ok and ok
        if out is not None:
            outputs.append(out)
    if not all_ok:
        return OptResult(ok=False)
    return OptResult(ok=True, output=_join(outputs, opts))


def _print_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@dataclass
class _Source:
    """The input as the job reads it: bytes, or a file MLIR reads itself; its text only where needed."""

    display_name: str
    path: str | None
    data: bytes | None
    is_bytecode: bool
    from_file: bool
    text: str | None
    rename: dict = field(default_factory=dict)  # file names in locations -> names to print
    sources: _Sources | None = None  # the text for quoting source lines, decoded on first use

    def chunks(self, opts: OptOptions) -> list[tuple[int, str | None]]:
        if self.text is not None and opts.split_input_file:
            return split_chunks(self.text)
        return [(1, self.text)]


def _read_source(data, display_name: str, path: str | None, opts: OptOptions, err) -> _Source | None:
    """The input, checked for nesting MLIR's recursive parser cannot take; None after saying why."""
    is_bytecode = data is not None and data.startswith(_BYTECODE_MAGIC)
    try:
        depth = 0 if is_bytecode else _max_nesting(data) if data is not None else _max_nesting_of_file(path)
    except OSError as e:
        err(f"opt-py: error: cannot read input file '{display_name}': {e.strerror}")
        return None
    if depth > MAX_NESTING:
        err(
            f"{display_name}: error: input nests brackets {depth} levels deep; opt-py refuses more than "
            f"{MAX_NESTING} (MLIR's recursive parser would overflow the stack)"
        )
        return None
    from_file = bool(path) and not is_bytecode and (data is None or _regular_file(path))
    # The text as a str only where it is read: splitting, expected-diagnostic
    # comments, parsing a pipe. A regular file is parsed by MLIR from the file
    # (its own locations), and source lines for a diagnostic decode lazily:
    # a big input is not held twice.
    needs_text = not is_bytecode and (opts.split_input_file or opts.verify_diagnostics or not from_file)
    text = data.decode("utf-8", errors="replace") if needs_text else None
    sources = _Sources(display_name, path, b"" if is_bytecode else data, text)
    return _Source(display_name, path, data, is_bytecode, from_file, text, {"-": display_name}, sources)


def _run_chunk(ctx, plan, source: _Source, chunk_of: tuple, opts: OptOptions, err) -> tuple[bool, bytes | None]:
    """Parse, run and print one chunk (``chunk_of``: its text, how many there are) and report
    its diagnostics: (ok, printed IR or None)."""
    from iree.compiler import ir

    chunk, count = chunk_of
    collector = Collector(ctx)
    debug = _print_to_stderr if opts.debug_patterns else None
    hooks = RunHooks(debug_patterns=debug, rename=source.rename)
    try:
        with ctx, ir.Location.unknown():
            module, ok = _parse(ctx, source, chunk if count > 1 or not source.from_file else None, collector)
            if module is not None and plan.steps:  # the parser verified: an empty plan has nothing to add
                ok = run_plan(plan, module.operation, opts, hooks, collector)
            # With no passes the IR is as the parser verified it: printing need not verify it again.
            out = print_ir(module.operation, opts, verified=not plan.steps) if module is not None and ok else None
            if opts.pass_statistics and hooks.stats:
                err(_python_statistics(hooks.stats))
    finally:
        collector.detach()
    return _report(source, chunk, ok, collector, hooks, opts, err), out


def _parse(ctx, source: _Source, chunk: str | None, collector: Collector):
    """(module, True), or (None, False) with the parser's complaint in ``collector``.

    ``chunk`` None: the whole input, which MLIR reads from its file when it is one."""
    from iree.compiler import ir

    try:
        with single_threaded(ctx):  # the parser verifies: see single_threaded
            if source.is_bytecode:
                return ir.Module.parse(source.data), True
            if chunk is None:
                return ir.Module.parseFile(source.path), True  # file locations; a FIFO could not be read twice
            return ir.Module.parse(chunk), True
    except ir.MLIRError as e:
        collector.add_error(e)
    except (RuntimeError, ValueError, UnicodeError) as e:
        # e.g. bytecode whose strings are not UTF-8: not an MLIRError
        collector.diags.append(Diag("error", f"cannot parse input: {e}", source.display_name, 0, 0))
    return None, False


def _report(source: _Source, chunk, ok: bool, collector: Collector, hooks, opts: OptOptions, err) -> bool:
    """Print the chunk's diagnostics, or check them against its expectations; whether the chunk passed."""
    name = source.display_name
    if opts.verify_diagnostics:
        try:
            problems = verify(parse_expectations(chunk), collector.diags, name)
        except VerifyError as e:
            problems = [f"{name}:{e}"]
        for p in problems:
            err(p)
        return not problems
    for d in collector.diags:
        err(render(d, source.rename, source.sources.texts()))
    if hooks.failures and opts.debug:
        for pass_name, _exc, tb in hooks.failures:
            err(f"--- traceback of Python pass '{pass_name}' ---\n{tb.rstrip()}")
    return ok


def _join(outputs: list[bytes], opts: OptOptions) -> bytes:
    if opts.emit_bytecode:
        return b"".join(outputs)
    return (SPLIT_MARKER + "\n").encode().join(o if o.endswith(b"\n") else o + b"\n" for o in outputs)


MAX_NESTING = 10_000


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"()[]{}<>")


def read_input(f, opts: OptOptions) -> bytes | None:
    """The bytes of an open input, or None where MLIR may read it itself: a
    regular text file that is neither split nor checked for expected
    diagnostics. A big module is then never held in Python at all."""
    head = f.read(len(_BYTECODE_MAGIC))
    if (
        head == _BYTECODE_MAGIC
        or opts.split_input_file
        or opts.verify_diagnostics
        or not stat.S_ISREG(os.fstat(f.fileno()).st_mode)
    ):
        return head + f.read()
    return None


def _max_nesting(data: bytes, chunk: int = 1 << 22) -> int:
    """Deepest nesting of any one bracket kind ``( [ { <``, counted roughly
    (strings and comments included, ``->`` not a closer): MLIR's parser
    recurses on each. On the UTF-8 bytes (brackets are ASCII, and no byte of a
    multi-byte character is): arrows dropped, then everything but brackets
    (a small part of a module), counted a block at a time."""
    return _bracket_depth(_brackets(data), chunk)


def _brackets(data: bytes) -> bytes:
    return data.replace(b"->", b"").translate(None, _NOT_BRACKETS)


def _max_nesting_of_file(path: str, block: int = 1 << 22) -> int:
    """``_max_nesting`` of a file's bytes, read a block at a time."""
    parts = []
    carry = b""
    with open(path, "rb") as f:
        while block_data := f.read(block):
            block_data = carry + block_data
            carry = b"-" if block_data.endswith(b"-") else b""  # may begin an arrow
            parts.append(_brackets(block_data[: len(block_data) - len(carry)]))
    parts.append(_brackets(carry))
    return _bracket_depth(b"".join(parts))


def _bracket_depth(brackets: bytes, chunk: int = 1 << 22) -> int:
    openers = sum(brackets.count(c) for c in (b"(", b"[", b"{", b"<"))
    if openers <= MAX_NESTING:
        return openers  # cannot be deeper than the number of openers
    import numpy as np

    buf = np.frombuffer(brackets, dtype=np.uint8)
    deepest = 0
    for opener, closer in (b"()", b"[]", b"{}", b"<>"):
        step = np.zeros(256, dtype=np.int32)
        step[opener], step[closer] = 1, -1
        depth = 0
        for start in range(0, len(buf), chunk):
            steps = step[buf[start : start + chunk]]
            np.cumsum(steps, out=steps)
            steps += depth
            deepest = max(deepest, int(steps.max(initial=0)))
            depth = int(steps[-1])
    return deepest


class _Sources:
    """The input's text for quoting source lines in diagnostics, decoded only when one is rendered."""

    def __init__(self, display_name: str, path: str | None, data: bytes | None, text: str | None):
        self._names = [display_name] + ([path] if path else [])
        self._path, self._data, self._text = path, data, text

    def texts(self) -> dict[str, str]:
        if self._text is None:
            if self._data is None:  # a regular file that MLIR read
                try:
                    with open(self._path, "rb") as f:
                        self._data = f.read()
                except OSError:
                    self._data = b""
            self._text = self._data.decode("utf-8", errors="replace")
        return dict.fromkeys(self._names, self._text)


def _python_statistics(stats: dict) -> str:
    bar = "===" + "-" * 73 + "==="
    lines = [bar, "                ... Pass statistics report (opt-py Python passes) ...", bar]
    for pass_name, counts in stats.items():
        lines.append(f"'{pass_name}'")
        for pattern_name, n in sorted(counts.items()):
            lines.append(f"  (S) {n} {pattern_name} - times the pattern rewrote the IR")
        if not counts:
            lines.append("  (S) 0 rewrites")
    return "\n".join(lines)


def _regular_file(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False

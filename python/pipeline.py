"""Textual pass pipelines that mix C++ and Python passes, and their execution.

MLIR's textual syntax is parsed here, not by MLIR, because the bindings'
``PassManager.parse`` cannot name Python passes. The parsed tree becomes a
list of stages: consecutive C++ passes as one textual segment (nesting and
all, so MLIR runs them exactly as it would), and each Python pass on its own,
visiting the ops its place in the pipeline names (the direct children along
its nesting path, as a nested pass manager would). The driver runs the stages
either on one PassManager, each Python pass a root-level ``ExternalPass``, so
that timing, IR printing and statistics see every pass in order; or, without
such instrumentation, each C++ segment on its own PassManager and each Python
pass directly (see driver._run_plan for why).

A pipeline not wrapped in the root op's name is a *bare list*: every pass is
nested to its own anchor op wherever such ops are (inside ``hal.executable``
variants too), and ``X(...)`` runs its inner pipeline on every ``X``.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass, field
from typing import Union

from .api import OptPyError, Pass, PassContext, PassOptionError

# --------------------------------------------------------------------------
# Syntax
# --------------------------------------------------------------------------


class PipelineError(OptPyError):
    def __init__(self, message: str, text: str = "", col: int | None = None):
        self.text, self.col, self.bare = text, col, message
        if col is not None and text:
            message = f"pipeline:1:{col}: {message}\n  {text}\n  {' ' * (col - 1)}^"
        super().__init__(message)


@dataclass
class PassRef:
    name: str
    options: str  # raw text between the braces, '' when absent
    col: int

    def text(self) -> str:
        return f"{self.name}{{{self.options}}}" if self.options else self.name


@dataclass
class Nest:
    op_name: str
    children: list["Element"]
    col: int


Element = Union[PassRef, Nest]

_NAME = re.compile(r"[A-Za-z0-9_.$\-]+")
MAX_PIPELINE_DEPTH = 64


def parse_pipeline(text: str) -> list[Element]:
    """Parse MLIR's textual pipeline syntax into a list of elements."""
    pos = 0
    n = len(text)

    def skip_ws():
        nonlocal pos
        while pos < n and text[pos].isspace():
            pos += 1

    depth = 0

    def element() -> Element:
        nonlocal pos, depth
        skip_ws()
        m = _NAME.match(text, pos)
        if not m:
            what = repr(text[pos]) if pos < n else "end of pipeline"
            raise PipelineError(f"expected a pass or op name, found {what}", text, pos + 1)
        start, name = pos + 1, m.group(0)
        pos = m.end()
        skip_ws()
        if pos < n and text[pos] == "{":
            depth, i = 0, pos
            while i < n:
                if text[i] == "{":
                    depth += 1
                elif text[i] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            if depth:
                raise PipelineError("unbalanced '{' in pass options", text, pos + 1)
            opts = text[pos + 1 : i].strip()
            pos = i + 1
            return PassRef(name, opts, start)
        if pos < n and text[pos] == "(":
            depth += 1
            if depth > MAX_PIPELINE_DEPTH:
                raise PipelineError(f"pipeline nests deeper than {MAX_PIPELINE_DEPTH} levels", text, start)
            pos += 1
            skip_ws()
            children: list[Element] = []
            if pos < n and text[pos] == ")":
                pos += 1
                depth -= 1
                return Nest(name, children, start)
            children = element_list()
            skip_ws()
            if pos >= n or text[pos] != ")":
                raise PipelineError("unbalanced '(' in pipeline", text, start)
            pos += 1
            depth -= 1
            return Nest(name, children, start)
        return PassRef(name, "", start)

    def element_list() -> list[Element]:
        nonlocal pos
        items = [element()]
        skip_ws()
        while pos < n and text[pos] == ",":
            pos += 1
            items.append(element())
            skip_ws()
        return items

    skip_ws()
    if pos >= n:
        return []
    items = element_list()
    skip_ws()
    if pos < n:
        raise PipelineError(f"unexpected '{text[pos]}' in pipeline", text, pos + 1)
    return items


# --------------------------------------------------------------------------
# Resolving names
# --------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _cpp_probe(pass_text: str) -> str | None:
    """Validate a C++ pass by parsing it under ``any``; None when fine.

    LLVM's option parser writes its complaint straight to fd 2; it is caught
    here and folded into the message instead.
    """
    from iree.compiler import passmanager

    with _captured_stderr() as captured:
        try:
            passmanager.PassManager.parse(f"any({pass_text})", context=_probe_context())
            return None
        except ValueError as e:
            error = str(e).strip()
    extra = captured.text().strip().lstrip(":").strip()
    return f"{extra} {error}" if extra else error


_PROBE_CONTEXT = []


def _probe_context():
    """The current context, or one kept for probing pass names outside a run."""
    from iree.compiler import ir

    try:
        current = ir.Context.current
    except ValueError:
        current = None
    if current is not None:
        return current
    if not _PROBE_CONTEXT:
        _PROBE_CONTEXT.append(ir.Context())
    return _PROBE_CONTEXT[0]


class _captured_stderr:
    """Redirect fd 2 into a temp file for the duration of a with-block."""

    def __enter__(self):
        import os
        import sys
        import tempfile

        sys.stderr.flush()
        self._file = tempfile.TemporaryFile()
        self._saved = os.dup(2)
        os.dup2(self._file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        import os

        os.dup2(self._saved, 2)
        os.close(self._saved)
        return False

    def text(self) -> str:
        self._file.seek(0)
        data = self._file.read().decode(errors="replace")
        self._file.close()
        return data


FUNCTION_OPS = ("func.func", "util.func")


def _unknown_pass(ref: PassRef, text: str) -> PipelineError:
    from . import registry

    names = registry.all_pass_names()
    close = difflib.get_close_matches(ref.name, names, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    return PipelineError(
        f"'{ref.name}' does not refer to a registered pass or pass pipeline{hint}", text, ref.col
    )


@dataclass
class Resolved:
    ref: PassRef
    py: Pass | None  # the configured Python pass, or None for C++


def resolve(ref: PassRef, text: str) -> Resolved:
    from . import registry

    cls = registry.builtin_pass(ref.name)
    if cls is None:
        problem = _cpp_probe(ref.text())
        if problem is None:
            return Resolved(ref, None)
        if f"'{ref.name}' does not refer to a registered pass" not in problem:
            # A C++ pass with bad options: MLIR's own words, located.
            detail = " ".join(line.strip() for line in problem.splitlines() if line.strip())
            hint = ""
            if "does not refer to a registered pass" in problem:
                hint = " (pipelines inside a C++ pass's options are parsed by MLIR and cannot name Python passes)"
            raise PipelineError(f"invalid options for pass '{ref.name}': {detail}{hint}", text, ref.col)
        cls = registry.plugin_pass(ref.name)
        if cls is None:
            raise _unknown_pass(ref, text)
    try:
        return Resolved(ref, cls.from_options(ref.options))
    except PassOptionError as e:
        raise PipelineError(str(e), text, ref.col) from None


# --------------------------------------------------------------------------
# Planning: leaves with placements
# --------------------------------------------------------------------------


@dataclass
class Step:
    """One pass with where it runs.

    ``path`` is the chain of op names from the root (explicit nesting). When
    ``anywhere`` is set, the path starts at every ``anywhere`` op found in the
    IR, instead of at the root.
    """

    pass_: Resolved
    path: tuple[str, ...]
    anywhere: tuple[str, ...] = ()


@dataclass
class Plan:
    root: str | None  # the op name the pipeline is anchored at, None for a bare list
    steps: list[Step] = field(default_factory=list)
    text: str = ""


def plan_pipeline(text: str) -> Plan:
    """Parse and resolve a pipeline; independent of any IR."""
    elements = parse_pipeline(text)
    plan = Plan(root=None, text=text)
    if len(elements) == 1 and isinstance(elements[0], Nest) and elements[0].op_name in ("builtin.module", "any"):
        plan.root = elements[0].op_name
        _plan_explicit(elements[0].children, (), (), plan, text)
        return plan
    for el in elements:
        if isinstance(el, Nest):
            _plan_explicit(el.children, (), (el.op_name,), plan, text)
            continue
        r = resolve(el, text)
        if r.py is not None:
            anchor = r.py.anchor
            plan.steps.append(Step(r, (), () if anchor == "any" else (anchor,)))
        else:
            from .anchor_probe import anchor_of

            anchor = anchor_of(el.name)  # an op name, 'any', 'function' or 'unknown'
            if anchor == "unknown":
                raise PipelineError(
                    f"cannot tell which op '{el.name}' runs on (probing it crashed); nest it "
                    f"explicitly, e.g. builtin.module(hal.executable(hal.executable.variant({el.name})))",
                    text, el.col,
                )
            if anchor == "any":
                plan.steps.append(Step(r, ()))
            elif anchor == "function":
                plan.steps.append(Step(r, (), FUNCTION_OPS))
            else:
                plan.steps.append(Step(r, (), (anchor,)))
    return plan


def _plan_explicit(elements, path, anywhere, plan: Plan, text: str):
    for el in elements:
        if isinstance(el, Nest):
            if el.op_name == "any":
                raise PipelineError("'any' can only anchor the whole pipeline", text, el.col)
            _plan_explicit(el.children, path + (el.op_name,), anywhere, plan, text)
            continue
        r = resolve(el, text)
        if r.py is not None and r.py.anchor != "any":
            here = path[-1] if path else (anywhere[0] if anywhere else plan.root)
            if here != r.py.anchor:
                raise PipelineError(
                    f"pass '{el.name}' is restricted to '{r.py.anchor}' and cannot run on "
                    f"'{here}'; did you intend to nest it in {r.py.anchor}(...)?",
                    text,
                    el.col,
                )
        plan.steps.append(Step(r, path, anywhere))


# --------------------------------------------------------------------------
# Finding ops in the IR
# --------------------------------------------------------------------------

# Ops whose bodies never hold pass anchors: do not look inside them.
_LEAF_CONTAINERS = frozenset(FUNCTION_OPS) | {"util.initializer", "flow.executable.export", "hal.executable.export"}


def _children(op):
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                yield child.operation


def find_anywhere(root, names: tuple[str, ...]) -> list:
    """Outermost ops named in ``names``, in IR order, root included.

    Only symbol-table-like containers are searched (isolated ops whose blocks
    take no arguments: modules, executables, variants), which is where a
    nested pass manager can reach anchors; function bodies are not scanned.
    """
    if root.name in names:
        return [root]
    found = []
    stack = [iter(_children(root))]  # depth-first without recursion: nesting may be deep
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        name = child.name
        if name in names:
            found.append(child)
        elif name not in _LEAF_CONTAINERS and _is_container(child):
            stack.append(iter(_children(child)))
    return found


def _is_container(op) -> bool:
    regions = op.regions
    if len(regions) != 1:
        return False
    blocks = regions[0].blocks
    if len(blocks) != 1 or len(blocks[0].arguments):
        return False
    from iree.compiler import ir

    return op.has_trait(ir.IsIsolatedFromAboveTrait)


def follow_path(ops, path: tuple[str, ...]) -> list:
    for name in path:
        ops = [c for op in ops for c in _children(op) if c.name == name]
    return ops


def targets(root, step: Step) -> list:
    start = find_anywhere(root, step.anywhere) if step.anywhere else [root]
    return follow_path(start, step.path)


def concrete_paths(root, step: Step) -> list[tuple[str, ...]]:
    """Explicit nesting paths for a C++ step placed 'anywhere' in this IR."""
    if not step.anywhere:
        return [step.path]
    paths = []
    for op in find_anywhere(root, step.anywhere):
        chain = []
        cur = op
        while cur is not None and cur != root:
            chain.append(cur.name)
            parent = cur.parent
            cur = parent.operation if parent is not None else None
        p = tuple(reversed(chain)) + step.path
        if p not in paths:
            paths.append(p)
    return paths


def nest_text(entries: list[tuple[tuple[str, ...], str]]) -> str:
    """Textual pipeline for (path, pass-text) entries, merging shared prefixes."""
    out, i = [], 0
    while i < len(entries):
        path, t = entries[i]
        if not path:
            out.append(t)
            i += 1
            continue
        head, group, j = path[0], [], i
        while j < len(entries) and entries[j][0][:1] == (head,):
            group.append((entries[j][0][1:], entries[j][1]))
            j += 1
        out.append(f"{head}({nest_text(group)})")
        i = j
    return ",".join(out)


# --------------------------------------------------------------------------
# Execution
# --------------------------------------------------------------------------


@dataclass
class RunHooks:
    """What the caller wants to hear from Python passes."""

    debug_patterns: object = None  # callable(str) or None
    rename: dict = field(default_factory=dict)  # file names in locations -> names to print
    failures: list = field(default_factory=list)  # (pass name, exception, traceback)
    stats: dict = field(default_factory=dict)  # pass name -> {pattern: count}


@dataclass
class Stage:
    """A run of C++ passes as one textual pipeline, or one Python pass."""

    cpp: str | None = None
    py: Step | None = None


def stages(plan: Plan, root) -> list[Stage]:
    """The plan for this IR: consecutive C++ passes merged, Python passes alone."""
    if plan.root not in (None, "any") and root.name != plan.root:
        raise PipelineError(f"can't run a pipeline anchored on '{plan.root}' on a '{root.name}' op")
    out: list[Stage] = []
    pending: list[tuple[tuple[str, ...], str]] = []

    def flush():
        if pending:
            out.append(Stage(cpp=nest_text(pending)))
            pending.clear()

    for step in plan.steps:
        if step.pass_.py is None:
            for path in concrete_paths(root, step):
                pending.append((path, step.pass_.ref.text()))
            continue
        flush()
        out.append(Stage(py=step))
    flush()
    return out


def pass_manager_for(plan: Plan, root):
    from iree.compiler import passmanager

    return passmanager.PassManager(plan.root if plan.root == "any" else root.name)


def add_cpp(pm, text: str, plan: Plan) -> None:
    try:
        pm.add(text)
    except ValueError as e:
        msg = " ".join(line.strip() for line in str(e).splitlines() if line.strip())
        raise PipelineError(f"cannot build pipeline segment '{text}': {msg}", plan.text) from None


def build_pass_manager(plan: Plan, root, hooks: RunHooks):
    """One PassManager running the whole plan on ``root``, C++ and Python in order.

    Used when MLIR's instrumentation (timing, IR printing, statistics) must
    see every pass; each Python pass is a root-level ExternalPass.
    """
    pm = pass_manager_for(plan, root)
    for stage in stages(plan, root):
        if stage.cpp is not None:
            add_cpp(pm, stage.cpp, plan)
        else:
            _add_python_pass(pm, stage.py, hooks)
    return pm


def run_python_step(step: Step, root, hooks: RunHooks) -> tuple[bool, bool]:
    """Run a Python pass on the ops its step names under ``root``.

    Returns (succeeded, may have changed the IR). Failures are emitted as
    located errors; a pattern pass that applied no pattern changed nothing.
    """
    import traceback

    from .api import PatternPass
    from .rewrite_driver import PatternFailure

    p = step.pass_.py
    stats = hooks.stats.setdefault(p.name, {})
    before = sum(stats.values())
    ctx = PassContext(p.name, hooks.debug_patterns, stats, hooks.rename)

    def failed(where, e) -> tuple[bool, bool]:
        where.location.emit_error(f"pass '{p.name}' failed: {type(e).__name__}: {e}")
        hooks.failures.append((p.name, e, traceback.format_exc()))
        return False, True

    if isinstance(p, PatternPass):
        from .rewrite_driver import nothing_to_match

        try:
            if nothing_to_match(p, root):  # calls the pass's patterns()
                return True, False
        except BaseException as e:  # noqa: BLE001 - a pass bug (SystemExit too) becomes a pass failure
            if isinstance(e, KeyboardInterrupt):
                raise
            return failed(root, e)
    for target in targets(root, step):
        try:
            p.run(target.opview if hasattr(target, "opview") else target, ctx)
        except PatternFailure as e:
            e.location.emit_error(
                f"pass '{p.name}' failed: pattern '{e.pattern_name}' raised "
                f"{type(e.cause).__name__}: {e.cause} (rewriting '{e.op_name}')"
            )
            hooks.failures.append((p.name, e.cause, e.tb))
            return False, True
        except BaseException as e:  # noqa: BLE001 - a pass bug (SystemExit too) becomes a pass failure
            if isinstance(e, KeyboardInterrupt):
                raise
            return failed(target, e)
        if ctx.failed:
            return False, True
    changed = not isinstance(p, PatternPass) or sum(stats.values()) != before
    return True, changed


def _add_python_pass(pm, step: Step, hooks: RunHooks):
    p = step.pass_.py

    def run(op, pass_handle):
        ok, _changed = run_python_step(step, op, hooks)
        if not ok:
            pass_handle.signal_pass_failure()

    pm.add(run, name=type(p).__name__, argument=p.name, description=p.summary)

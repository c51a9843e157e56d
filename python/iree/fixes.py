"""``opt-py compile --fixes``: every opt-py fix at its documented point, for the target at hand.

A user should not need to know which pass fixes which IREE bug, nor where in
IREE's compilation each must run. A pass that is a fix declares, beside its
name, a ``Fix`` (authoring/fix.py): the point it is proven at, a phase
(``--inject PHASE:...``) or, for a fix that must run in the middle of a
dispatch's code generation, a codegen point per target kind
(``--inject-codegen before|after:PASS:...``). ``FIXES`` gathers them
(iree/pass_tables.py writes it); fixes sharing a phase run at one stop, in
its order.

A user turns ``--fixes`` on blind, so it must cost nothing where it finds
nothing: each fix names the ops it works on (``ops``) and runs only where one
is in the module (its module is not even imported otherwise). A fix that
rewrites what stock compiles fine, for a failure only some programs have
(``failure``), is held back: it runs only in a second compile of a program
whose first one failed with that error.

The contract, checked on the test programs, the model corpora and the peers'
suites: with ``--fixes`` a program compiles wherever stock IREE compiles, and
its numbers equal stock's or are right where stock's are wrong.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from ..authoring import Fix
from ..errors import CompileError
from .codegen import CodegenInjection
from .fixes_table import FIXES  # each pass's ``fix``, gathered in order (written by iree/pass_tables.py)
from .input_conversion import InputInjection
from .phases import PHASES, CompileResult, Injection

TARGET_KINDS = ("cpu", "cuda", "rocm")


def target_kind(iree_flags) -> str:
    """'cpu', 'cuda', 'rocm' or 'other', from iree-compile's target flags."""
    devices, backends = [], []
    for f in iree_flags:
        name, _, value = f.partition("=")
        if name == "--iree-hal-target-device":
            devices.append(value.split("[")[0])
        elif name in ("--iree-hal-local-target-device-backends", "--iree-hal-target-backends"):
            backends += value.split(",")
    kinds = {"local": "cpu", "llvm-cpu": "cpu", "cuda": "cuda", "hip": "rocm", "rocm": "rocm"}
    found = {kinds.get(x, "other") for x in devices + backends if not (x == "local" and backends)}
    if len(found) != 1:
        return "other"
    return found.pop()


def select(spec: str) -> list[Fix]:
    """The fixes named by ``--fixes=a,b`` (all for ``all`` or an empty spec), in table order."""
    known = {f.name: f for f in FIXES}
    names = [n.strip() for n in spec.split(",") if n.strip()] if spec not in ("", "all") else list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise CompileError(f"unknown fix(es) {', '.join(unknown)} in --fixes (fixes: {', '.join(known)})")
    return [f for f in FIXES if f.name in names]


def injections(
    fixes: list[Fix], iree_flags, compile_to: str | None = None
) -> tuple[list[Injection], list[CodegenInjection]]:
    """The phase and codegen injections carrying ``fixes`` for the flags' target, each guarded by its ops;
    with ``compile_to`` (--compile-to) only those that run before that stop, as stock's IR there has none
    of the later ones. Fixes sharing a codegen point share one injection (one capture of the dispatches)."""
    kind = target_kind(iree_flags)
    end = PHASES.index(compile_to) if compile_to in PHASES else len(PHASES)
    codegen_ok = PHASES.index("executable-configurations") < end
    phase_level: list[Injection] = []
    by_point: dict[str, list[Fix]] = {}
    for f in fixes:
        if f.phase and kind in f.targets and PHASES.index(f.phase) < end:
            phase_level.append(Injection(f.phase, f.spelled(kind), frozenset(f.ops)))
        if f.codegen.get(kind) and codegen_ok:
            by_point.setdefault(f.codegen[kind], []).append(f)
    codegen = []
    for point, at in by_point.items():
        inj = CodegenInjection.parse(f"{point}:{','.join(f.spelled(kind) for f in at)}")
        inj.ops = frozenset(op for f in at for op in f.ops)
        codegen.append(inj)
    return phase_level, codegen


def frontend_injections(fixes: list[Fix], iree_flags, compile_to: str | None = None) -> list[InputInjection]:
    """The ``--inject-input`` injections carrying the frontend fixes among ``fixes`` for the flags' target,
    each guarded by its ops in the module as parsed (the frontend is part of IREE's input phase: with
    ``compile_to`` any phase from ``input`` on)."""
    end = PHASES.index(compile_to) if compile_to in PHASES else len(PHASES)
    if end < PHASES.index("input"):
        return []
    kind = target_kind(iree_flags)
    out = []
    for f in fixes:
        if f.frontend and kind in f.targets:
            inj = InputInjection.parse(f"{f.frontend}:{f.spelled(kind)}")
            inj.ops = frozenset(f.ops)
            out.append(inj)
    return out


def specs(spec: str, iree_flags) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ``--inject`` and ``--inject-codegen`` arguments that run the fixes ``spec`` names unconditionally:
    for tools that vary or leave out one fix (``--fixes`` itself runs each on its ops and holds some back)."""
    phase, codegen = injections(select(spec), iree_flags)
    return tuple(f"{j.phase}:{j.pipeline}" for j in phase), tuple(c.spelled() for c in codegen)


def applies(f: Fix, iree_flags, compile_to: str | None = None) -> bool:
    """Whether ``f`` is injected for the flags' target (before ``compile_to``)."""
    return any(injections([f], iree_flags, compile_to)) or bool(frontend_injections([f], iree_flags, compile_to))


@dataclass
class FixRun:
    """What ``--fixes`` did in a compile: the fixes chosen, those held back and never needed, and those a
    first compile's failure brought into a second one (with that failure's line)."""

    chosen: list[Fix]
    held: list[Fix] = field(default_factory=list)
    brought: list[Fix] = field(default_factory=list)
    failure: str = ""
    const_eval: bool = False  # opt-py evaluated the constants, the fixes inside (IREE's failed in its phase)


def compile_with_fixes(
    input_path: str,
    iree_flags: list[str],
    spec: str = "all",
    *,
    injections_after: tuple = (),
    codegen_after: tuple = (),
    compile_to: str | None = None,
    leave_out: tuple[str, ...] = (),
    **compile_options,
) -> tuple[CompileResult, FixRun]:
    """Compile with the fixes ``spec`` names (``--fixes=spec``), then the caller's injections at each point.

    With every fix (``all``), the held-back ones (``Fix.failure``) are left out of the compile; if it fails
    with the failure one of them exists for, the program is compiled again with those too, until it
    compiles or no held-back fix answers its error. Named fixes all run in the first compile. IREE's
    const-eval JIT, a compile of its own where no fix runs, is held back the same way: if the compile
    fails in global-optimization (where that JIT runs), it is compiled again with opt-py's const-eval,
    the fixes inside (iree/const_eval.py), which costs a nested compile of its own where IREE's works.
    ``leave_out``: fixes dropped from ``spec``, the others run as ``spec`` runs them (with ``all``, the
    held-back ones still held back): ``--fixes`` minus one, to find what one fix costs (opt-py bundle)."""
    from .const_eval import PHASE as CONST_EVAL_PHASE  # where IREE's const-eval JIT runs
    from .phases import compile_with_injections

    dropped = {f.name for f in select(",".join(leave_out))} if leave_out else set()
    run = FixRun([f for f in select(spec) if f.name not in dropped])
    if spec in ("", "all"):
        run.held = [f for f in run.chosen if f.failure and applies(f, iree_flags, compile_to)]
    # Where opt-py could take const-eval over, a stop after global-optimization tells a failure there.
    can_take = const_eval_takeover(run.chosen, iree_flags, compile_to)[0] is not None
    after = dict(compile_options.pop("after_phase", None) or {})
    input_after = list(compile_options.pop("input_injections", None) or ())
    if can_take:
        after.setdefault(CONST_EVAL_PHASE, [])
    data = None
    if (run.held or can_take) and not _regular_file(input_path):
        with open(input_path, "rb") as f:  # a stream is read once, for every compile
            data = f.read()
    notes: list[str] = []
    while True:
        fixes = [f for f in run.chosen if f not in run.held]
        phase, codegen = injections(fixes, iree_flags, compile_to)
        const_eval, flags = None, iree_flags
        if run.const_eval:
            const_eval, flags, said = const_eval_takeover(fixes, iree_flags, compile_to)
            notes += [n for n in said if n not in notes]
        result = compile_with_injections(
            input_path,
            flags,
            [*phase, *injections_after],
            codegen_injections=[*codegen, *codegen_after],
            input_injections=[*frontend_injections(fixes, iree_flags, compile_to), *input_after],
            compile_to=compile_to,
            data=data,
            const_eval=const_eval,
            after_phase=after,
            **compile_options,
        )
        if result.ok:
            break
        text = "\n".join(result.messages)
        if can_take and not run.const_eval and f"before reaching phase '{CONST_EVAL_PHASE}'" in text:
            run.const_eval = True
            notes.append(
                f"opt-py: note: IREE failed in {CONST_EVAL_PHASE}, where its const-eval JIT compiles constants "
                "without the fixes: compiling again with opt-py's const-eval, the fixes inside"
            )
            continue
        wanted = [f for f in run.held if re.search(f.failure, text)]
        if not wanted:
            break
        line = next(m for m in result.messages if any(re.search(f.failure, m) for f in wanted))
        run.failure = run.failure or line.strip().splitlines()[0]
        run.held = [f for f in run.held if f not in wanted]
        run.brought += wanted
        notes.append(
            f"opt-py: note: IREE failed with '{line.strip().splitlines()[0]}': compiling again with "
            f"{', '.join(f.name for f in wanted)} (--fixes runs them only where a program has that failure)"
        )
    result.messages[:0] = notes
    return result, run


def const_eval_takeover(chosen, iree_flags, compile_to: str | None = None):
    """IREE's const-eval JIT is a compile of its own where no injection runs: opt-py's const-eval with
    ``chosen`` inside (a ``ConstEval`` step, or None where it stays IREE's), the outer flags, notes."""
    from .const_eval import takeover

    return takeover(lambda nested: injections(list(chosen), nested), iree_flags, compile_to)


def _regular_file(path: str) -> bool:
    import os
    import stat

    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # the compile reports it


def describe(iree_flags) -> str:
    """The ``--list-fixes`` table for the flags' target."""
    kind = target_kind(iree_flags)
    rows = [f"fixes for target '{kind}':"]
    for f in FIXES:
        where = [f"--inject {shlex.quote(f'{f.phase}:{f.spelled(kind)}')}"] if f.phase and kind in f.targets else []
        if f.codegen.get(kind):
            where.append(f"--inject-codegen {shlex.quote(f'{f.codegen[kind]}:{f.spelled(kind)}')}")
        if f.frontend and kind in f.targets:
            where.append(f"--inject-input {shlex.quote(f'{f.frontend}:{f.spelled(kind)}')}")
        rows.append(f"  {f.name:<34} {' and '.join(where) or '(none for this target)'}")
        rows.append(f"  {'':<34} {f.fixes}")
        if where:
            rows.append(f"  {'':<34} runs where the module has {' or '.join(f.ops)}")
            if f.frontend:
                rows.append(f"  {'':<34} (its ops are looked for in the module as parsed, before the frontend)")
            if f.failure:
                rows.append(
                    f"  {'':<34} held back: runs only in a second compile, after IREE failed with '{f.failure}'"
                )
    return "\n".join(rows)


def report(run: FixRun, iree_flags, result: CompileResult, compile_to: str | None = None) -> str:
    """The ``--fixes-report`` table: each fix injected for the flags' target, where it ran, the time it
    took and what it rewrote where (``result.rewrites``: ``authoring.Rewrite`` records); fixes that found
    none of their ops, held-back fixes no failure called for; last, the fixes' time in all."""
    kind = target_kind(iree_flags)
    seconds = result.seconds
    ran = [f for f in run.chosen if f not in run.held]
    phases, codegen = injections(ran, iree_flags, compile_to)
    ran_at = {}
    for j in phases:
        ran_at.setdefault(j.pipeline.split("{", 1)[0], []).append(j.phase)
    for c in codegen:
        for name in c.pipeline.split(","):
            ran_at.setdefault(name.split("{", 1)[0], []).append(f"codegen {c.where}:{c.pass_name}")
    for x in frontend_injections(ran, iree_flags, compile_to):
        ran_at.setdefault(x.pipeline.split("{", 1)[0], []).append(f"frontend {x.where}:{x.pass_name}")
    by_pass: dict[str, list] = {}
    for r in result.rewrites:
        by_pass.setdefault(r.pass_name, []).append(r)
    rows = [f"opt-py: fixes report (target '{kind}'):"]
    if run.brought:
        rows.append(f"  (a first compile failed with '{run.failure}': compiled again with the fixes for it)")
    if run.const_eval:
        rows.append("  (IREE failed where its const-eval runs: opt-py evaluated the constants, the fixes inside)")
    for f in run.chosen:
        if f in run.held:
            rows.append(f"  {f.name:<34} {'held back':<22} {'':>8}  no compile failed with the failure it is for")
            continue
        if f.name not in ran_at:
            continue
        done = by_pass.get(f.name, [])
        where = ", ".join(ran_at[f.name])
        if f.name not in seconds:
            rows.append(f"  {f.name:<34} {where:<22} {'0 ms':>8}  none of its ops in the module: not run")
            continue
        took = f"{seconds[f.name] * 1e3:.0f} ms"
        if not done:
            rows.append(f"  {f.name:<34} {where:<22} {took:>8}  nothing to rewrite")
            continue
        counts = {}
        for r in done:
            counts[r.what] = counts.get(r.what, 0) + 1
        what = ", ".join(f"{n} x {w}" for w, n in counts.items())
        rows.append(f"  {f.name:<34} {where:<22} {took:>8}  {what}")
        places = list(dict.fromkeys(f"'{r.op_name}' at {r.where}" for r in done))
        more = f" and {len(places) - 3} more" if len(places) > 3 else ""
        rows.append(f"  {'':<34} {'':<22} {'':>8}  {'; '.join(places[:3])}{more}")
    total = sum(seconds.get(f.name, 0.0) for f in ran if f.name in ran_at)
    rows.append(f"opt-py: the fixes took {total:.3f} s in all (the rest of the compile is IREE's)")
    return "\n".join(rows)

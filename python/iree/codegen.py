"""Python passes inside IREE's code generation of each dispatch function (``--inject-codegen``).

IREE picks each dispatch function's codegen pipeline at run time and runs it
inside one opaque pass, so nothing can be inserted into it from outside. The
contract: injecting a pipeline that changes nothing gives exactly stock
IREE's executable; a point where that cannot be guaranteed is refused with an
error naming it. Around the first injection point of a function:

1. IREE's own lowering runs up to the point and hands the function over
   (codegen_capture.py); the prefix is never replayed.
2. Where the injected pipeline leaves the function as it was, the function
   is left to IREE whole: stock's executable by construction.
3. Otherwise the rest of the pipeline is replayed from IREE's recorded passes
   with the injections spliced in, or refused (codegen_replay.py), and the
   function's pipeline becomes empty so that IREE finishes the variant
   (LLVM conversion, linking, serialization) as usual.

What IREE runs is read from its own IR dumps (codegen_lowering.py);
docs/reference/codegen-injection.md says why the design is so, from IREE's sources.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import CodegenError
from .codegen_capture import capture, capture_at_point, capture_spec, taken_over
from .codegen_lowering import (
    CodegenInjection,
    FunctionLowering,
    discover,
    dispatch_functions,
    pass_name,
    selectable,
    split_points,
)
from .codegen_replay import faithful_suffix, replace_and_replay

UNNAMABLE_NOTE = (
    "(no textual registration: the IR after it is taken before the next pass; "
    "a changed function is not replayed across it)"
)


@dataclass
class _Plan:
    """One function's injections: its first point, every point's pipelines, and its suffix
    when it has several points (None: decided after the first point's pipeline ran)."""

    low: FunctionLowering
    splices: dict[int, list[str]]
    items: list[str] | None

    @property
    def start(self) -> int:
        return min(self.splices)


def inject_into_codegen(module, iree_flags, injections: list[CodegenInjection], run_plan, report) -> list[str]:
    """Run the injections inside IREE's codegen of every dispatch function.

    ``run_plan(pipeline_text, op) -> bool`` runs an opt-py pipeline on an op;
    ``report(line)`` receives warnings. Returns the names of the functions
    that have an injection point (replayed or left to IREE). One point
    (``--fixes`` has one) is captured directly (``capture_at_point``):
    discovery, a compile of its own, is then paid only when the pipeline
    changed a function, which needs its recorded passes.
    """
    if len(injections) == 1:
        direct = capture_at_point(module, iree_flags, injections[0])
        if direct is not None:
            return _inject_at_point(module, iree_flags, injections[0], direct, run_plan)
    plans = _plans(module, discover(module, iree_flags), injections, report)
    wanted = {name: capture_spec(p.low, p.start) for name, p in plans.items() if p.start > 0}
    captured = capture(module, iree_flags, wanted) if wanted else {}
    funcs = dispatch_functions(module)
    for name, plan in plans.items():
        _inject_into(name, funcs[name], captured.get(name), plan, run_plan)
    return list(plans)


def _plans(module, lowered: dict[str, FunctionLowering], injections, report) -> dict[str, _Plan]:
    """What to do with each dispatch function that has an injection point; an unfaithful
    suffix between several points is refused here, before any work."""
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
        items = None if len(splices) == 1 else faithful_suffix(low, min(splices), splices)
        plans[name] = _Plan(low, splices, items)
    return plans


def _inject_into(name: str, original, captured: str | None, plan: _Plan, run_plan) -> None:
    """Run ``plan`` on one function: taken over at its first point (or copied, at the start)."""
    from iree.compiler import ir

    from ..patterns.ir_utils import operation

    # The function at the point, in a module of its own (``holder``) until it replaces the original.
    if captured is not None:
        holder, work = taken_over(name, captured, original)
    else:
        holder = ir.Module.create()
        work = operation(operation(original).clone(ip=ir.InsertionPoint(holder.body)))
    items = plan.items
    if items is None:  # one point: run it, and see whether it changed anything
        if not _changed_by(run_plan, plan.splices[plan.start], work, name):
            return  # unchanged: IREE lowers the original function itself, as stock does
        items = faithful_suffix(plan.low, plan.start, {plan.start: []})
    replace_and_replay(original, work, items, run_plan)


def _inject_at_point(module, iree_flags, inj: CodegenInjection, captured: dict[str, str], run_plan) -> list[str]:
    """``inject_into_codegen`` for one point whose IR ``capture_at_point`` gave."""
    funcs = dispatch_functions(module)
    captured = {name: text for name, text in captured.items() if name in funcs}
    changed = []
    for name, text in captured.items():
        holder, work = taken_over(name, text, funcs[name])
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
        replace_and_replay(funcs[name], work, faithful_suffix(low, points[0], {points[0]: []}), run_plan)
    return list(captured)


def _changed_by(run_plan, pipelines: list[str], work, name: str) -> bool:
    """Run the injected pipelines on ``work``; whether they changed it."""
    before = work.get_asm(print_generic_op_form=True, assume_verified=True)
    if not run_plan("func.func(" + ",".join(pipelines) + ")", work):
        raise CodegenError(f"the injected pipeline failed in the codegen of '@{name}'")
    return work.get_asm(print_generic_op_form=True, assume_verified=True) != before


def list_codegen_passes(module, iree_flags) -> str:
    """``opt-py compile --list-codegen-passes``: each dispatch function's codegen passes, numbered."""
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
            out.append(f"  {i:3d}. {p}" + ("" if selectable(pass_name(p)) else f"  {UNNAMABLE_NOTE}"))
        if low.failed_at:
            out.append(f"  FAILED at {low.failed_at}: later passes unknown")
    return "\n".join(out)

"""Text to plan: parse a pipeline, resolve each name, build each pass, place it.

The pipeline text is read by ``syntax.parse_pipeline``, not by MLIR, because
the bindings' ``PassManager.parse`` cannot name Python passes. A name
resolves to a Python pass (opt-py's own, a plugin's, or one registered in
process), built from its option text by ``Pass.from_options``, or to a C++
pass (validated by MLIR's own parser). The plan is a list of steps, each one
pass with where it runs: an explicit nesting path, or for a *bare list* (a
pipeline not wrapped in the root op's name) every op of the pass's anchor
wherever it is, inside ``hal.executable`` variants too. The plan knows no
IR; run/engine.py turns it into stages over a module.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from ..authoring import Pass
from ..errors import PassOptionError, PipelineError
from ..syntax import Nest, PassRef, parse_pipeline
from . import anchors, registry
from .cpp import cpp_probe

# --------------------------------------------------------------------------
# Resolving names
# --------------------------------------------------------------------------


FUNCTION_OPS = ("func.func", "util.func")


def _unknown_pass(ref: PassRef, text: str) -> PipelineError:
    names = registry.all_pass_names()
    close = difflib.get_close_matches(ref.name, names, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    return PipelineError(f"'{ref.name}' does not refer to a registered pass or pass pipeline{hint}", text, ref.col)


@dataclass
class Resolved:
    ref: PassRef
    py: Pass | None  # the configured Python pass, or None for C++


def resolve(ref: PassRef, text: str) -> Resolved:
    cls = registry.builtin_pass(ref.name)
    if cls is None:
        problem = cpp_probe(ref.text())
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
        return Resolved(ref, cls.from_pairs(ref.pairs()))
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
            anchor = anchors.anchor_of(el.name)  # an op name, 'any', 'function' or 'unknown'
            if anchor == "unknown":
                raise PipelineError(
                    f"cannot tell which op '{el.name}' runs on (probing it crashed); nest it "
                    f"explicitly, e.g. builtin.module(hal.executable(hal.executable.variant({el.name})))",
                    text,
                    el.col,
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

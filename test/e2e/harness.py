"""The end-to-end harness: a program, input generators, a numpy reference.

``check(case, target, ...)`` compiles the program with and without the
injected passes (opt-py compile, in process), runs both through the
``iree-run-module`` CLI and through ``iree.runtime``, and compares every
result with the numpy reference at the output dtype's tolerance.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from opt_py.execution import e2e


@dataclass
class Case:
    name: str
    program: str  # MLIR at input level
    function: str
    make_inputs: Callable[[np.random.Generator], list]
    reference: Callable[..., list]  # numpy: inputs -> expected outputs
    inject: tuple = ()
    inject_codegen: tuple = ()
    seed: int = 0
    tags: set = field(default_factory=set)


@dataclass
class Outcome:
    """Results of every (build, runner) pair, compared with the reference."""

    results: dict  # (build, runner) -> list of arrays
    expected: list
    problems: list


def check(case: Case, target: e2e.Target, *, builds=("plain", "injected"), reference_for=None) -> Outcome:
    """Compile, run both ways, compare. ``reference_for(build)`` overrides the reference per build."""
    rng = np.random.default_rng(case.seed)
    inputs = case.make_inputs(rng)
    expected = [np.asarray(x) for x in case.reference(*inputs)]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"{case.name}.mlir")
        with open(path, "w") as f:
            f.write(case.program)
        vmfbs = {}
        for build in builds:
            injected = build == "injected"
            vmfbs[build] = e2e.compile_program(
                path,
                target,
                inject=case.inject if injected else (),
                inject_codegen=case.inject_codegen if injected else (),
            )
    results, problems = {}, []
    for build, vmfb in vmfbs.items():
        want = [np.asarray(x) for x in reference_for(build, *inputs)] if reference_for else expected
        for runner in ("iree-run-module", "iree.runtime"):
            if runner == "iree-run-module":
                got = e2e.run_cli(vmfb, target, case.function, inputs, len(want))
            else:
                try:
                    got = e2e.run_runtime(vmfb, target, case.function, inputs)
                except e2e.ModuleMisbehaved as e:  # faulted, or changed between two calls: a wrong result
                    problems.append(f"{case.name} [{build}, {runner}]: {e}")
                    continue
            results[(build, runner)] = got
            want_cast = [w.astype(g.dtype) if w.shape == g.shape else w for w, g in zip(want, got)]
            for d in e2e.compare(got, want_cast):
                if not d.same:
                    problems.append(
                        f"{case.name} [{build}, {runner}] output {d.index}: max abs diff "
                        f"{d.max_abs:.3g}, {d.mismatched}/{d.total} mismatched {d.note}"
                    )
    return Outcome(results, expected, problems)

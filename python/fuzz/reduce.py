"""Shrinking a failing program to a few ops that still fail the same way (delta debugging over the graph).

A candidate is the program with some nodes cut out: each cut node's value
becomes an input holding the value the reference computed there, so the ops
that remain see the numbers they saw in the whole program, and whatever no
output needs is dropped. ``still_fails(candidate)`` compiles and runs one
side and says whether it shows the failure's signature. First the outputs
(one suffices, the first wrong one for wrong numbers), then Zeller's ddmin
over the nodes (chunks cut, halving), then each remaining node alone, then
the program with every dim static; each within a budget of tests.
"""

from __future__ import annotations

from dataclasses import replace

from .program import Program


class Budget:
    def __init__(self, tests: int):
        self.left, self.used = tests, 0

    def spend(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        self.used += 1
        return True


def reduce_program(program: Program, reference: dict, still_fails, budget: Budget, first_outputs=()) -> Program:
    """The smallest program found that ``still_fails``; ``program`` itself is known to."""
    best = program

    def attempt(candidate: Program, smaller: bool = True) -> bool:
        nonlocal best
        if smaller and candidate.size() >= best.size() and candidate.outputs == best.outputs:
            return False
        if not candidate.nodes or not budget.spend():
            return False
        if still_fails(candidate):
            best = candidate
            return True
        return False

    for k in [*first_outputs, *range(len(program.outputs))]:
        if len(best.outputs) > 1 and k < len(program.outputs) and attempt(program.keep_outputs([program.outputs[k]])):
            break
    best = _ddmin(best, reference, attempt)
    for nid in list(best.cuttable()):  # one node at a time: what ddmin's chunks left
        if nid in {n.id for n in best.nodes}:
            attempt(best.cut([nid], reference))
    static = _static(best)
    if static is not None:
        attempt(static, smaller=False)
    return best


def _ddmin(start: Program, reference: dict, attempt) -> Program:
    best = start
    n = 2
    while True:
        nodes = [i for i in best.cuttable() if i not in best.outputs]
        if len(nodes) < 2 and n > 2:
            break
        if not nodes:
            break
        chunk = max(1, len(nodes) // n)
        chunks = [nodes[i : i + chunk] for i in range(0, len(nodes), chunk)]
        progress = False
        for c in chunks:
            before = best
            if attempt(best.cut(c, reference)):
                progress = best is not before
                break
        if progress:
            n = max(n - 1, 2)
            continue
        if chunk == 1:
            break
        n = min(n * 2, len(nodes))
    return best


def _static(program: Program) -> Program | None:
    """The program with no dynamic dims, or None when it has none."""
    if not any(any(i.value.dynamic) for i in program.inputs) and not any(any(n.value.dynamic) for n in program.nodes):
        return None
    inputs = [replace(i, value=replace(i.value, dynamic=())) for i in program.inputs]
    nodes = [replace(n, value=replace(n.value, dynamic=())) for n in program.nodes]
    static = replace(program, inputs=inputs, nodes=nodes)
    static.notes = {**program.notes, "static": True}
    return static

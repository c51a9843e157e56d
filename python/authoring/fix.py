"""A fix: where ``opt-py compile --fixes`` runs one of opt-py's own passes, and what it fixes.

A pass in ``python/passes/`` that is a fix declares it beside its name and
summary (``fix = Fix(...)``): the one home of what the pass is.
``python tools/write_pass_tables.py`` gathers the declarations into the table
``--fixes`` reads (``iree/fixes_table.py``, so that choosing fixes imports no
pass) and into the README's and docs/reference/fixes.md's tables; a test
fails while any of them is stale. This module imports nothing, so declaring a
fix costs nothing.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field

# The failures held-back fixes exist for, as IREE words them.
WORKGROUP_MEMORY = r"bytes of shared memory; exceeded the limit of"  # GPUCheckResourceUsage
STACK = r"exceeded stack allocation limit of|expected no unbounded stack allocations|stack allocation size overflows"  # LLVMCPUCheckIRBeforeLLVM...

# The torch ops IREE's frontend has no lowering for reach it as torch.operator "name".
TORCH_OPERATOR = ("torch.operator",)

TARGETS = ("cpu", "cuda", "rocm", "other")  # the target kinds (iree/fixes.py's target_kind)


@dataclass(frozen=True)
class Fix:
    fixes: str  # what it fixes, one line (--list-fixes, the README's pass table)
    _: KW_ONLY
    ops: tuple[str, ...]  # the ops it works on: it runs only where one of them is in the module at its point
    phase: str | None = None  # phase-level injection point
    codegen: dict = field(default_factory=dict)  # target kind -> "before:PASS" / "after:PASS"
    targets: tuple = TARGETS  # where the phase-level injection applies
    options: dict = field(default_factory=dict)  # target kind -> pass options there, e.g. "{rule=gpu}"
    failure: str | None = None  # held back until a compile fails with this (a regex of IREE's error)
    frontend: str | None = None  # a point inside IREE's torch/ONNX frontend, "after:PASS"; ops: as parsed
    after: str | None = None  # the fix this one must run after at its point, where the order matters (checked)
    name: str = ""  # the pass's (filled in when the declarations are gathered)

    def spelled(self, kind: str) -> str:
        """The pass as the pipeline for ``kind`` names it (with that target's options)."""
        return self.name + self.options.get(kind, "")

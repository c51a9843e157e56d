"""The options of an mlir-opt run, declared once: each field names its command-line flag and help.

``opt-py``'s flags are derived from these fields (``tool/cli.py``), so a new
option is one field here; the library takes the same dataclass
(``run_pipeline(..., options=OptOptions(...))``). A boolean field is a flag
as mlir-opt spells it: ``--flag`` or ``--flag=false``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


def flag(spellings: str | tuple[str, ...], help: str, default=False, metavar: str | None = None):
    """A field of ``OptOptions`` and the command-line flag that sets it."""
    spellings = (spellings,) if isinstance(spellings, str) else spellings
    return dataclasses.field(default=default, metadata={"flags": spellings, "help": help, "metavar": metavar})


@dataclass
class OptOptions:
    pipeline: str = flag(
        ("--pipeline", "--pass-pipeline", "-p"),
        "textual pass pipeline, e.g. 'builtin.module(func.func(canonicalize,my-pass{x=1}))' "
        "or a bare list 'canonicalize,my-pass' nested to each pass's anchor",
        default="",
    )
    split_input_file: bool = flag("--split-input-file", "split the input at '// -----' and process each chunk")
    verify_diagnostics: bool = flag("--verify-diagnostics", "check diagnostics against expected-* comments")
    print_ir_before_all: bool = flag("--mlir-print-ir-before-all", "print IR before each pass")
    print_ir_after_all: bool = flag("--mlir-print-ir-after-all", "print IR after each pass")
    print_ir_after_change: bool = flag(
        "--mlir-print-ir-after-change", "print IR after a pass only when it changed the IR"
    )
    print_ir_after_failure: bool = flag("--mlir-print-ir-after-failure", "print IR after a pass fails")
    print_ir_module_scope: bool = flag("--mlir-print-ir-module-scope", "print the whole module in IR dumps")
    timing: bool = flag("--mlir-timing", "report pass timing")
    pass_statistics: bool = flag("--mlir-pass-statistics", "report pass statistics")
    verify_each: bool = flag("--verify-each", "verify the IR after each pass (default true)", default=True)
    allow_unregistered_dialect: bool = flag("--allow-unregistered-dialect", "allow ops of unregistered dialects")
    print_op_generic: bool = flag("--mlir-print-op-generic", "print ops in generic form")
    print_debuginfo: bool = flag("--mlir-print-debuginfo", "print locations")
    print_local_scope: bool = flag("--mlir-print-local-scope", "print attributes and types inline, not as aliases")
    emit_bytecode: bool = flag("--emit-bytecode", "write MLIR bytecode instead of text")
    disable_threading: bool = flag("--mlir-disable-threading", "run passes on one thread")
    debug_patterns: bool = flag("--debug-patterns", "print each Python pattern application and reported match failure")
    debug: bool = flag("--debug", "print the full Python traceback of a failing Python pass")

    @property
    def prints_ir(self) -> bool:
        return any(
            (self.print_ir_before_all, self.print_ir_after_all, self.print_ir_after_change, self.print_ir_after_failure)
        )


def boolean_flags() -> dict[str, str]:
    """The boolean flags' spellings -> their fields' names."""
    return {
        spelling: f.name
        for f in dataclasses.fields(OptOptions)
        if isinstance(f.default, bool)
        for spelling in f.metadata["flags"]
    }

"""copy-shared-tied-operand: the fix for stock IREE writing a shared value in place (issue 14, second cause).

Inject it at the end of the flow phase: ``opt-py compile --inject
flow:copy-shared-tied-operand``. Why it is needed and why it is sound: see
``opt_py.patterns.copy_shared_tied_operand``.
"""

from dataclasses import dataclass

from ..authoring import Fix, Pass
from ..patterns.copy_shared_tied_operand import copy_shared_tied_operands
from ..patterns.ir_utils import operation


@dataclass(frozen=True)
class CopySharedTiedOperand(Pass):
    name = "copy-shared-tied-operand"
    anchor = "builtin.module"  # it copies executables: the module holding them
    summary = (
        "Give each in-place (tied) dispatch operand whose value has other uses its own copy, made by a "
        "dispatch of its own executable, so stream cannot share, elide or reorder the copy"
    )
    # After clone-splat: once each in-place use of a splat-like dispatch has its own dispatch, only values
    # stream really shares are left for this one to copy.
    fix = Fix(
        "a value written in place and also used elsewhere (returned, read) seen "
        "with the writes: stream reorders the reader's copy, or the ABI returns the written argument",
        phase="flow",
        ops=("flow.dispatch",),
        after="clone-splat-dispatch-per-tied-use",
    )

    def run(self, op, ctx):
        users = copy_shared_tied_operands(operation(op))
        if users:
            ctx.bump("operands given a copy", len(users))
        for user in users:
            ctx.rewrote("operand given a copy", user)

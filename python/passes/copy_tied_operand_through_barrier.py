"""copy-tied-operand-through-barrier: the fix for stock IREE writing in place a shared value behind a barrier.

Inject it at the end of the flow phase: ``opt-py compile --inject
flow:copy-tied-operand-through-barrier``. Why it is needed and why it is
sound: see ``opt_py.patterns.copy_tied_operand_through_barrier``.
"""

from dataclasses import dataclass

from ..authoring import Fix, Pass
from ..patterns.copy_tied_operand_through_barrier import copy_tied_operands_through_barriers
from ..patterns.ir_utils import operation


@dataclass(frozen=True)
class CopyTiedOperandThroughBarrier(Pass):
    name = "copy-tied-operand-through-barrier"
    anchor = "builtin.module"  # it adds executables: the module holding them
    summary = (
        "Give each in-place operand that reaches its writer through util.optimization_barrier from a shared "
        "value (a constant, a global, a value with other uses) its own copy, made by a dispatch of its own "
        "executable: stream's copy-on-write does not see the write behind the barrier"
    )
    # After copy-shared-tied-operand, for reading: that one copies the shared values whose writes stream
    # sees, this one those a util.optimization_barrier hides from it. Each copy replaces one tied operand
    # by a fresh value the other pass leaves alone, so either order gives the same copies.
    fix = Fix(
        "a constant, global or shared value reaching an in-place op through an optimization barrier "
        "(util.unfoldable_constant, jax.lax.optimization_barrier) is written in place: results change "
        "from call to call, and a module loaded read-only (mmap) faults",
        phase="flow",
        ops=("util.optimization_barrier",),
    )

    def run(self, op, ctx):
        users = copy_tied_operands_through_barriers(operation(op))
        if users:
            ctx.bump("operands given a copy", len(users))
        for user in users:
            ctx.rewrote("operand given a copy", user)

"""clone-splat-dispatch-per-tied-use: the fix for stock IREE's scatter-into-zeros miscompile (issue 14).

Inject it at the end of the flow phase: ``opt-py compile --inject
flow:clone-splat-dispatch-per-tied-use``. Why it is needed and why it is
sound: see ``opt_py.patterns.clone_splat_dispatch_per_tied_use``.
"""

from dataclasses import dataclass

from ..authoring import Fix, Pass
from ..patterns.clone_splat_dispatch_per_tied_use import clone_splat_dispatches_per_tied_use
from ..patterns.ir_utils import operation


@dataclass(frozen=True)
class CloneSplatDispatchPerTiedUse(Pass):
    name = "clone-splat-dispatch-per-tied-use"
    anchor = "builtin.module"  # it copies executables: the module holding them
    summary = (
        "Give each in-place (tied) use of a dispatch that consumes no tensor its own copy of the "
        "dispatch and of its executable, so stream's CSE cannot merge the copies copy-on-write needs"
    )
    fix = Fix(
        "scatters into one broadcast destination merged by stream's CSE "
        "(wrong numbers, e.g. an MoE router over a dynamic token count)",
        phase="flow",
        ops=("flow.dispatch",),
    )

    def run(self, op, ctx):
        users = clone_splat_dispatches_per_tied_use(operation(op))
        if users:
            ctx.bump("uses given a copy", len(users))
        for user in users:
            ctx.rewrote("use given a copy", user)

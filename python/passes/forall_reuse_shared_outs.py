"""forall-reuse-shared-outs: tiles of scf.forall computed in place in their shared_outs."""

from dataclasses import dataclass

from ..authoring import STACK, WORKGROUP_MEMORY, Fix, PatternPass
from ..patterns.forall_reuse_shared_outs import reuse_shared_out_for_empty


@dataclass(frozen=True)
class ForallReuseSharedOuts(PatternPass):
    name = "forall-reuse-shared-outs"
    anchor = "any"
    summary = (
        "Inside scf.forall, replace a tensor.empty destination whose tile is written back with "
        "tensor.parallel_insert_slice by an extract_slice of the shared_out (no allocation per tile)"
    )
    # Held back: it rewrites every tile destination it can prove, while IREE's own empty-tensor elimination
    # already avoids the allocation for tiles that keep all their dims; the blow-up is a failure to compile.
    fix = Fix(
        "a tile of scf.forall allocated privately: the stack or workgroup memory overflows",
        phase="executable-sources",
        ops=("tensor.empty",),
        failure=f"{STACK}|{WORKGROUP_MEMORY}",
    )

    def patterns(self):
        return [reuse_shared_out_for_empty]

"""forall-reuse-shared-outs: tiles of scf.forall computed in place in their shared_outs."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.forall_reuse_shared_outs import reuse_shared_out_for_empty


@dataclass(frozen=True)
class ForallReuseSharedOuts(PatternPass):
    name = "forall-reuse-shared-outs"
    anchor = "any"
    summary = (
        "Inside scf.forall, replace a tensor.empty destination whose tile is written back with "
        "tensor.parallel_insert_slice by an extract_slice of the shared_out (no allocation per tile)"
    )

    def patterns(self):
        return [reuse_shared_out_for_empty]

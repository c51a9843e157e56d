"""torch-scatter-reduce-exclude-self: scatter_reduce without self, whose splat-fed lowering fails llvm-cpu, fed by data."""

from dataclasses import dataclass

from ..authoring import STACK, Fix, PatternPass
from ..patterns.torch_scatter_reduce_exclude_self import exclude_self_as_init_scatter


@dataclass(frozen=True)
class TorchScatterReduceExcludeSelf(PatternPass):
    name = "torch-scatter-reduce-exclude-self"
    anchor = "func.func"
    summary = (
        "Write torch.aten.scatter_reduce.two with include_self=false as torch computes it: the reduction's "
        "identity scattered into self (from an index-fed where, not a splat), then include_self=true "
        "(mean: a sum over a scatter_add count)"
    )
    fix = Fix(
        "scatter_reduce with include_self=false and a dynamic index fails llvm-cpu (a splat fill fused into the "
        "scatter: an unbounded stack allocation): the identity scattered from an index-fed where, as torch does",
        phase="start",
        ops=("torch.aten.scatter_reduce.two",),
        failure=STACK,
    )

    def patterns(self):
        return [exclude_self_as_init_scatter]

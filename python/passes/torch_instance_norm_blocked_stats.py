"""torch-instance-norm-blocked-stats: torch.aten.instance_norm over a long spatial size, whose f32 statistics
IREE accumulates inaccurately, with each sum taken in blocks."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_instance_norm_blocked_stats import instance_norm_blocked_stats


@dataclass(frozen=True)
class TorchInstanceNormBlockedStats(PatternPass):
    name = "torch-instance-norm-blocked-stats"
    anchor = "func.func"
    summary = (
        "Write torch.aten.instance_norm over a static spatial size of 65536 or more as its definition with the "
        "mean and variance summed in two stages (blocks of at most 65536, then across them), in f32"
    )
    fix = Fix(
        "instance_norm over millions of elements per channel is wrong in IREE (its f32 sums of a channel outgrow "
        "their addends): the mean and variance summed in blocks",
        phase="start",
        ops=("torch.aten.instance_norm",),
    )

    def patterns(self):
        return [instance_norm_blocked_stats]

"""torch-avg-pool-as-padded-sum: avg_pool2d/3d with a unit output dim over a longer input, which IREE's unit-dim
folding breaks, as a sum pool over the input padded to exactly its windows, divided by their counts."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_avg_pool_as_padded_sum import PATTERNS, SPATIAL


@dataclass(frozen=True)
class TorchAvgPoolAsPaddedSum(PatternPass):
    name = "torch-avg-pool-as-padded-sum"
    anchor = "func.func"
    summary = (
        "Write torch.aten.avg_pool2d/3d whose output has a unit spatial dim over an input the lowering pads "
        "past the kernel as a sum pool over the input padded to exactly its windows, divided by torch's counts"
    )
    fix = Fix(
        "avg_pool2d/3d with an output dim of 1 over a longer input fails IREE (FoldUnitExtentDims leaves an "
        "invalid generic): a sum pool over exactly the windows, divided by each window's count",
        phase="start",
        ops=tuple(SPATIAL),
        after="torch-pool-unbatched-as-batched",  # which makes an unbatched pool batched first
    )

    def patterns(self):
        return PATTERNS

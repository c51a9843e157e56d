"""torch-pool-unbatched-as-batched: torch's average and max pools of an unbatched input, which torch-mlir's
linalg lowering reads as batched, as the same pool over a batch of one."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_pool_unbatched_as_batched import PATTERNS, POOLS


@dataclass(frozen=True)
class TorchPoolUnbatchedAsBatched(PatternPass):
    name = "torch-pool-unbatched-as-batched"
    anchor = "func.func"
    summary = (
        "Write torch.aten.avg_pool1d/2d/3d and max_pool1d/2d/3d of an unbatched (C, *spatial) input as the "
        "same pool of its unsqueeze(0), squeezed back"
    )
    fix = Fix(
        "avg_pool and max_pool of an unbatched (C, *spatial) input fail IREE's frontend (torch-mlir lowers "
        "them as batched: a verifier error, a crash or no legalization): a batch of one",
        phase="start",
        ops=tuple(POOLS),
    )

    def patterns(self):
        return PATTERNS

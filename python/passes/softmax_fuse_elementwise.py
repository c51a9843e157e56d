"""softmax-fuse-elementwise: decompose linalg.softmax; fuse elementwise neighbours into normalizations."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.softmax_fuse_elementwise import (
    decompose_softmax,
    fuse_consumers_into_normalization,
    recompute_producer_in_normalization,
)


@dataclass(frozen=True)
class SoftmaxFuseElementwise(PatternPass):
    name = "softmax-fuse-elementwise"
    anchor = "any"
    summary = (
        "Decompose linalg.softmax into generics (exp numerator never a tensor); fuse elementwise "
        "consumers into the final generic of a softmax or normalization and recompute elementwise "
        "producers in its reductions and final generic"
    )

    def patterns(self):
        return [decompose_softmax, fuse_consumers_into_normalization, recompute_producer_in_normalization]

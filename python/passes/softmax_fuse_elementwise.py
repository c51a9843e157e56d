"""softmax-fuse-elementwise: decompose linalg.softmax; fuse elementwise neighbours into normalizations."""

from dataclasses import dataclass

from ..authoring import WORKGROUP_MEMORY, Fix, PatternPass
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
    # GPU only, and held back: the full-size temporaries it removes matter where a dispatch overflows workgroup
    # memory; elsewhere its decomposed softmax can run slower than IREE's own lowering (its page has the figures).
    fix = Fix(
        "softmax/normalization fused with its neighbours without full-size temporaries, where a dispatch "
        "overflows workgroup memory",
        phase="global-optimization",
        targets=("cuda", "rocm"),
        ops=("linalg.generic", "linalg.softmax"),
        failure=WORKGROUP_MEMORY,
    )

    def patterns(self):
        return [decompose_softmax, fuse_consumers_into_normalization, recompute_producer_in_normalization]

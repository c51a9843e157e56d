"""torch-adaptive-max-pool2d-as-3d: torch.aten.adaptive_max_pool2d, which IREE's frontend decomposes into a
max_pool2d that holds only for fixed windows, as a 3-d adaptive pool over a unit depth."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_adaptive_max_pool2d_as_3d import adaptive_max_pool2d_as_3d


@dataclass(frozen=True)
class TorchAdaptiveMaxPool2dAs3d(PatternPass):
    name = "torch-adaptive-max-pool2d-as-3d"
    anchor = "func.func"
    summary = (
        "Write torch.aten.adaptive_max_pool2d whose windows vary in size or stride (or are dynamic) as "
        "adaptive_max_pool3d over a unit depth, which torch-mlir lowers window by window"
    )
    # On the module as parsed: IREE's frontend decomposes adaptive_max_pool2d into max_pool2d.
    fix = Fix(
        "adaptive_max_pool2d whose windows vary or are dynamic fails IREE's frontend (its max_pool2d "
        "decomposition holds only for fixed windows): a 3-d adaptive pool over a unit depth",
        phase="start",
        ops=("torch.aten.adaptive_max_pool2d",),
    )

    def patterns(self):
        return [adaptive_max_pool2d_as_3d]

"""torch-topk-unsorted-as-sorted: torch.aten.topk(sorted=False), which torch-mlir cannot lower, computed sorted."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_topk_unsorted_as_sorted import topk_unsorted_as_sorted


@dataclass(frozen=True)
class TorchTopkUnsortedAsSorted(PatternPass):
    name = "torch-topk-unsorted-as-sorted"
    anchor = "func.func"
    summary = (
        "Give torch.aten.topk with sorted=False (torch-mlir lowers only sorted=True) sorted=True: "
        "torch leaves an unsorted top-k's order unspecified, so sorted is a valid order"
    )
    fix = Fix(
        "torch.topk(sorted=False) is not lowered (DeepSeek-V3's routing): computed sorted, an order it allows",
        phase="start",
        ops=("torch.aten.topk",),
    )

    def patterns(self):
        return [topk_unsorted_as_sorted]

"""torch-split-dynamic-as-slices: a split.Tensor by a computed size, unpacked into its chunks (torch-mlir decomposes
only a constant size), each chunk as its slice."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_split_dynamic_as_slices import unpack_split_as_slices


@dataclass(frozen=True)
class TorchSplitDynamicAsSlices(PatternPass):
    name = "torch-split-dynamic-as-slices"
    anchor = "func.func"
    summary = (
        "Write the chunks of a torch.aten.split.Tensor by a non-constant size that a ListUnpack takes (left "
        "unconverted by torch-mlir) as slice.Tensor ops: chunk i of n is x[i*s:(i+1)*s], the last to the end"
    )
    fix = Fix(
        "torch.chunk / split by a size computed from a dynamic dim, unpacked into its chunks, fails IREE's torch "
        "frontend (torch-mlir decomposes only a constant size): each chunk as its slice",
        phase="start",
        ops=("torch.prim.ListUnpack",),
    )

    def patterns(self):
        return [unpack_split_as_slices]

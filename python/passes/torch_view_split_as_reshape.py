"""torch-view-split-as-reshape: a torch view splitting a dynamic dim into constant sizes (IREE's unflatten lowering
expands the dynamic dim into an all-static group, which the verifier rejects), typed so it lowers as a reshape."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_view_split_as_reshape import (
    reshape_split_as_reshape,
    unflatten_split_as_reshape,
    unsafe_view_split_as_reshape,
    view_split_as_reshape,
)


@dataclass(frozen=True)
class TorchViewSplitAsReshape(PatternPass):
    name = "torch-view-split-as-reshape"
    anchor = "func.func"
    summary = (
        "Type the split dims of a torch view/reshape/unflatten that splits one dynamic dim into constant sizes "
        "as dynamic, the result cast back: IREE's unflatten lowering then reshapes with every size given"
    )
    # On the module as parsed: reshape and _unsafe_view are still themselves (the frontend makes them views,
    # then unflattens, and fails in convert-torch-to-linalg).
    fix = Fix(
        "x.view(b, s, 12, 32) of a tensor whose split dim is dynamic (b, s = x.size(); unflatten, reshape, "
        "_unsafe_view alike) fails IREE's torch frontend (an expand_shape of a dynamic dim into static sizes): "
        "the split dims typed dynamic, lowered as a reshape",
        phase="start",
        ops=("torch.aten._unsafe_view", "torch.aten.reshape", "torch.aten.unflatten.int", "torch.aten.view"),
    )

    def patterns(self):
        return [
            view_split_as_reshape,
            unsafe_view_split_as_reshape,
            reshape_split_as_reshape,
            unflatten_split_as_reshape,
        ]

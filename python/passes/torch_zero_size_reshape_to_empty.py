"""torch-zero-size-reshape-to-empty: a reshape of a tensor with no elements becomes that empty tensor."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_zero_size_reshape_to_empty import (
    onnx_reshape_to_empty,
    reshape_to_empty,
    unsafe_view_to_empty,
    view_to_empty,
)


@dataclass(frozen=True)
class TorchZeroSizeReshapeToEmpty(PatternPass):
    name = "torch-zero-size-reshape-to-empty"
    anchor = "any"
    summary = (
        "Replace a torch view/reshape (or ONNX Reshape) whose input or output has a static 0-sized dim "
        "by an empty tensor of its result type (IREE's view lowering divides by zero on it)"
    )
    # On the module as parsed, before IREE's torch frontend lowers the reshape (and crashes on it); the
    # frontend passes the empty tensor through. Views made later by decompositions need
    # --inject-input before:convert-torch-to-linalg (docs/passes/torch-zero-size-reshape-to-empty.md).
    fix = Fix(
        "a torch/ONNX reshape of a tensor with a 0-sized dim: IREE's view lowering divides by zero (SIGFPE)",
        phase="start",
        ops=("torch.aten._unsafe_view", "torch.aten.reshape", "torch.aten.view", "torch.operator"),
    )

    def patterns(self):
        return [view_to_empty, reshape_to_empty, unsafe_view_to_empty, onnx_reshape_to_empty]

"""torch-decompose-diff: torch.aten.diff, which torch-mlir cannot lower, as cat, slices and subtractions."""

from dataclasses import dataclass

from ..authoring import TORCH_OPERATOR, Fix, PatternPass
from ..patterns.torch_decompose_diff import decompose_diff


@dataclass(frozen=True)
class TorchDecomposeDiff(PatternPass):
    name = "torch-decompose-diff"
    anchor = "func.func"
    summary = (
        "Write torch.aten.diff (no torch-mlir lowering) as prepend/input/append concatenated, "
        "then n times x[1:] - x[:-1] (logical_xor for bool), as at::diff computes it"
    )
    # The module as parsed: torch ops IREE's frontend lowering has no conversion for. Before the frontend runs,
    # so its decompositions and canonicalizations see ops they know; on another input there is nothing to match.
    fix = Fix(
        "torch.aten.diff has no lowering (transformers' attention masks): slices and subtractions",
        phase="start",
        ops=TORCH_OPERATOR,
    )

    def patterns(self):
        return [decompose_diff]

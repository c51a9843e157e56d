"""torch-decompose-isfinite: torch.aten.isfinite, which torch-mlir cannot lower, as abs(x) < inf (floats) or
all true (integers and bools)."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_isfinite import decompose_isfinite


@dataclass(frozen=True)
class TorchDecomposeIsfinite(PatternPass):
    name = "torch-decompose-isfinite"
    anchor = "func.func"
    summary = (
        "Write torch.aten.isfinite (no torch-mlir lowering) as abs(x) < inf for floats (false for +-inf and "
        "NaN) and as ones_like(x, bool) for integers and bools"
    )
    fix = Fix(
        "torch.isfinite has no lowering in IREE's torch frontend: abs(x) < inf for floats, all true for "
        "integers and bools",
        phase="start",
        ops=("torch.aten.isfinite",),
    )

    def patterns(self):
        return [decompose_isfinite]

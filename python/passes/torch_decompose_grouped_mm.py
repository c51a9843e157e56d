"""torch-decompose-grouped-mm: grouped matmuls (transformers' fallback op, aten._grouped_mm), which torch-mlir
cannot lower, as a per-row gather of the group's matrix and a batched matmul."""

from dataclasses import dataclass

from ..authoring import TORCH_OPERATOR, Fix, PatternPass
from ..patterns.torch_decompose_grouped_mm import decompose_grouped_mm


@dataclass(frozen=True)
class TorchDecomposeGroupedMM(PatternPass):
    name = "torch-decompose-grouped-mm"
    anchor = "func.func"
    summary = (
        "Write transformers::grouped_mm_fallback and aten._grouped_mm (2-d x 3-d with offsets; no torch-mlir "
        "lowering) as each row's group found from the offsets, its matrix gathered, and a batched matmul"
    )
    fix = Fix(
        "transformers::grouped_mm_fallback and aten._grouped_mm have no lowering (transformers' default MoE "
        "experts): each row's expert matrix gathered and a batched matmul",
        phase="start",
        ops=TORCH_OPERATOR,
    )

    def patterns(self):
        return [decompose_grouped_mm]

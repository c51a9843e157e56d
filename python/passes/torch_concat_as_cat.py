"""torch-concat-as-cat: torch.aten.concat and concatenate, which torch-mlir does not know, as the cat they alias."""

from dataclasses import dataclass

from ..authoring import TORCH_OPERATOR, Fix, PatternPass
from ..patterns.torch_concat_as_cat import concat_as_cat


@dataclass(frozen=True)
class TorchConcatAsCat(PatternPass):
    name = "torch-concat-as-cat"
    anchor = "func.func"
    summary = (
        "Write torch.aten.concat and torch.aten.concatenate (aliases of cat that torch-mlir does not know) as "
        "torch.aten.cat, parts of another dtype converted to the result's as torch promotes"
    )
    fix = Fix(
        "torch.concat and torch.concatenate are unknown to torch-mlir (PhiMoE's router): the cat they alias",
        phase="start",
        ops=TORCH_OPERATOR,
    )

    def patterns(self):
        return [concat_as_cat]

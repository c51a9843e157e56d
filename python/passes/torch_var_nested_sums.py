"""torch-var-nested-sums: torch.aten.var.correction and std.correction over several dims, whose f32 sums IREE
accumulates inaccurately over millions of elements, with each sum taken one reduced dim at a time."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_var_nested_sums import std_nested_sums, var_nested_sums


@dataclass(frozen=True)
class TorchVarNestedSums(PatternPass):
    name = "torch-var-nested-sums"
    anchor = "func.func"
    summary = (
        "Write f32 torch.aten.var.correction and std.correction over two or more constant dims as their "
        "definition, sum((x - mean)^2) / max(0, N - correction), each sum nested one reduced dim at a time"
    )
    fix = Fix(
        "var and std over millions of elements with a large mean are wrong in IREE (its f32 sums of the reduced "
        "elements outgrow their addends): the mean and the squared deviations summed one dim at a time",
        phase="start",
        ops=("torch.aten.var.correction", "torch.aten.std.correction"),
    )

    def patterns(self):
        return [var_nested_sums, std_nested_sums]

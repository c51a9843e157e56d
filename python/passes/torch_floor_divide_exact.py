"""torch-floor-divide-exact: integer floor division, which torch-mlir computes in f32, in integers."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.torch_floor_divide_exact import (
    div_floor_in_integers,
    div_scalar_floor_in_integers,
    floor_divide_in_integers,
    floor_divide_scalar_in_integers,
)


@dataclass(frozen=True)
class TorchFloorDivideExact(PatternPass):
    name = "torch-floor-divide-exact"
    anchor = "func.func"
    summary = (
        "Write si32/si64 floor division (div rounding_mode='floor', floor_divide; torch-mlir lowers it through "
        "f32) as a truncating integer division and torch's correction of its sign"
    )

    def patterns(self):
        return [
            div_floor_in_integers,
            div_scalar_floor_in_integers,
            floor_divide_in_integers,
            floor_divide_scalar_in_integers,
        ]

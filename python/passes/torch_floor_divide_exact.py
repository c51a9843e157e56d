"""torch-floor-divide-exact: integer floor division, which torch-mlir computes in f32, in integers."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
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
    # On the module as parsed: torch-mlir's TorchToLinalg writes integer floor division through f32.
    fix = Fix(
        "si32/si64 floor division (a // b, div rounding_mode='floor') computed in f32 by torch-mlir: "
        "wrong beyond 2^24 ((2^63 - 2) // 2^30 off by one); written as an integer division and its correction",
        phase="start",
        ops=(
            "torch.aten.div.Scalar_mode",
            "torch.aten.div.Tensor_mode",
            "torch.aten.floor_divide",
            "torch.aten.floor_divide.Scalar",
        ),
    )

    def patterns(self):
        return [
            div_floor_in_integers,
            div_scalar_floor_in_integers,
            floor_divide_in_integers,
            floor_divide_scalar_in_integers,
        ]

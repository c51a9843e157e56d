"""torch-roll-shift-mod-size: torch.roll shifts beyond the dim's size given mod the size."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.torch_roll_shift_mod_size import roll_shift_mod_size


@dataclass(frozen=True)
class TorchRollShiftModSize(PatternPass):
    name = "torch-roll-shift-mod-size"
    anchor = "any"
    summary = (
        "Give torch.aten.roll shifts beyond the dim's size as shift mod size "
        "(IREE's torch decomposition leaves the tensor unrotated beyond the size)"
    )

    def patterns(self):
        return [roll_shift_mod_size]

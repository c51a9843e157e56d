"""torch-roll-shift-mod-size: torch.roll shifts beyond the dim's size given mod the size."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_roll_shift_mod_size import roll_shift_mod_size


@dataclass(frozen=True)
class TorchRollShiftModSize(PatternPass):
    name = "torch-roll-shift-mod-size"
    anchor = "any"
    summary = (
        "Give torch.aten.roll shifts beyond the dim's size as shift mod size "
        "(IREE's torch decomposition leaves the tensor unrotated beyond the size)"
    )
    # On the module as parsed: the roll must be fixed before IREE's torch frontend decomposes it.
    fix = Fix(
        "torch.roll by more than the dim's size: IREE's torch frontend returns the tensor unrotated",
        phase="start",
        ops=("torch.aten.roll",),
    )

    def patterns(self):
        return [roll_shift_mod_size]

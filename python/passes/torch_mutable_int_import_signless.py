"""torch-mutable-int-import-signless: the signed import IREE's torch frontend makes of a mutable integer
argument, signless as its other imports."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_mutable_int_import_signless import import_signless


@dataclass(frozen=True)
class TorchMutableIntImportSignless(PatternPass):
    name = "torch-mutable-int-import-signless"
    anchor = "any"  # util.func inside IREE's frontend, func.func in a test
    summary = (
        "Make signless the hal.tensor.import IREE's torch frontend gives a mutable integer argument signed "
        "(its finalizing type conversion then fails); run with --inject-input after:torch-iree-func-conversion"
    )
    # Inside IREE's torch frontend, the only place the signed import exists (made by its function conversion,
    # failed on by its last pass). Its ops are looked for in the module as parsed: every mutable argument is
    # read through torch.copy.to_vtensor and written through torch.overwrite.tensor.contents; a program
    # without one is lowered by IREE itself, as stock.
    fix = Fix(
        "a torch program writing an integer input in place (x.zero_(), x.add_(y), index_put_ on an int64 "
        "input) fails IREE's torch frontend (its mutable argument imported signed): imported signless",
        frontend="after:torch-iree-func-conversion",
        ops=("torch.copy.to_vtensor", "torch.overwrite.tensor.contents"),
    )

    def patterns(self):
        return [import_signless]

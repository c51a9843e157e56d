"""torch-mutable-int-import-signless: the signed import IREE's torch frontend makes of a mutable integer
argument, signless as its other imports."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.torch_mutable_int_import_signless import import_signless


@dataclass(frozen=True)
class TorchMutableIntImportSignless(PatternPass):
    name = "torch-mutable-int-import-signless"
    anchor = "any"  # util.func inside IREE's frontend, func.func in a test
    summary = (
        "Make signless the hal.tensor.import IREE's torch frontend gives a mutable integer argument signed "
        "(its finalizing type conversion then fails); run with --inject-input after:torch-iree-func-conversion"
    )

    def patterns(self):
        return [import_signless]

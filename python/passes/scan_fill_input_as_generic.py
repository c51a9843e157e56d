"""scan-fill-input-as-generic: a scan reads a splat input from memory instead of an unbounded temporary."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.scan_fill_input_as_generic import fill_input_as_generic


@dataclass(frozen=True)
class ScanFillInputAsGeneric(PatternPass):
    name = "scan-fill-input-as-generic"
    anchor = "any"
    summary = (
        "Write the linalg.fill an iree_linalg_ext.scan reads as a linalg.generic, which IREE keeps out of "
        "the scan's dispatch (a cloned fill becomes a temporary sized by the dims' upper bound)"
    )

    def patterns(self):
        return [fill_input_as_generic]

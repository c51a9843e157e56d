"""scan-fill-input-as-generic: a scan reads a splat input from memory instead of an unbounded temporary."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.scan_fill_input_as_generic import fill_input_as_generic


@dataclass(frozen=True)
class ScanFillInputAsGeneric(PatternPass):
    name = "scan-fill-input-as-generic"
    anchor = "any"
    summary = (
        "Write the linalg.fill an iree_linalg_ext.scan reads as a linalg.generic, which IREE keeps out of "
        "the scan's dispatch (a cloned fill becomes a temporary sized by the dims' upper bound)"
    )
    # Before dispatch creation clones the fill into the scan's dispatch (any target: each sizes the temporary
    # by the dims' upper bound).
    fix = Fix(
        "a cumulative sum or product of a splat over a dynamic dim (torch.cumsum of torch.ones: OPT's positions, "
        "Falcon's ALiBi): IREE allocates the splat inside the scan's dispatch by the dim's upper bound (2^55 bytes)",
        phase="global-optimization",
        ops=("iree_linalg_ext.scan",),
    )

    def patterns(self):
        return [fill_input_as_generic]

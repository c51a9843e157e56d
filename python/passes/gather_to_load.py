"""gather-to-load: contiguous vector.gather over memrefs becomes vector.load."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.gather_to_load import gather_to_load


@dataclass(frozen=True)
class GatherToLoad(PatternPass):
    name = "gather-to-load"
    anchor = "any"
    summary = (
        "Turn vector.gather with contiguous indices ([k, k+1, ...], step + broadcast) into "
        "vector.load / vector.maskedload"
    )

    def patterns(self):
        return [gather_to_load]

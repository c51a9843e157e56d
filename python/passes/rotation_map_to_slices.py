"""rotation-map-to-slices: a linalg.generic input read through (d + c) mod n reads a rotated copy of it."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.rotation_map_to_slices import input_through_rotated_copy


@dataclass(frozen=True)
class RotationMapToSlices(PatternPass):
    name = "rotation-map-to-slices"
    anchor = "any"
    summary = (
        "Give a linalg.generic input read through a rotation map ((d + c) mod n, which tiling cannot slice) "
        "a rotated copy, its two slices inserted one after the other, read through d"
    )
    # Where the rotated read reaches dispatch creation as a linalg.generic (any target: all tile it).
    fix = Fix(
        "a linalg.generic reading an input through a rotation (d + c) mod n: tiling refuses "
        "the map (wrong numbers in older IREE)",
        phase="global-optimization",
        ops=("linalg.generic",),
    )

    def patterns(self):
        return [input_through_rotated_copy]

"""rotation-map-to-slices: a linalg.generic input read through (d + c) mod n reads a rotated copy of it."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.rotation_map_to_slices import input_through_rotated_copy


@dataclass(frozen=True)
class RotationMapToSlices(PatternPass):
    name = "rotation-map-to-slices"
    anchor = "any"
    summary = (
        "Give a linalg.generic input read through a rotation map ((d + c) mod n, which tiling cannot slice) "
        "a rotated copy, its two slices inserted one after the other, read through d"
    )

    def patterns(self):
        return [input_through_rotated_copy]

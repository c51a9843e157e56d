"""A point among the passes of a pipeline IREE runs: ``before|after:PASS[#N]:PIPELINE``.

``--inject-codegen`` names one in a dispatch function's code generation,
``--inject-input`` one in the frontend lowering of a torch or ONNX program;
both are spelled alike and resolved alike (``split_points``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..errors import CompileError


@dataclass
class PointInjection:
    """``before:PASS[#N]:PIPELINE`` or ``after:PASS[#N]:PIPELINE``."""

    where: str
    pass_name: str
    occurrence: int  # 1-based; 0 means every occurrence
    pipeline: str

    FLAG: ClassVar[str] = "--inject-point"
    ERROR: ClassVar[type[Exception]] = CompileError

    @classmethod
    def parse(cls, spec: str) -> PointInjection:
        parts = spec.split(":", 2)
        if len(parts) != 3 or parts[0] not in ("before", "after") or not parts[1] or not parts[2].strip():
            raise cls.ERROR(
                f"malformed {cls.FLAG} '{spec}': expected before:PASS:PIPELINE or after:PASS:PIPELINE "
                "(PASS may end in #N for its N-th occurrence, #* for every one)"
            )
        name, _, nth = parts[1].partition("#")
        if nth in ("", "1"):
            occurrence = 1
        elif nth == "*":
            occurrence = 0
        elif nth.isdigit() and int(nth) > 0:
            occurrence = int(nth)
        else:
            raise cls.ERROR(f"malformed occurrence '#{nth}' in {cls.FLAG} '{spec}'")
        return cls(parts[0], name, occurrence, parts[2].strip())

    def spelled(self) -> str:
        """The injection as its flag spells it."""
        return f"{self.where}:{self.pass_name}#{self.occurrence or '*'}:{self.pipeline}"


def split_points(names: list[str], inj: PointInjection) -> list[int]:
    """Indices in a list of pass ``names`` where ``inj``'s pipeline runs (before the pass at that index)."""
    hits = [i for i, name in enumerate(names) if name == inj.pass_name]
    if inj.occurrence:
        hits = hits[inj.occurrence - 1 : inj.occurrence]
    return [i if inj.where == "before" else i + 1 for i in hits]


def point_name(names: list[str], at: int) -> str:
    """How a point names splice ``at`` of a list of pass ``names``."""
    if at == 0:
        return f"before:{names[0]}" if names else "the start"
    n = sum(1 for name in names[:at] if name == names[at - 1])
    return f"after:{names[at - 1]}#{n}"

"""linalg-empty-loop-to-init: a linalg op with a loop of static range 0 (a K = 0 matmul) is its init."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.linalg_empty_loop_to_init import PATTERNS


@dataclass(frozen=True)
class LinalgEmptyLoopToInit(PatternPass):
    name = "linalg-empty-loop-to-init"
    anchor = "any"  # IREE turns func.func into util.func
    summary = (
        "Replace a named linalg contraction, convolution, pooling or reduce with a loop of static range 0 "
        "(a K = 0 matmul; IREE's dispatch naming divides by it) by its inits: its body never runs"
    )

    def patterns(self):
        return list(PATTERNS)

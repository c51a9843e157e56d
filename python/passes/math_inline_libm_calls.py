"""math-inline-libm-calls: math ops whose libm call IREE's embedded CPU ELF cannot link, written out inline."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.math_inline_libm_calls import PATTERNS


@dataclass(frozen=True)
class MathInlineLibmCalls(PatternPass):
    name = "math-inline-libm-calls"
    anchor = "any"  # the module: the device targets are read from it
    summary = (
        "Write math ops that IREE's llvm-cpu backend lowers to libm calls its embedded ELF cannot link (log10 in "
        "every float type; f64 sin, cos, tan, tanh, asin, acos, atan, atan2, erf, cbrt, log2, remf; trunc "
        "without SSE4.1) with the f64 log and exp musl provides, floor and polynomials, for the module's targets"
    )

    def patterns(self):
        return list(PATTERNS)

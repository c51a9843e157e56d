"""math-inline-libm-calls: math ops whose libm call IREE's embedded CPU ELF cannot link, written out inline."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.math_inline_libm_calls import PATTERNS, ROOTS


@dataclass(frozen=True)
class MathInlineLibmCalls(PatternPass):
    name = "math-inline-libm-calls"
    anchor = "any"  # the module: the device targets are read from it
    summary = (
        "Write math ops that IREE's llvm-cpu backend lowers to libm calls its embedded ELF cannot link (log10 in "
        "every float type; f64 sin, cos, tan, tanh, asin, acos, atan, atan2, erf, cbrt, log2, remf; trunc "
        "without SSE4.1) with the f64 log and exp musl provides, floor and polynomials, for the module's targets"
    )
    # Before global optimization: its const-eval compiles constant subgraphs for the host's llvm-cpu in a JIT of
    # its own (whatever the target), which injections at a later phase never reach; the module's device targets
    # are known from preprocessing on. On GPU targets only ops computed from constants are rewritten.
    fix = Fix(
        "math ops llvm-cpu lowers to libm calls its embedded ELF cannot link (undefined symbol: log10f; f64 sin, "
        "tanh, erf, ... with --iree-input-demote-f64-to-f32=false): written out with musl's f64 log/exp and floor",
        phase="preprocessing",
        ops=ROOTS,
    )

    def patterns(self):
        return list(PATTERNS)

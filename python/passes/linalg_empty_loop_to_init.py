"""linalg-empty-loop-to-init: a linalg op with a loop of static range 0 (a K = 0 matmul) is its init."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.linalg_empty_loop_to_init import PATTERNS, ROOTS


@dataclass(frozen=True)
class LinalgEmptyLoopToInit(PatternPass):
    name = "linalg-empty-loop-to-init"
    anchor = "any"  # IREE turns func.func into util.func
    summary = (
        "Replace a named linalg contraction, convolution, pooling or reduce with a loop of static range 0 "
        "(a K = 0 matmul; IREE's dispatch naming divides by it) by its inits: its body never runs"
    )
    # After IREE's input conversion, before global optimization: its const-eval compiles a K = 0 matmul of
    # zero-size (constant) operands in a JIT of its own, which injections at a later phase never reach.
    fix = Fix(
        "a named linalg op with a loop of static range 0 (a K = 0 matmul, a reduction over an empty dim): "
        "iree-flow-annotate-dispatches divides by the range (SIGFPE); the result is its init",
        phase="input",
        ops=ROOTS,
    )

    def patterns(self):
        return list(PATTERNS)

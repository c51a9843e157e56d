"""torch-multinomial-inverse-cdf: torch.aten.multinomial with replacement as cumulative sums, uniform draws
and a count, ops IREE dispatches, in place of torch-mlir's host loops that IREE gets wrong."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_multinomial_inverse_cdf import multinomial_inverse_cdf


@dataclass(frozen=True)
class TorchMultinomialInverseCdf(PatternPass):
    name = "torch-multinomial-inverse-cdf"
    anchor = "func.func"
    summary = (
        "Write torch.aten.multinomial with replacement as an inverse CDF: per draw, the number of categories "
        "whose cumulative weight is at most a uniform draw times the row's total"
    )
    fix = Fix(
        "torch.multinomial (with replacement) lowers to host loops IREE gets wrong: a dynamic batch fails "
        "('tensor.dim' op unexpected during shape cleanup), static ones draw out of range or do not compile; "
        "an inverse CDF in dispatched ops",
        phase="start",
        ops=("torch.aten.multinomial",),
    )

    def patterns(self):
        return [multinomial_inverse_cdf]

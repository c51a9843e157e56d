"""torch-argsort-stable-as-argsort: torch.aten.argsort.stable, which torch-mlir cannot lower, as aten.argsort."""

from dataclasses import dataclass

from ..authoring import TORCH_OPERATOR, Fix, PatternPass
from ..patterns.torch_argsort_stable_as_argsort import argsort_stable_as_argsort


@dataclass(frozen=True)
class TorchArgsortStableAsArgsort(PatternPass):
    name = "torch-argsort-stable-as-argsort"
    anchor = "func.func"
    summary = (
        "Write torch.aten.argsort.stable (torch 2.13's export of torch.argsort; no torch-mlir lowering) as "
        "torch.aten.argsort, whose lowering IREE sorts stably"
    )
    # On the module as parsed: torch-mlir has no op for argsort.stable; aten.argsort's lowering sorts stably.
    fix = Fix(
        "torch.argsort(stable=True) exports as torch.aten.argsort.stable, which has no lowering: aten.argsort",
        phase="start",
        ops=TORCH_OPERATOR,
    )

    def patterns(self):
        return [argsort_stable_as_argsort]

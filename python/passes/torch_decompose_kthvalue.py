"""torch-decompose-kthvalue: torch.aten.kthvalue, whose tm_tensor.topk IREE cannot convert, as a top-k of a key
that orders NaN last and a gather."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_decompose_kthvalue import decompose_kthvalue


@dataclass(frozen=True)
class TorchDecomposeKthvalue(PatternPass):
    name = "torch-decompose-kthvalue"
    anchor = "func.func"
    summary = (
        "Write torch.aten.kthvalue (its tm_tensor.topk fails IREE's frontend) as the last index of a "
        "smallest-k top-k of a key ordering NaN last, the value gathered from the input"
    )
    # On the module as parsed: its float key is a view.dtype, which IREE lowers only in torch-iree-bitcast-tensor.
    fix = Fix(
        "torch.kthvalue fails IREE's torch frontend (tm_tensor.topk is never converted): a smallest-k top-k "
        "of a key ordering NaN last, the value gathered",
        phase="start",
        ops=("torch.aten.kthvalue",),
    )

    def patterns(self):
        return [decompose_kthvalue]

"""torch-int8-matmul-widened: mm, bmm and matmul of si8/ui8 (torch-mlir's lowering crashes on them) computed in
si32 and converted back, exact modulo 2^8 as torch wraps."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.torch_int8_matmul_widened import bmm_widened, matmul_widened, mm_widened


@dataclass(frozen=True)
class TorchInt8MatmulWidened(PatternPass):
    name = "torch-int8-matmul-widened"
    anchor = "func.func"
    summary = (
        "Compute torch.aten.mm, bmm and matmul of si8 or ui8 tensors (torch-mlir's lowering crashes) in si32 "
        "and convert the result back: exact, as torch's product wraps modulo 2^8"
    )
    fix = Fix(
        "torch.mm, bmm and matmul of si8 or ui8 tensors crash torch-mlir's ConvertTorchToLinalg (SIGSEGV): "
        "computed in si32 and converted back, exact as torch's product wraps modulo 2^8",
        phase="start",
        ops=("torch.aten.bmm", "torch.aten.matmul", "torch.aten.mm"),
    )

    def patterns(self):
        return [mm_widened, bmm_widened, matmul_widened]

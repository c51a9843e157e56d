"""Write moe_router.mlir: an MoE router (top-1 one-hot mask and weights) over a dynamic token count.

Stock IREE 3.13 computes it wrong on CPU and CUDA: the two scattered results
share one allocation. Run from this directory: python make_moe_router.py
"""

import iree.turbine.aot as aot
import torch


class Router(torch.nn.Module):
    def __init__(self, dim=12, experts=6):
        super().__init__()
        self.gate = torch.nn.Parameter(torch.randn(dim, experts))

    def forward(self, tokens):
        probs = torch.softmax(tokens @ self.gate, dim=-1)
        expert = torch.argmax(probs, dim=-1, keepdim=True)
        weight = torch.gather(probs, 1, expert)
        mask = torch.zeros_like(probs).scatter_(1, expert, 1.0)
        weights = torch.zeros_like(probs).scatter_(1, expert, weight)
        return mask, weights


torch.manual_seed(7)
exported = aot.export(Router(), torch.randn(5, 12), dynamic_shapes={"tokens": {0: torch.export.Dim("T")}})
exported.save_mlir("moe_router.mlir")

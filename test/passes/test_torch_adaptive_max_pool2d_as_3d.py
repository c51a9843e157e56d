"""torch-adaptive-max-pool2d-as-3d end to end: adaptive max pools compiled with the fix equal torch's.

Stock IREE's decomposition of ``adaptive_max_pool2d`` into ``max_pool2d`` holds
only for fixed windows: elsewhere it fails (a cast between sizes, a zero
stride, a dynamic kernel). With ``--fixes=torch-adaptive-max-pool2d-as-3d``
each function here compiles for llvm-cpu and equals
``F.adaptive_max_pool2d(x, size, return_indices=True)`` exactly, values and
indices: windows that vary (10 -> 7), outputs larger than inputs (9 -> 13),
rank 3 and 4, dynamic sizes; inputs drawn from few values so windows hold
ties (torch's index is the first maximum).
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-adaptive-max-pool2d-as-3d"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    shape: tuple
    size: tuple
    dynamic: tuple = ()

    def function(self) -> str:
        xt = vtensor([None if d in self.dynamic else s for d, s in enumerate(self.shape)], "f32")
        lead = [None if d in self.dynamic else s for d, s in enumerate(self.shape[:-2])]
        vt, it = vtensor([*lead, *self.size], "f32"), vtensor([*lead, *self.size], "si64")
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}) -> ({vt}, {it}) {{",
                f"  %h = torch.constant.int {self.size[0]}",
                f"  %w = torch.constant.int {self.size[1]}",
                "  %s = torch.prim.ListConstruct %h, %w : (!torch.int, !torch.int) -> !torch.list<int>",
                f"  %v, %i = torch.aten.adaptive_max_pool2d %x, %s : {xt}, !torch.list<int> -> {vt}, {it}",
                f"  return %v, %i : {vt}, {it}",
                "}",
            ]
        )

    def input(self) -> np.ndarray:
        rng = np.random.default_rng(len(self.name))
        return rng.integers(-3, 4, self.shape).astype(np.float32)  # few values: windows hold ties


CASES = [
    Case("shrink_varying", (1, 8, 10, 16), (7, 13)),
    Case("grow", (1, 4, 10, 9), (7, 13)),
    Case("no_batch", (3, 11, 5), (4, 7)),
    Case("dynamic", (2, 3, 9, 12), (5, 5), dynamic=(0, 2, 3)),
    Case("dynamic_no_batch", (6, 10, 16), (7, 13), dynamic=(0, 1, 2)),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("shrink_varying", "dynamic_no_batch")]


compile_cases = partial(compile_case_module, fixes=PASS)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("adaptive_max_pool2d"))


def test_stock_fails_on_varying_windows(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("are cast incompatible" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    x = case.input()
    values, indices = e2e.run_runtime(vmfb, CPU, case.name, [x])
    want_v, want_i = torch.nn.functional.adaptive_max_pool2d(torch.from_numpy(x), case.size, return_indices=True)
    assert np.array_equal(values, want_v.numpy()), (values, want_v)
    assert np.array_equal(indices, want_i.numpy()), (indices, want_i)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_adaptive_max_pool_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_adaptive_max_pool_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

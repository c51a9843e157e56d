"""torch-pool-unbatched-as-batched end to end: pools of unbatched inputs equal torch's.

torch-mlir's linalg lowering reads every pool's input as batched: stock IREE
fails on an unbatched ``avg_pool2d`` (a rank-3 ``linalg.pooling_nchw_sum``),
crashes on ``avg_pool1d``/``avg_pool3d`` and cannot legalize the max pools.
With ``--fixes=torch-pool-unbatched-as-batched`` each function here compiles
for llvm-cpu and equals ``F.avg_pool*d``/``F.max_pool*d`` of the same input:
torch-mlir's ``AvgPool2dCHWModule`` form (dynamic sizes), 1-d and 3-d pools,
padding, ceil mode, ``count_include_pad`` off, dilation.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import cases_program, compile_case_module, native_compile, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-pool-unbatched-as-batched"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    op: str  # avg_pool2d, max_pool1d, ...
    shape: tuple
    kernel: tuple
    stride: tuple
    padding: tuple
    ceil: bool = False
    include_pad: bool = True  # avg pools
    dilation: tuple = ()  # max pools (default 1)
    dynamic: bool = False

    @property
    def spatial(self) -> int:
        return len(self.kernel)

    def expected(self, x: np.ndarray) -> np.ndarray:
        pool, t = getattr(torch.nn.functional, self.op), torch.from_numpy(x)
        if self.op.startswith("avg"):
            return pool(t, self.kernel, self.stride, self.padding, self.ceil, self.include_pad).numpy()
        dilation = self.dilation or (1,) * self.spatial
        return pool(t, self.kernel, self.stride, self.padding, dilation, self.ceil).numpy()

    def function(self) -> str:
        out = self.expected(np.zeros(self.shape, np.float32)).shape
        xt = vtensor([None] * len(self.shape) if self.dynamic else self.shape, "f32")
        rt = vtensor([None] * len(out) if self.dynamic else out, "f32")
        lists = {"k": self.kernel, "s": self.stride, "p": self.padding, "d": self.dilation or (1,) * self.spatial}
        lines = [f"func.func @{self.name}(%x: {xt}) -> {rt} {{"]
        for name, values in lists.items():
            lines += [f"  %{name}{i} = torch.constant.int {v}" for i, v in enumerate(values)]
            items, types = ", ".join(f"%{name}{i}" for i in range(len(values))), ", ".join(["!torch.int"] * len(values))
            lines.append(f"  %{name} = torch.prim.ListConstruct {items} : ({types}) -> !torch.list<int>")
        lines += [f"  %ceil = torch.constant.bool {str(self.ceil).lower()}", "  %none = torch.constant.none"]
        lines.append(f"  %cip = torch.constant.bool {str(self.include_pad).lower()}")
        lt = "!torch.list<int>, !torch.list<int>, !torch.list<int>"
        if self.op.startswith("max"):
            call = f"%x, %k, %s, %p, %d, %ceil : {xt}, {lt}, !torch.list<int>, !torch.bool"
        elif self.spatial == 1:
            call = f"%x, %k, %s, %p, %ceil, %cip : {xt}, {lt}, !torch.bool, !torch.bool"
        else:
            call = f"%x, %k, %s, %p, %ceil, %cip, %none : {xt}, {lt}, !torch.bool, !torch.bool, !torch.none"
        lines += [f"  %r = torch.aten.{self.op} {call} -> {rt}", f"  return %r : {rt}", "}"]
        return "\n".join(lines)

    def input(self) -> np.ndarray:
        return np.random.default_rng(len(self.name)).uniform(0.5, 1.0, self.shape).astype(np.float32)


CASES = [
    # torch-mlir's AvgPool2dCHWModule: (4, 20, 20), kernel (6, 8), stride 2, dynamic sizes.
    Case("avg2d_chw", "avg_pool2d", (4, 20, 20), (6, 8), (2, 2), (0, 0), dynamic=True),
    Case("avg2d_ceil_no_pad_count", "avg_pool2d", (3, 9, 10), (3, 4), (2, 3), (1, 2), ceil=True, include_pad=False),
    Case("avg1d", "avg_pool1d", (4, 20), (3,), (2,), (1,), ceil=True),
    Case("avg3d", "avg_pool3d", (2, 6, 7, 8), (3, 3, 2), (2, 2, 2), (1, 0, 1), include_pad=False),
    Case("max1d", "max_pool1d", (4, 20), (3,), (2,), (1,), dynamic=True),
    Case("max2d", "max_pool2d", (3, 9, 9), (3, 3), (2, 2), (1, 1), ceil=True),
    Case("max2d_dilated", "max_pool2d", (2, 11, 12), (3, 2), (1, 2), (1, 0), dilation=(2, 3)),
    Case("max3d", "max_pool3d", (2, 6, 6, 6), (3, 3, 3), (2, 2, 2), (0, 1, 0)),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("avg2d_chw", "max1d")]


compile_cases = partial(compile_case_module, fixes=PASS)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("unbatched_pool"))


def test_stock_fails_on_an_unbatched_avg_pool2d(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("'linalg.pooling_nchw_sum' op expected operand #0 rank (3)" in m for m in res.messages)


@pytest.mark.slow
def test_stock_crashes_on_an_unbatched_avg_pool1d(tmp_path):
    """In a process of its own: the crash is in torch-mlir's lowering (building linalg.pooling_ncw_sum)."""
    path = tmp_path / "stock.mlir"
    path.write_text(cases_program([c for c in CASES if c.name == "avg1d"]))
    assert native_compile(path).returncode != 0


def check(case, vmfb):
    x = case.input()
    (got,) = e2e.run_runtime(vmfb, CPU, case.name, [x])
    want = case.expected(x)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=0)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_unbatched_pool_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_unbatched_pool_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

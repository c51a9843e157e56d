"""torch-avg-pool-as-padded-sum end to end: average pools with a unit output dim equal torch's.

Stock IREE fails on every pool whose output has a spatial size of 1 over an
input that torch-mlir pads past the kernel (IREE's unit-dim folding leaves an
invalid generic). With ``--fixes=torch-avg-pool-as-padded-sum`` each function
here compiles for llvm-cpu and equals ``F.avg_pool2d``/``F.avg_pool3d`` within
f32 rounding: ceil mode with windows that overhang the input, padding with and
without ``count_include_pad``, floor mode over rows no window reads (cropped),
a ``divisor_override``, 3-d pools, f64, batches and channels of more than one.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-avg-pool-as-padded-sum"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    shape: tuple
    kernel: tuple
    stride: tuple
    padding: tuple
    ceil: bool
    include_pad: bool
    override: int | None = None
    dtype: str = "f32"

    @property
    def op(self) -> str:
        return f"avg_pool{len(self.kernel)}d"

    def expected(self, x: np.ndarray) -> np.ndarray:
        pool = getattr(torch.nn.functional, self.op)
        args = (self.kernel, self.stride, self.padding, self.ceil, self.include_pad, self.override)
        return pool(torch.from_numpy(x), *args).numpy()

    def function(self) -> str:
        out = self.expected(np.zeros(self.shape, NUMPY[self.dtype])).shape
        xt, rt = vtensor(self.shape, self.dtype), vtensor(out, self.dtype)

        def ints(name, values):
            items = [f"%{name}{i}" for i in range(len(values))]
            lines = [f"  %{name}{i} = torch.constant.int {v}" for i, v in enumerate(values)]
            types = ", ".join(["!torch.int"] * len(values))
            return [*lines, f"  %{name} = torch.prim.ListConstruct {', '.join(items)} : ({types}) -> !torch.list<int>"]

        override = f"torch.constant.int {self.override}" if self.override else "torch.constant.none"
        override_t = "!torch.int" if self.override else "!torch.none"
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}) -> {rt} {{",
                *ints("k", self.kernel),
                *ints("s", self.stride),
                *ints("p", self.padding),
                f"  %ceil = torch.constant.bool {str(self.ceil).lower()}",
                f"  %cip = torch.constant.bool {str(self.include_pad).lower()}",
                f"  %d = {override}",
                f"  %r = torch.aten.{self.op} %x, %k, %s, %p, %ceil, %cip, %d : {xt}, !torch.list<int>, "
                f"!torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, {override_t} -> {rt}",
                f"  return %r : {rt}",
                "}",
            ]
        )

    def input(self) -> np.ndarray:
        return np.random.default_rng(len(self.name)).uniform(-1, 1, self.shape).astype(NUMPY[self.dtype])


CASES = [
    # torch-mlir's AvgPool2dDiffKernelsStridesNoPadCeilPadNotIncluded: H 3 -> 1 in ceil mode.
    Case("ceil_overhang", (1, 1, 3, 4), (3, 2), (2, 3), (0, 0), True, False),
    Case("ceil_overhang_include_pad", (2, 3, 3, 4), (3, 2), (2, 3), (0, 0), True, True),
    Case("floor_cropped", (2, 2, 4, 7), (3, 3), (2, 2), (0, 0), False, False),
    Case("padded_ceil", (1, 3, 1, 6), (3, 2), (2, 2), (1, 1), True, False),
    Case("padded_ceil_include_pad", (1, 3, 1, 6), (3, 2), (2, 2), (1, 1), True, True),
    Case("override", (1, 2, 4, 4), (3, 3), (2, 2), (0, 0), False, True, override=2),
    Case("pool3d", (1, 2, 3, 5, 4), (3, 2, 2), (2, 2, 3), (0, 1, 0), True, False),
    Case("f64", (1, 1, 3, 4), (3, 2), (2, 3), (0, 0), True, False, dtype="f64"),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("ceil_overhang", "padded_ceil_include_pad")]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("avg_pool"))


def test_stock_fails_on_a_unit_output_dim(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("inferred input/output operand #1" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    x = case.input()
    (got,) = e2e.run_runtime(vmfb, CPU, case.name, [x])
    want = case.expected(x)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=1e-6 if case.dtype == "f32" else 1e-12, atol=0)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_avg_pool_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_avg_pool_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

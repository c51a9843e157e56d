"""torch-decompose-xlogy end to end: torch.xlogy programs compiled with the fix equal torch.xlogy.

Stock IREE has no lowering for ``aten.xlogy.Tensor``; with
``--fixes=torch-decompose-xlogy`` each function here compiles for llvm-cpu and
equals ``torch.xlogy`` of its inputs, which hold what the definition turns on:
x == 0 (with y finite, zero, negative, inf and NaN), NaN in x and in y, y == 0,
y < 0. Dtypes torch takes and promotes (f32, f16, bf16, f64, si64, bool with
f32, si32 with f16), broadcasting, dynamic sizes. Floats compare to within a
few ulps (IREE's ``log`` is not libm's), NaN where torch has NaN.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from opt_py.patterns.torch_decompose_xlogy import xlogy_dtype
from opt_py.patterns.torch_ir import VTensor
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-xlogy"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)
RTOL = {"f32": 4e-7, "f64": 1e-15, "f16": 1e-3, "bf16": 8e-3}  # a few ulps of each result dtype


def values(rng, dtype: str, shape) -> np.ndarray:
    """Values of ``dtype`` where xlogy's cases meet: zeros, NaN, inf, negatives, and positive numbers."""
    n = int(np.prod(shape))
    if dtype == "i1":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype in ("si32", "si64"):
        return rng.integers(-3, 6, shape).astype(NUMPY[dtype])
    pool = np.array([0.0, 0.0, -0.0, np.nan, np.inf, -1.5, 0.25, 1.0, 2.0, 7.5], np.float64)
    return np.where(rng.random(n) < 0.5, rng.choice(pool, n), rng.random(n) * 4).reshape(shape).astype(NUMPY[dtype])


@dataclass
class Case:
    name: str
    x: tuple  # (shape, dtype)
    y: tuple
    dynamic: bool = False

    @property
    def result_dtype(self) -> str:
        return xlogy_dtype(VTensor(self.x[0], self.x[1]), VTensor(self.y[0], self.y[1]))

    def sizes(self, shape):
        return [None if self.dynamic and s != 1 else s for s in shape]

    def function(self) -> str:
        xt, yt = vtensor(self.sizes(self.x[0]), self.x[1]), vtensor(self.sizes(self.y[0]), self.y[1])
        rt = vtensor(self.sizes(np.broadcast_shapes(self.x[0], self.y[0])), self.result_dtype)
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}, %y: {yt}) -> {rt} {{",
                f"  %r = torch.aten.xlogy.Tensor %x, %y : {xt}, {yt} -> {rt}",
                f"  return %r : {rt}",
                "}",
            ]
        )

    def inputs(self) -> list:
        rng = np.random.default_rng(len(self.name))
        return [values(rng, dtype, shape) for shape, dtype in (self.x, self.y)]

    def expected(self, x, y) -> np.ndarray:
        def tensor(a):
            return (
                torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
                if a.dtype.name == "bfloat16"
                else torch.from_numpy(a)
            )

        out = torch.xlogy(tensor(x), tensor(y))
        return out.float().numpy() if out.dtype == torch.bfloat16 else out.numpy()


CASES = [
    Case("f32", ((4, 6), "f32"), ((4, 6), "f32")),
    Case("broadcast", ((3, 1), "f32"), ((1, 5), "f32")),
    Case("dynamic", ((5, 4), "f32"), ((5, 4), "f32"), dynamic=True),
    Case("zero_d_y", ((7,), "f32"), ((), "f32")),
    Case("ints", ((3, 5), "si64"), ((3, 5), "si64")),
    Case("bool_and_f32", ((6,), "i1"), ((6,), "f32")),
    Case("si32_and_f16", ((2, 8), "si32"), ((2, 8), "f16")),
    Case("f16", ((16,), "f16"), ((16,), "f16")),
    Case("bf16", ((16,), "bf16"), ((16,), "bf16")),
    Case("f64", ((12,), "f64"), ((12,), "f64")),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("broadcast", "ints", "bf16")]


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("xlogy"))


def test_stock_fails_on_xlogy(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("torch.aten.xlogy.Tensor" in m for m in res.messages), res.messages[-3:]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_pattern_promotes_as_torch(case):
    x, y = case.inputs()
    assert NUMPY[case.result_dtype] == np.dtype(case.expected(x, y).dtype) or case.result_dtype == "bf16"


def check(case, vmfb):
    x, y = case.inputs()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [x, y])
    want = case.expected(x, y)
    got = out.astype(np.float32) if case.result_dtype == "bf16" else out
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=RTOL[case.result_dtype], atol=0, equal_nan=True)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_xlogy_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_xlogy_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

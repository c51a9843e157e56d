"""torch-pow-int-by-squaring end to end: integer torch.pow(a, b) compiled with the fix equals torch's, bit for bit.

Stock IREE refuses ``aten.pow.Tensor_Tensor`` on integers (``non-floating point
dtype``); with ``--fixes=torch-pow-int-by-squaring`` each function here compiles
for llvm-cpu and equals ``torch.pow`` of its inputs exactly: bases over the
dtype's small values and its extremes (products that wrap), exponents from
negative (bases 1, -1 and others) through 0 to past the width, for si8, si16,
si32 and si64, broadcast and dynamic.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-pow-int-by-squaring"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    a: tuple  # shape
    b: tuple
    dtype: str
    dynamic: bool = False

    def sizes(self, shape):
        return [None if self.dynamic and s != 1 else s for s in shape]

    def function(self) -> str:
        at, bt = vtensor(self.sizes(self.a), self.dtype), vtensor(self.sizes(self.b), self.dtype)
        rt = vtensor(self.sizes(np.broadcast_shapes(self.a, self.b)), self.dtype)
        return "\n".join(
            [
                f"func.func @{self.name}(%a: {at}, %b: {bt}) -> {rt} {{",
                f"  %r = torch.aten.pow.Tensor_Tensor %a, %b : {at}, {bt} -> {rt}",
                f"  return %r : {rt}",
                "}",
            ]
        )

    def inputs(self) -> list:
        rng = np.random.default_rng(len(self.name))
        info = np.iinfo(NUMPY[self.dtype])
        bases = np.array([0, 1, -1, 2, -2, 3, -3, 7, 10, -11, info.max, info.min, info.min + 1], np.int64)
        a = rng.choice(bases, self.a)
        a = np.where(rng.random(self.a) < 0.3, rng.integers(info.min, info.max, self.a, endpoint=True), a)
        b = rng.integers(-5, 2 * np.iinfo(NUMPY[self.dtype]).bits, self.b)
        b = np.where(rng.random(self.b) < 0.1, rng.choice([info.min, info.max], self.b), b)
        return [a.astype(NUMPY[self.dtype]), b.astype(NUMPY[self.dtype])]


CASES = [
    Case("si32", (6, 8), (6, 8), "si32"),
    Case("si64_broadcast", (12, 1), (1, 13), "si64"),
    Case("si16_dynamic", (5, 9), (5, 9), "si16", dynamic=True),
    Case("si8", (40,), (40,), "si8"),
]
SAMPLE = [c for c in CASES if c.name in ("si8",)]  # the default run; --runslow compiles every case


compile_cases = partial(compile_case_module, fixes=PASS)


def test_stock_fails_on_integer_pow(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("non-floating point dtype" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    a, b = case.inputs()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [a, b])
    want = torch.pow(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_integer_pow_matches_torch(case, tmp_path):
    check(case, compile_cases([case], tmp_path))


@pytest.mark.slow
def test_every_case_integer_pow_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

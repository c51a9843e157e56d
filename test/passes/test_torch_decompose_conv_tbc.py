"""torch-decompose-conv-tbc end to end: conv_tbc programs compiled with the fix equal torch.conv_tbc.

Stock IREE's decomposition of ``torch.aten.conv_tbc`` types its convolution
with the op's (T', B, O) type, so its result comes out typed (O, T', B) ("type
of return operand 0 doesn't match function result type"); with ``--fixes=torch-decompose-conv-tbc`` each
function here compiles for llvm-cpu and equals ``torch.conv_tbc`` of its
inputs: the suite's shapes with dynamic operands and a static result, pad 1
and 2, a kernel of 1, f64. Floats compare to within a few ulps of the sums.
(Where the result's sizes are all alike, all dynamic or equal, stock types and
computes conv_tbc right and the pass leaves it alone: its lit file.)
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-conv-tbc"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)
TOL = {"f32": 1e-5, "f64": 1e-12}


@dataclass
class Case:
    name: str
    t: int
    b: int
    c: int
    k: int
    o: int
    pad: int
    dtype: str = "f32"
    operands: str = "static"  # or "dynamic" (every operand size '?')

    @property
    def out_len(self) -> int:
        return self.t + 2 * self.pad - self.k + 1

    def function(self) -> str:
        def ty(shape, how):
            return vtensor([None if how == "dynamic" else s for s in shape], self.dtype)

        xt = ty((self.t, self.b, self.c), self.operands)
        wt = ty((self.k, self.c, self.o), self.operands)
        bt = ty((self.o,), self.operands)
        rt = ty((self.out_len, self.b, self.o), "static")
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}, %w: {wt}, %b: {bt}) -> {rt} {{",
                f"  %pad = torch.constant.int {self.pad}",
                f"  %r = torch.aten.conv_tbc %x, %w, %b, %pad : {xt}, {wt}, {bt}, !torch.int -> {rt}",
                f"  return %r : {rt}",
                "}",
            ]
        )

    def inputs(self) -> list:
        rng = np.random.default_rng(len(self.name) + 31 * self.pad)
        shapes = [(self.t, self.b, self.c), (self.k, self.c, self.o), (self.o,)]
        return [rng.standard_normal(s).astype(NUMPY[self.dtype]) for s in shapes]

    def expected(self, x, w, b) -> np.ndarray:
        return torch.conv_tbc(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b), self.pad).numpy()


CASES = [
    Case("suite", 9, 4, 5, 3, 6, 0, operands="dynamic"),  # ConvTbcModule_basic's types
    Case("pad_one", 6, 2, 3, 3, 4, 1),
    Case("pad_two_dynamic", 5, 3, 2, 4, 3, 2, operands="dynamic"),
    Case("kernel_one", 7, 1, 8, 1, 5, 0),
    Case("f64", 8, 2, 3, 2, 5, 1, dtype="f64"),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("suite", "pad_two_dynamic")]


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("conv_tbc"))


def test_stock_fails_on_conv_tbc(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("doesn't match function result type" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    x, w, b = case.inputs()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [x, w, b])
    want = case.expected(x, w, b)
    assert out.shape == want.shape == (case.out_len, case.b, case.o), (out.shape, want.shape)
    np.testing.assert_allclose(out, want, rtol=TOL[case.dtype], atol=TOL[case.dtype])


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_conv_tbc_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_conv_tbc_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

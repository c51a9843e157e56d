"""torch-decompose-signbit end to end: signbit and copysign of floats compiled with the fix equal torch's.

Stock IREE fails both on every float input (their ``view.dtype`` is made after
IREE's bitcast lowering ran); with ``--fixes=torch-decompose-signbit`` each
function here compiles for llvm-cpu and equals torch bit for bit on inputs
built to tell sign bits apart: +-0, +-inf, NaN of both signs, the smallest
normals, random values; f32, f16, bf16, and f64 (compiled with
``--iree-input-demote-f64-to-f32=false``: IREE demotes f64 by default, and a
bitcast of a demoted f64 cannot hold). copysign broadcasts.
"""

from dataclasses import dataclass
from functools import partial

import ml_dtypes
import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-signbit"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)
TORCH = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64}


def signed_values(rng, dtype: str, n: int) -> np.ndarray:
    """``n`` values of ``dtype``: +-0, +-inf, NaN with and without the sign bit, the smallest normals of both
    signs, then random ones."""
    np_type = NUMPY[dtype]
    info = ml_dtypes.finfo(np_type) if dtype == "bf16" else np.finfo(np_type)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, float(info.tiny), -float(info.tiny)], np.float64)
    values = np.concatenate([special.astype(np_type), (rng.standard_normal(n) * 3).astype(np_type)])
    values[len(special) :][::3] = -np.abs(values[len(special) :][::3])
    bits = values.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[values.itemsize])
    out = values.copy()
    out_bits = out.view(bits.dtype)
    out_bits[4] = bits[4] | (1 << (8 * values.itemsize - 1))  # a NaN with its sign bit set
    return rng.permutation(out)[:n] if n < len(out) else out


@dataclass
class Case:
    name: str
    op: str  # "signbit" or "copysign"
    dtype: str
    shapes: list  # one shape per operand
    dynamic: bool = False

    def sizes(self, shape):
        return [None if self.dynamic and s != 1 else s for s in shape]

    def function(self) -> str:
        types = [vtensor(self.sizes(s), self.dtype) for s in self.shapes]
        if self.op == "signbit":
            r = vtensor(self.sizes(self.shapes[0]), "i1")
            body = f"  %r = torch.aten.signbit %a0 : {types[0]} -> {r}"
        else:
            out = list(np.broadcast_shapes(*self.shapes))
            r = vtensor(self.sizes(out), self.dtype)
            body = f"  %r = torch.aten.copysign.Tensor %a0, %a1 : {types[0]}, {types[1]} -> {r}"
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
        return "\n".join([f"func.func @{self.name}({args}) -> {r} {{", body, f"  return %r : {r}", "}"])

    def inputs(self, rng) -> list:
        return [signed_values(rng, self.dtype, int(np.prod(s))).reshape(s) for s in self.shapes]

    def expected(self, inputs) -> torch.Tensor:
        ts = [
            torch.from_numpy(x.view(np.uint16)).view(torch.bfloat16) if self.dtype == "bf16" else torch.from_numpy(x)
            for x in inputs
        ]
        return torch.signbit(ts[0]) if self.op == "signbit" else torch.copysign(ts[0], ts[1])


CASES = [
    Case("signbit_f32", "signbit", "f32", [(4, 8)]),
    Case("signbit_f32_dynamic", "signbit", "f32", [(3, 5)], dynamic=True),
    Case("signbit_f16", "signbit", "f16", [(16,)]),
    Case("signbit_bf16", "signbit", "bf16", [(2, 9)]),
    Case("signbit_f64", "signbit", "f64", [(12,)]),
    Case("copysign_f32", "copysign", "f32", [(3, 7), (3, 7)]),
    Case("copysign_broadcast", "copysign", "f32", [(1, 1), (1, 6)]),
    Case("copysign_f16_dynamic", "copysign", "f16", [(4, 5), (1, 5)], dynamic=True),
]

# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("signbit_f32", "copysign_broadcast", "signbit_bf16")]


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("signbit"))


def test_stock_fails_on_signbit(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("torch.constant.int" in m for m in res.messages), res.messages[-3:]


def bits(x) -> np.ndarray:
    """The raw bits of an array (NaN payloads and signs compared exactly)."""
    x = np.ascontiguousarray(x)
    return x.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[x.itemsize])


def check(case, vmfb):
    inputs = case.inputs(np.random.default_rng(len(case.name)))
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, inputs)
    want = case.expected(inputs)
    if case.op == "signbit":
        assert np.array_equal(out.astype(bool), want.numpy()), (out, want)
    else:  # copysign: equal values, and equal sign bits (NaN's included)
        want_bits = want.view(torch.int16).numpy() if case.dtype == "bf16" else bits(want.numpy())
        assert out.shape == tuple(want.shape) and np.array_equal(bits(out), bits(want_bits)), (out, want)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_sign_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_sign_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

"""torch-decompose-isfinite end to end: torch.isfinite compiled with the fix equals torch's.

Stock IREE fails every ``torch.aten.isfinite`` (no lowering); with
``--fixes=torch-decompose-isfinite`` each function here compiles for llvm-cpu
and equals ``torch.isfinite`` on inputs holding +-0, +-inf, NaN of both signs,
the largest finite values, the smallest normals and subnormals, then random
values: f32 (dynamic sizes), f16, bf16 and f64 (compiled with
``--iree-input-demote-f64-to-f32=false``: under IREE's default demotion an f64
beyond f32's range becomes inf before any op sees it); si32, ui8 and bool
inputs, all true.
"""

from dataclasses import dataclass
from functools import partial

import ml_dtypes
import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, random_array, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-isfinite"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)


def edge_values(rng, dtype: str, n: int) -> np.ndarray:
    """``n`` values of the float ``dtype``: the edges of finiteness first, then random ones (n >= 11)."""
    np_type = NUMPY[dtype]
    info = ml_dtypes.finfo(np_type) if dtype == "bf16" else np.finfo(np_type)
    big, tiny = float(info.max), float(info.tiny)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, big, -big, tiny, -tiny, tiny / 4]
    values = np.concatenate([np.array(edges).astype(np_type), (rng.standard_normal(n) * 3).astype(np_type)])
    return rng.permutation(values[:n])


@dataclass
class Case:
    name: str
    dtype: str
    shape: tuple
    dynamic: bool = False

    def function(self) -> str:
        sizes = [None if self.dynamic else s for s in self.shape]
        x, r = vtensor(sizes, self.dtype), vtensor(sizes, "i1")
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {x}) -> {r} {{",
                f"  %r = torch.aten.isfinite %x : {x} -> {r}",
                f"  return %r : {r}",
                "}",
            ]
        )

    def input(self, rng) -> np.ndarray:
        n = int(np.prod(self.shape))
        if self.dtype in ("f16", "bf16", "f32", "f64"):
            return edge_values(rng, self.dtype, n).reshape(self.shape)
        return random_array(rng, self.shape, self.dtype)

    def expected(self, x: np.ndarray) -> np.ndarray:
        t = torch.from_numpy(x.view(np.uint16)).view(torch.bfloat16) if self.dtype == "bf16" else torch.from_numpy(x)
        return torch.isfinite(t).numpy()


CASES = [
    Case("isfinite_f32_dynamic", "f32", (3, 7), dynamic=True),
    Case("isfinite_f16", "f16", (16,)),
    Case("isfinite_bf16", "bf16", (2, 8)),
    Case("isfinite_f64", "f64", (12,)),
    Case("isfinite_si32_dynamic", "si32", (4, 5), dynamic=True),
    Case("isfinite_ui8", "ui8", (9,)),
    Case("isfinite_bool", "i1", (2, 3)),
]

# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("isfinite_f32_dynamic", "isfinite_bf16", "isfinite_si32_dynamic")]


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("isfinite"))


def test_stock_fails_on_isfinite(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("torch.aten.isfinite" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    x = case.input(np.random.default_rng(len(case.name)))
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [x])
    want = case.expected(x)
    assert out.shape == want.shape and np.array_equal(out.astype(bool), want), (x, out, want)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_isfinite_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

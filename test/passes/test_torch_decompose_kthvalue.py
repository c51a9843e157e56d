"""torch-decompose-kthvalue end to end: torch.kthvalue programs compiled with the fix equal torch.kthvalue.

Stock IREE fails every kthvalue (its ``tm_tensor.topk`` is never converted);
with ``--fixes=torch-decompose-kthvalue`` each function here compiles for
llvm-cpu and equals ``torch.kthvalue``: the values exactly (NaN where torch
gives NaN: fewer than k numbers in a row), the index one holding that value in
the input (torch leaves which of equal values' indices unspecified; where the
value occurs once the index is torch's). Rows hold ties, NaN, +-inf and +-0,
k from 1 to n, every dim, keepdim both ways, dynamic sizes; si32, si64, f16,
f32, f64 (compiled with ``--iree-input-demote-f64-to-f32=false``).
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-kthvalue"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)


def rows(rng, dtype: str, shape) -> np.ndarray:
    """Values with many ties; floats with NaN, +-inf and +-0 among them."""
    n = int(np.prod(shape))
    if dtype in ("si32", "si64"):
        return rng.integers(-4, 5, shape).astype(NUMPY[dtype])
    pool = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.25, 3.0, 1.5, 0.5])
    x = np.where(rng.random(n) < 0.45, rng.choice(pool, n), rng.standard_normal(n))
    return x.reshape(shape).astype(NUMPY[dtype])


@dataclass
class Case:
    name: str
    shape: tuple
    dtype: str
    k: int
    dim: int
    keepdim: bool = False
    dynamic: tuple = ()

    def out_shape(self) -> list:
        d = self.dim % len(self.shape)
        out = list(self.shape)
        if self.keepdim:
            out[d] = 1
        else:
            del out[d]
        return out

    def function(self) -> str:
        d = self.dim % len(self.shape)
        xt = vtensor([None if i in self.dynamic else s for i, s in enumerate(self.shape)], self.dtype)
        kept = [None if i in self.dynamic else s for i, s in enumerate(self.shape)]
        kept[d] = 1
        if not self.keepdim:
            del kept[d]
        vt, it = vtensor(kept, self.dtype), vtensor(kept, "si64")
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}) -> ({vt}, {it}) {{",
                f"  %k = torch.constant.int {self.k}",
                f"  %d = torch.constant.int {self.dim}",
                f"  %keep = torch.constant.bool {'true' if self.keepdim else 'false'}",
                f"  %v, %i = torch.aten.kthvalue %x, %k, %d, %keep : {xt}, !torch.int, !torch.int, !torch.bool -> {vt}, {it}",
                f"  return %v, %i : {vt}, {it}",
                "}",
            ]
        )

    def input(self) -> np.ndarray:
        return rows(np.random.default_rng(len(self.name) + self.k), self.dtype, self.shape)


CASES = [
    Case("int_middle", (2, 6, 3), "si32", 4, 1),
    Case("int_keepdim_dynamic", (4, 2, 8, 3), "si32", 6, 2, keepdim=True, dynamic=(0, 1, 2, 3)),
    Case("int64_first", (5, 7), "si64", 1, -1),
    Case("f32_last_dim", (6, 9), "f32", 3, -1),
    Case("f32_k_is_n", (5, 8), "f32", 8, 1),
    Case("f32_dim0_keepdim", (7, 4), "f32", 5, 0, keepdim=True),
    Case("f32_dynamic", (3, 10), "f32", 7, 1, dynamic=(0, 1)),
    Case("f16", (4, 12), "f16", 6, 1),
    Case("f64", (4, 2, 8, 3), "f64", 3, 0, keepdim=True),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("int_middle", "f32_last_dim", "f32_k_is_n")]


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("kthvalue"))


def test_stock_fails_on_kthvalue(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("tm_tensor.topk" in m for m in res.messages), res.messages[-3:]


def same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise equality with NaN equal to NaN."""
    if a.dtype.kind != "f":
        return a == b
    return (a == b) | (np.isnan(a) & np.isnan(b))


def check(case, vmfb):
    x = case.input()
    values, indices = e2e.run_runtime(vmfb, CPU, case.name, [x])
    want_v, want_i = (t.numpy() for t in torch.kthvalue(torch.from_numpy(x), case.k, case.dim, case.keepdim))
    assert values.shape == want_v.shape and indices.shape == want_i.shape
    assert same(values, want_v).all(), (x, values, want_v)
    d = case.dim % x.ndim
    kept = indices if case.keepdim else np.expand_dims(indices, d)
    picked = np.take_along_axis(x, kept, d)
    assert same(picked, values if case.keepdim else np.expand_dims(values, d)).all(), (picked, values)
    kept_v = np.expand_dims(want_v, d) if not case.keepdim else want_v
    once = (same(x, kept_v).sum(axis=d, keepdims=case.keepdim)) == 1
    assert np.array_equal(indices[once], want_i[once]), (indices, want_i)
    assert once.any() or case.dtype.startswith("si"), "no row checks torch's own index"


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_kthvalue_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_kthvalue_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

"""torch-decompose-rms-norm end to end: torch.rms_norm programs with a weight of dynamic shape, compiled with
the fix, equal torch.rms_norm.

Stock IREE leaves ``aten.rms_norm`` with a dynamic weight undecomposed and fails on the constants
it left; with ``--fixes=torch-decompose-rms-norm`` each function here compiles for llvm-cpu and
equals ``torch.rms_norm`` of its inputs: f32 over 1, 2 and all dims, given eps and eps None
(f32's epsilon), f16 and bf16 (computed in f32, eps None then f32's epsilon, as ATen), f64
(compiled with ``--iree-input-demote-f64-to-f32=false``). Inputs are small enough that eps matters.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-rms-norm"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)
RTOL = {"f32": 2e-6, "f64": 1e-13, "f16": 2e-3, "bf16": 1.6e-2}  # a few ulps of each dtype
TORCH = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64"}


@dataclass
class Case:
    name: str
    shape: tuple
    n: int  # the normalized dims: the last n
    dtype: str = "f32"
    eps: float | None = 0.5

    @property
    def weight_shape(self):
        return self.shape[len(self.shape) - self.n :]

    def function(self) -> str:
        xt = vtensor([None] * len(self.shape), self.dtype)
        wt = vtensor([None] * self.n, self.dtype)
        rt = vtensor(self.shape, self.dtype)
        ints = [f"  %s{i} = torch.constant.int {s}" for i, s in enumerate(self.weight_shape)]
        names = ", ".join(f"%s{i}" for i in range(self.n))
        eps = "torch.constant.none" if self.eps is None else f"torch.constant.float {self.eps:e}"
        eps_type = "!torch.none" if self.eps is None else "!torch.float"
        return "\n".join(
            [f"func.func @{self.name}(%x: {xt}, %w: {wt}) -> {rt} {{", *ints]
            + [
                f"  %shape = torch.prim.ListConstruct {names} : ({', '.join(['!torch.int'] * self.n)}) -> !torch.list<int>",
                f"  %eps = {eps}",
                f"  %r = torch.aten.rms_norm %x, %shape, %w, %eps : {xt}, !torch.list<int>, {wt}, {eps_type} -> {rt}",
                f"  return %r : {rt}",
                "}",
            ]
        )

    def inputs(self) -> list:
        rng = np.random.default_rng(len(self.name))
        x = (rng.standard_normal(self.shape) * 1e-3).astype(np.float32).astype(NUMPY[self.dtype])
        w = rng.standard_normal(self.weight_shape).astype(np.float32).astype(NUMPY[self.dtype])
        return [x, w]

    def expected(self, x, w) -> np.ndarray:
        def tensor(a):
            return torch.from_numpy(a.astype(np.float64)).to(getattr(torch, TORCH[self.dtype]))

        out = torch.rms_norm(tensor(x), list(self.weight_shape), tensor(w), self.eps)
        return out.to(torch.float64).numpy()


CASES = [
    Case("last_dim", (3, 8), 1),
    Case("two_dims", (2, 3, 4), 2),
    Case("all_dims", (3, 5), 2, eps=1e-6),
    Case("eps_none", (4, 6), 1, eps=None),
    Case("f16", (2, 16), 1, "f16", eps=None),
    Case("bf16", (2, 16), 1, "bf16", eps=None),
    Case("f64", (3, 7), 1, "f64", eps=None),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("two_dims", "bf16")]


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("rms_norm"))


def test_stock_fails_on_dynamic_weight(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("failed to legalize operation 'torch.constant" in m for m in res.messages), res.messages[
        -3:
    ]


def check(case, vmfb):
    x, w = case.inputs()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [x, w])
    want = case.expected(x, w)
    got = out.astype(np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=RTOL[case.dtype], atol=0)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_rms_norm_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_rms_norm_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

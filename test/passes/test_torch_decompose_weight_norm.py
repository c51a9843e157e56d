"""torch-decompose-weight-norm end to end: _weight_norm and _weight_norm_interface compiled with the fix equal torch's.

Stock IREE has no op for ``aten._weight_norm`` and mistypes the norm of
``aten._weight_norm_interface``; with ``--fixes=torch-decompose-weight-norm``
each function here compiles for llvm-cpu and equals ``torch._weight_norm`` (and
``torch._weight_norm_interface``: weight and norm): wav2vec2's positional
convolution (dim 2), dim 0, dim -1 with a 0-d g (``weight_norm(dim=None)``),
dynamic sizes, f32 and f64. The norm is a sum of squares: a tolerance of a few
ulps for its order.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-weight-norm"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)


@dataclass
class Case:
    name: str
    v: tuple
    dim: int
    dtype: str = "f32"
    interface: bool = False
    dynamic: bool = False

    def g_shape(self) -> tuple:
        if self.dim == -1:
            return ()
        return tuple(s if d == self.dim else 1 for d, s in enumerate(self.v))

    def function(self) -> str:
        def t(shape, keep_ones=True):
            return vtensor([None if self.dynamic and not (keep_ones and s == 1) else s for s in shape], self.dtype)

        vt, gt = t(self.v, keep_ones=False), t(self.g_shape())
        head = [f"func.func @{self.name}(%v: {vt}, %g: {gt}) -> ", f"  %dim = torch.constant.int {self.dim}"]
        if self.interface:
            head[0] += f"({vt}, {gt}) {{"
            call = (
                f"  %w, %n = torch.aten._weight_norm_interface %v, %g, %dim : {vt}, {gt}, !torch.int -> {vt}, {gt}\n"
                f"  return %w, %n : {vt}, {gt}"
            )
        else:
            head[0] += f"{vt} {{"
            call = (
                f'  %w = torch.operator "torch.aten._weight_norm"(%v, %g, %dim) : ({vt}, {gt}, !torch.int) -> {vt}\n'
                f"  return %w : {vt}"
            )
        return "\n".join([*head, call, "}"])

    def inputs(self) -> list:
        rng = np.random.default_rng(len(self.name))
        dtype = NUMPY[self.dtype]
        v = rng.standard_normal(self.v).astype(dtype)
        g = np.asarray(np.abs(rng.standard_normal(self.g_shape())) + 0.5, dtype)  # a 0-d g stays an array
        return [v, g]

    def expected(self, v, g) -> list:
        tv, tg = torch.from_numpy(v), torch.from_numpy(g)
        if self.interface:
            return [t.numpy() for t in torch._weight_norm_interface(tv, tg, self.dim)]
        return [torch._weight_norm(tv, tg, self.dim).numpy()]


CASES = [
    Case("wav2vec2_conv", (32, 16, 16), 2),
    Case("first_dim", (8, 4, 3), 0),
    Case("all_dims", (6, 5), -1),
    Case("dynamic", (5, 7, 3), 1, dynamic=True),
    Case("f64", (4, 6), 1, dtype="f64"),
    Case("interface", (3, 10, 10), 2, interface=True, dynamic=True),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("wav2vec2_conv", "interface")]


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("weight_norm"))


# What stock says: _weight_norm is not a torch-mlir op; the interface's decomposition mistypes the norm.
STOCK = {"wav2vec2_conv": "torch.aten._weight_norm", "interface": "doesn't match function result type"}


@pytest.mark.parametrize("name", STOCK)
def test_stock_fails_on_weight_norm(name, tmp_path):
    res = stock_compile([c for c in CASES if c.name == name], tmp_path)
    assert not res.ok and any(STOCK[name] in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    v, g = case.inputs()
    outs = e2e.run_runtime(vmfb, CPU, case.name, [v, g])
    want = case.expected(v, g)
    assert len(outs) == len(want)
    for got, w in zip(outs, want):
        np.testing.assert_allclose(got, w, rtol=2e-6 if case.dtype == "f32" else 1e-13, atol=0)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_weight_norm_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_weight_norm_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

"""torch-decompose-cross-entropy-loss end to end: cross_entropy_loss programs compiled with the fix equal PyTorch.

Stock IREE fails on ``torch.aten.cross_entropy_loss`` (a
``torch.prim.NumToTensor.Scalar`` left by its decomposition); with
``--fixes=torch-decompose-cross-entropy-loss`` each function here compiles for
llvm-cpu and equals ``torch.ops.aten.cross_entropy_loss`` of its inputs: mean
over dynamic [N, C] logits with some targets ignored (-100), none and sum,
a 1-d input with a 0-d target, [N, C, d] logits, a valid class as
ignore_index, f64, and mean where every target is ignored (NaN, as PyTorch).
Floats compare to within a few ulps (IREE's exp and log are not libm's).
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-cross-entropy-loss"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)
RTOL = {"f32": 2e-6, "f64": 1e-13}
REDUCTION = {"none": 0, "mean": 1, "sum": 2}


@dataclass
class Case:
    name: str
    shape: tuple  # the logits' shape: (C,), (N, C) or (N, C, d...)
    reduction: str
    ignore_index: int = -100
    dtype: str = "f32"
    dynamic: bool = False
    ignored: float = 0.25  # the share of targets set to ignore_index (rounded)

    @property
    def target_shape(self) -> tuple:
        return self.shape[:1] + self.shape[2:] if len(self.shape) > 1 else ()

    def types(self) -> tuple[str, str, str]:
        def sizes(shape):
            return [None if self.dynamic else s for s in shape]

        result = sizes(self.target_shape) if self.reduction == "none" else []
        return (
            vtensor(sizes(self.shape), self.dtype),
            vtensor(sizes(self.target_shape), "si64"),
            vtensor(result, self.dtype),
        )

    def function(self) -> str:
        xt, tt, rt = self.types()
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}, %t: {tt}) -> {rt} {{",
                "  %none = torch.constant.none",
                f"  %red = torch.constant.int {REDUCTION[self.reduction]}",
                f"  %ign = torch.constant.int {self.ignore_index}",
                "  %ls = torch.constant.float 0.000000e+00",
                f"  %r = torch.aten.cross_entropy_loss %x, %t, %none, %red, %ign, %ls : {xt}, {tt}, !torch.none, "
                f"!torch.int, !torch.int, !torch.float -> {rt}",
                f"  return %r : {rt}",
                "}",
            ]
        )

    def inputs(self) -> list:
        rng = np.random.default_rng(len(self.name) * 7 + len(self.shape))
        x = (rng.standard_normal(self.shape) * 3).astype(NUMPY[self.dtype])
        classes = self.shape[1] if len(self.shape) > 1 else self.shape[0]
        t = rng.integers(0, classes, self.target_shape).astype(np.int64)
        n = t.size
        ignored = rng.permutation(n) < round(self.ignored * n)  # exactly that share, at random places
        t = np.where(ignored.reshape(t.shape), self.ignore_index, t).astype(np.int64)
        return [x, np.asarray(t)]

    def expected(self, x, t) -> np.ndarray:
        out = torch.ops.aten.cross_entropy_loss(
            torch.from_numpy(x), torch.from_numpy(t), None, REDUCTION[self.reduction], self.ignore_index, 0.0
        )
        return out.numpy()


CASES = [
    Case("mean_dynamic", (8, 5), "mean", dynamic=True),
    Case("none_static", (6, 4), "none"),
    Case("sum_dynamic", (7, 3), "sum", dynamic=True),
    Case("none_1d", (5,), "none", ignored=0.0),
    Case("mean_1d_ignored", (5,), "mean", ignored=1.0),
    Case("mean_3d", (2, 4, 3), "mean"),
    Case("none_3d_dynamic", (3, 4, 2), "none", dynamic=True),
    Case("ignore_valid_class", (9, 3), "sum", ignore_index=1, ignored=0.0),
    Case("mean_all_ignored", (4, 3), "mean", ignored=1.0),
    Case("mean_f64", (10, 6), "mean", dtype="f64"),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("mean_dynamic", "none_1d", "mean_all_ignored")]


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("cross_entropy_loss"))


def test_stock_fails_on_cross_entropy_loss(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("torch.prim.NumToTensor.Scalar" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    x, t = case.inputs()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [x, t])
    want = case.expected(x, t)
    assert out.shape == want.shape, (out.shape, want.shape)
    np.testing.assert_allclose(out, want, rtol=RTOL[case.dtype], atol=0, equal_nan=True)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_cross_entropy_loss_matches_torch(case, vmfb):
    check(case, vmfb)


def test_the_sample_holds_what_it_checks():
    """The cheap sample has ignored targets, the NaN of a mean over none, and a 0-d target."""
    mean, one_d, nan = (c.inputs() for c in SAMPLE)
    assert (mean[1] == -100).any() and (mean[1] != -100).any()
    assert one_d[1].shape == ()
    assert np.isnan(SAMPLE[2].expected(*nan))


@pytest.mark.slow
def test_every_case_cross_entropy_loss_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

"""torch-instance-norm-blocked-stats end to end: instance norms over long channels equal torch's definition.

Stock IREE sums each channel's elements into f32 accumulators that outgrow
their addends over millions of elements: its variance comes out low and every
normalized value is off (the figures are on the page). With
``--fixes=torch-instance-norm-blocked-stats`` each function here equals
``instance_norm_reference`` (the definition in float64: the mean, the biased
variance, ``(x - mean) / sqrt(var + eps) * w + b``, rounded once to the
dtype): within 2e-6 (f32's rounding), plus one ulp of the dtype for f16 and
bf16. Inputs are uniform in [0, 1), as in torch-mlir's
``AtenInstanceNormModuleFp16``, whose form (8M elements a channel) is
measured on the page, not here.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, vtensor

PASS = "torch-instance-norm-blocked-stats"
CPU = e2e.TARGETS["cpu"]
EPS = 1e-5


def instance_norm_reference(x, w, b) -> np.ndarray:
    """torch's instance norm in float64 (statistics from the input, biased variance), rounded to x's dtype."""
    xd = x.astype(np.float64)
    dims = tuple(range(2, x.ndim))
    mean = xd.mean(axis=dims, keepdims=True)
    var = ((xd - mean) ** 2).mean(axis=dims, keepdims=True)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    y = (xd - mean) / np.sqrt(var + EPS)
    if w is not None:
        y = y * w.astype(np.float64).reshape(shape) + b.astype(np.float64).reshape(shape)
    return y.astype(x.dtype)


@dataclass
class Case:
    name: str
    shape: tuple
    dtype: str
    affine: bool = True

    def function(self) -> str:
        xt, ct = vtensor(self.shape, self.dtype), vtensor([self.shape[1]], self.dtype)
        args = f"%x: {xt}, %w: {ct}, %b: {ct}" if self.affine else f"%x: {xt}"
        wb, wbt = ("%w, %b", f"{ct}, {ct}") if self.affine else ("%none, %none", "!torch.none, !torch.none")
        return "\n".join(
            [
                f"func.func @{self.name}({args}) -> {xt} {{",
                "  %none = torch.constant.none",
                "  %true = torch.constant.bool true",
                "  %false = torch.constant.bool false",
                "  %m = torch.constant.float 1.000000e-01",
                f"  %eps = torch.constant.float {EPS:e}",
                f"  %r = torch.aten.instance_norm %x, {wb}, %none, %none, %true, %m, %eps, %false : {xt}, {wbt}, "
                f"!torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> {xt}",
                f"  return %r : {xt}",
                "}",
            ]
        )

    def inputs(self) -> list:
        rng = np.random.default_rng(len(self.name))
        x = rng.uniform(0, 1, self.shape).astype(np.float32).astype(NUMPY[self.dtype])
        wb = [rng.uniform(0, 1, self.shape[1]).astype(np.float32).astype(NUMPY[self.dtype]) for _ in range(2)]
        return [x, *wb] if self.affine else [x]


CASES = [
    Case("f32_1m", (1, 2, 1 << 20), "f32"),
    Case("f32_2d_no_affine", (2, 2, 512, 1024), "f32", affine=False),
    Case("f16_1m", (1, 4, 1 << 20), "f16"),
    Case("bf16_1m", (1, 4, 1 << 20), "bf16"),
]
# The default run compiles this; --runslow compiles every case.
SAMPLE = CASES[:1]


compile_cases = partial(compile_case_module, fixes=PASS)


def error(case, vmfb) -> float:
    """The largest difference from the reference, in units of the tolerance: 2e-6 (f32's rounding of the
    values, up to 3, and of the statistics), plus one ulp of the dtype at the reference's value for f16 and bf16."""
    inputs = case.inputs()
    (got,) = e2e.run_runtime(vmfb, CPU, case.name, inputs)
    want = instance_norm_reference(inputs[0], *(inputs[1:] or [None, None]))
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape)
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    ulp = 0 if case.dtype == "f32" else np.abs(np.spacing(want).astype(np.float64))
    return float((diff / (2e-6 + ulp)).max())


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("instance_norm"))


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_instance_norm_matches_its_definition(case, vmfb):
    assert error(case, vmfb) <= 1, case.name


@pytest.mark.slow
def test_stock_is_off(tmp_path):
    """Stock's f32 statistics over 1M elements a channel: far past f32's rounding."""
    vmfb = compile_cases(SAMPLE, tmp_path, fixes=None)
    assert error(SAMPLE[0], vmfb) > 50


@pytest.mark.slow
def test_every_case_matches_its_definition(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        assert error(case, vmfb) <= 1, case.name

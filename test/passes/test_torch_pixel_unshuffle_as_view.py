"""torch-pixel-unshuffle-as-view end to end: pixel_unshuffle compiled with the fix equals torch's, exactly.

Stock IREE fails on ``aten.pixel_unshuffle`` with dynamic spatial sizes
(``tensor.collapse_shape`` expected a static dimension); with
``--fixes=torch-pixel-unshuffle-as-view`` each function here compiles for
llvm-cpu and equals ``torch.nn.functional.pixel_unshuffle`` of its input: a
rank-5 si64 with dynamic H and W, a rank-3 f32 fully dynamic, a static rank-4
with r = 3. The first is the suite's: its result's channels are
dynamic, and the functions carry ``torch.assume_strict_symbolic_shapes``, as
iree-turbine exports them: stock lowers the dynamic case without it.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-pixel-unshuffle-as-view"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    shape: tuple
    r: int
    dtype: str
    dynamic: tuple = ()  # the dims declared dynamic
    out_dynamic: tuple = ()  # the result's dims declared dynamic besides (the export's [4,1,?,?,?])

    def function(self) -> str:
        sizes = [None if d in self.dynamic else s for d, s in enumerate(self.shape)]
        *lead, c, h, w = sizes
        r = self.r
        out = [*lead, None if c is None else c * r * r, None if h is None else h // r, None if w is None else w // r]
        out = [None if d in self.out_dynamic else s for d, s in enumerate(out)]
        xt, rt = vtensor(sizes, self.dtype), vtensor(out, self.dtype)
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}) -> {rt} attributes {{torch.assume_strict_symbolic_shapes}} {{",
                f"  %r = torch.constant.int {r}",
                f"  %y = torch.aten.pixel_unshuffle %x, %r : {xt}, !torch.int -> {rt}",
                f"  return %y : {rt}",
                "}",
            ]
        )

    def inputs(self) -> np.ndarray:
        return np.arange(int(np.prod(self.shape))).reshape(self.shape).astype(NUMPY[self.dtype])


CASES = [
    Case("spatially_dynamic", (4, 1, 6, 4, 6), 2, "si64", dynamic=(3, 4), out_dynamic=(2,)),
    Case("rank3_full_dynamic", (2, 6, 9), 3, "f32", dynamic=(0, 1, 2)),
    Case("static_rank4", (2, 3, 6, 3), 3, "f32"),
]
SAMPLE = CASES[:1]  # the default run; --runslow compiles every case


compile_cases = partial(compile_case_module, fixes=PASS)


def test_stock_fails_on_dynamic_pixel_unshuffle(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("collapse_shape" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    x = case.inputs()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [x])
    want = torch.nn.functional.pixel_unshuffle(torch.from_numpy(x), case.r).numpy()
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_pixel_unshuffle_matches_torch(case, tmp_path):
    check(case, compile_cases([case], tmp_path))


@pytest.mark.slow
def test_every_case_pixel_unshuffle_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

"""torch-prims-prod-as-prod-dim end to end: torch.ops.prims.prod compiled with the fix equals torch's.

Stock IREE has no lowering for ``torch.prims.prod``; with
``--fixes=torch-prims-prod-as-prod-dim`` each function here compiles for
llvm-cpu and equals ``torch.ops.prims.prod`` of its input (f32, f64; one dim,
two dims given out of order, every dim, dynamic sizes) to within
the rounding of a product taken in another order.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-prims-prod-as-prod-dim"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)
RTOL = {"f32": 2e-6, "f64": 1e-14}


@dataclass
class Case:
    name: str
    shape: tuple
    dims: tuple
    dtype: str
    dynamic: bool = False

    def function(self) -> str:
        sizes = [None if self.dynamic else s for s in self.shape]
        kept = [s for d, s in enumerate(sizes) if d not in self.dims]
        xt, rt = vtensor(sizes, self.dtype), vtensor(kept, self.dtype)
        ints = [f"  %d{i} = torch.constant.int {d}" for i, d in enumerate(self.dims)]
        names = ", ".join(f"%d{i}" for i in range(len(self.dims)))
        kinds = ", ".join("!torch.int" for _ in self.dims)
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}) -> {rt} {{",
                *ints,
                f"  %dims = torch.prim.ListConstruct {names} : ({kinds}) -> !torch.list<int>",
                "  %none = torch.constant.none",
                f"  %r = torch.prims.prod %x, %dims, %none : {xt}, !torch.list<int>, !torch.none -> {rt}",
                f"  return %r : {rt}",
                "}",
            ]
        )

    def inputs(self) -> np.ndarray:
        rng = np.random.default_rng(len(self.name))
        return (rng.random(self.shape) * 1.5 + 0.3).astype(NUMPY[self.dtype])


CASES = [
    Case("two_dims_dynamic", (3, 4, 5), (0, 1), "f32", dynamic=True),
    Case("reversed", (2, 3, 4, 5), (3, 1), "f32"),
    Case("every_dim", (3, 2, 4), (0, 1, 2), "f32"),
    Case("f64_one_dim", (6, 7), (1,), "f64"),
]
SAMPLE = [c for c in CASES if c.name in ("two_dims_dynamic",)]  # the default run; --runslow compiles every case


compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


def test_stock_fails_on_prims_prod(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("torch.prims.prod" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    x = case.inputs()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [x])
    want = torch.ops.prims.prod(torch.from_numpy(x), list(case.dims)).numpy()
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape, want.dtype, want.shape)
    np.testing.assert_allclose(out, want, rtol=RTOL[case.dtype], atol=0)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_prims_prod_matches_torch(case, tmp_path):
    check(case, compile_cases([case], tmp_path))


@pytest.mark.slow
def test_every_case_prims_prod_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

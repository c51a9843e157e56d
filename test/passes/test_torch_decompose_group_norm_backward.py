"""torch-decompose-group-norm-backward end to end: torch.aten.native_group_norm_backward programs compiled with
the fix equal PyTorch's op.

Stock IREE has no lowering for ``aten.native_group_norm_backward`` and fails on the constants it leaves;
with ``--fixes=torch-decompose-group-norm-backward`` each function here compiles for llvm-cpu and equals
``torch.ops.aten.native_group_norm_backward`` on random inputs, with mean and rstd from
``torch.ops.aten.native_group_norm`` of the same input: 2-d to 5-d inputs, one group, C groups and
between, a weight and none, output masks keeping every result or some (a masked result typed
``!torch.none``, as iree-turbine exports it), dynamic N and spatial dims, and f64 (compiled with
``--iree-input-demote-f64-to-f32=false``).
"""

import math
from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-group-norm-backward"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)
# Sums of products in another order than ATen's kernel: a few ulps of the largest magnitude.
TOL = {"f32": 2e-6, "f64": 1e-14}
TORCH = {"f32": torch.float32, "f64": torch.float64}


@dataclass
class Case:
    name: str
    shape: tuple  # [N, C, *spatial]
    group: int
    mask: tuple = (True, True, True)
    weight: bool = True
    dtype: str = "f32"
    dynamic: tuple = ()  # the dims of the input typed '?'

    @property
    def n(self):
        return self.shape[0]

    @property
    def c(self):
        return self.shape[1]

    @property
    def hxw(self):
        return math.prod(self.shape[2:])

    def function(self) -> str:
        dt = self.dtype
        xt = vtensor([None if d in self.dynamic else s for d, s in enumerate(self.shape)], dt)
        st = vtensor([None if 0 in self.dynamic else self.n, self.group], dt)
        wt = vtensor([self.c], dt)
        channel = vtensor([self.c], dt)
        rts = [t if bit else "!torch.none" for t, bit in zip((vtensor(self.shape, dt), channel, channel), self.mask)]
        kept = [i for i, bit in enumerate(self.mask) if bit]
        args = [f"%go: {xt}", f"%x: {xt}", f"%mean: {st}", f"%rstd: {st}"] + ([f"%w: {wt}"] if self.weight else [])
        bools = ", ".join("%true" if b else "%false" for b in self.mask)
        return "\n".join(
            [
                f"func.func @{self.name}({', '.join(args)}) -> ({', '.join(rts[i] for i in kept)}) {{",
                "  %none = torch.constant.none",
                *(f"  %{k} = torch.constant.int {v}" for k, v in zip("nchg", (self.n, self.c, self.hxw, self.group))),
                "  %true = torch.constant.bool true",
                "  %false = torch.constant.bool false",
                f"  %mask = torch.prim.ListConstruct {bools} : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>",
                f"  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, "
                f"{'%w' if self.weight else '%none'}, %n, %c, %h, %g, %mask : {xt}, {xt}, {st}, {st}, "
                f"{wt if self.weight else '!torch.none'}, !torch.int, !torch.int, !torch.int, !torch.int, "
                f"!torch.list<bool> -> {', '.join(rts)}",
                f"  return {', '.join(f'%r{i}' for i in kept)} : {', '.join(rts[i] for i in kept)}",
                "}",
            ]
        )

    def inputs(self) -> list:
        """grad_out, input, mean, rstd (from native_group_norm of the input), and the weight where there is one."""
        rng = np.random.default_rng(len(self.name))
        x = (rng.standard_normal(self.shape) * 2 + 0.5).astype(NUMPY[self.dtype])
        go = rng.standard_normal(self.shape).astype(NUMPY[self.dtype])
        w = rng.standard_normal(self.c).astype(NUMPY[self.dtype])
        _, mean, rstd = torch.ops.aten.native_group_norm(
            torch.from_numpy(x), torch.from_numpy(w), None, self.n, self.c, self.hxw, self.group, 1e-5
        )
        return [go, x, mean.numpy(), rstd.numpy()] + ([w] if self.weight else [])

    def expected(self, go, x, mean, rstd, w=None) -> list:
        """PyTorch's op; a weight of ones for None (torch 2.13's CPU kernel raises 'tensor does not have
        a device' for a None weight where grad_weight or grad_bias is asked for; PyTorch's definition,
        torch._decomp.decompositions, takes gamma None as ones)."""
        ones = torch.ones(self.c, dtype=TORCH[self.dtype])
        outs = torch.ops.aten.native_group_norm_backward(
            *(torch.from_numpy(a) for a in (go, x, mean, rstd)),
            ones if w is None else torch.from_numpy(w),
            self.n,
            self.c,
            self.hxw,
            self.group,
            list(self.mask),
        )
        return [o.numpy() for o, bit in zip(outs, self.mask) if bit]


CASES = [
    Case("suite_form", (2, 6, 2, 2), 3),
    Case("no_weight_masked", (3, 8, 5), 4, (True, False, True), weight=False),
    Case("weight_grads_only", (2, 4, 3, 3), 2, (False, True, True)),
    Case("one_group_2d", (5, 6), 1),
    Case("c_groups_5d", (2, 3, 2, 3, 2), 3),
    Case("dynamic", (2, 4, 2, 3), 2, dynamic=(0, 2)),
    Case("f64", (2, 6, 4, 3), 3, (True, True, False), dtype="f64"),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("suite_form", "no_weight_masked")]

compile_cases = partial(compile_case_module, fixes=PASS, extra_flags=KEEP_F64)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("group_norm_backward"))


def test_stock_fails(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("failed to legalize operation 'torch.constant" in m for m in res.messages), res.messages[
        -3:
    ]


def check(case, vmfb):
    inputs = case.inputs()
    got = e2e.run_runtime(vmfb, CPU, case.name, inputs)
    want = case.expected(*inputs)
    assert len(got) == len(want) == sum(case.mask)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g, w, rtol=TOL[case.dtype], atol=TOL[case.dtype] * np.abs(w).max())


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_group_norm_backward_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_group_norm_backward_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

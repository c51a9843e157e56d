"""torch-decompose-scaled-mm end to end: torch._scaled_mm programs compiled with the fix equal torch's CPU kernel.

Stock IREE has no lowering for ``aten._scaled_mm``; with
``--fixes=torch-decompose-scaled-mm`` each function here (f32 inputs converted
to fp8 in the program, as a quantized model does) compiles for llvm-cpu and
equals ``torch._scaled_mm`` on the CPU: tensor-wise and row-wise scales, both
fp8 formats, f32/f16/bf16 outputs, a bias, a dynamic M. The inputs are
values fp8 holds exactly (normals and 0: the program's own f32-to-fp8
conversion is stock's); products are exact in f32, sums may round in another
order, hence a tolerance of the output dtype's few ulps.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import compile_case_module, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-scaled-mm"
CPU = e2e.TARGETS["cpu"]
FP8 = {"f8E4M3FN": (24, torch.float8_e4m3fn), "f8E5M2": (23, torch.float8_e5m2)}
OUT = {"f32": (6, torch.float32, 2e-6), "f16": (5, torch.float16, 1e-3), "bf16": (15, torch.bfloat16, 8e-3)}


def fp8_normals(x: torch.Tensor, fp8: str) -> torch.Tensor:
    """``x`` rounded to values ``fp8`` holds exactly, its subnormal range made 0: what the program converts
    to fp8 is then the same in IREE and torch (their f32-to-fp8 conversions differ near the smallest normal,
    which rounds to 0 in IREE, and past the largest, NaN in IREE where torch saturates; the page has it)."""
    dtype = FP8[fp8][1]
    x = x.to(dtype).float()
    return torch.where(x.abs() < torch.finfo(dtype).smallest_normal, 0.0, x)


@dataclass
class Case:
    name: str
    m: int
    k: int
    n: int
    fp8: str = "f8E4M3FN"
    out: str = "bf16"
    rowwise: bool = False
    bias: bool = False
    dynamic_m: bool = False

    def function(self) -> str:
        m = None if self.dynamic_m else self.m
        at, bt = vtensor([m, self.k], "f32"), vtensor([self.k, self.n], "f32")
        a8, b8 = vtensor([m, self.k], self.fp8), vtensor([self.k, self.n], self.fp8)
        st = (vtensor([m, 1], "f32"), vtensor([1, self.n], "f32")) if self.rowwise else (vtensor([], "f32"),) * 2
        rt = vtensor([m, self.n], self.out)
        args = [f"%a: {at}", f"%b: {bt}", f"%sa: {st[0]}", f"%sb: {st[1]}"]
        bias, bias_t = "%none", "!torch.none"
        if self.bias:
            bias, bias_t = "%bias", vtensor([self.n], self.out)
            args.append(f"%bias: {bias_t}")
        code = FP8[self.fp8][0]
        return "\n".join(
            [
                f"func.func @{self.name}({', '.join(args)}) -> {rt} {{",
                "  %none = torch.constant.none",
                f"  %fp8 = torch.constant.int {code}",
                f"  %dt = torch.constant.int {OUT[self.out][0]}",
                "  %false = torch.constant.bool false",
                f"  %a8 = torch.prims.convert_element_type %a, %fp8 : {at}, !torch.int -> {a8}",
                f"  %b8 = torch.prims.convert_element_type %b, %fp8 : {bt}, !torch.int -> {b8}",
                f"  %r = torch.aten._scaled_mm %a8, %b8, %sa, %sb, {bias}, %none, %dt, %false : {a8}, {b8}, "
                f"{st[0]}, {st[1]}, {bias_t}, !torch.none, !torch.int, !torch.bool -> {rt}",
                f"  return %r : {rt}",
                "}",
            ]
        )

    def inputs(self) -> list:
        g = torch.Generator().manual_seed(len(self.name))
        a, b = (
            fp8_normals(torch.randn(*shape, generator=g), self.fp8) for shape in ((self.m, self.k), (self.k, self.n))
        )
        if self.rowwise:
            sa, sb = torch.rand(self.m, 1, generator=g) + 0.5, torch.rand(1, self.n, generator=g) + 0.5
        else:
            sa, sb = torch.rand((), generator=g) + 0.5, torch.rand((), generator=g) + 0.5
        out = [a, b, sa, sb]
        if self.bias:
            out.append(torch.randn(self.n, generator=g).to(OUT[self.out][1]))
        return out

    def expected(self, a, b, sa, sb, bias=None) -> np.ndarray:
        fp8 = FP8[self.fp8][1]
        out = torch._scaled_mm(a.to(fp8), b.to(fp8), sa, sb, bias=bias, out_dtype=OUT[self.out][1])
        return out.float().numpy()


CASES = [
    Case("tensorwise_bf16", 16, 32, 16),
    Case("tensorwise_f32", 16, 16, 32, out="f32"),
    Case("tensorwise_f16_e5m2", 32, 16, 16, fp8="f8E5M2", out="f16"),
    Case("rowwise_bf16", 8, 64, 16, rowwise=True),
    Case("bias_bf16", 16, 32, 16, bias=True),
    Case("rowwise_dynamic_m", 5, 32, 16, rowwise=True, dynamic_m=True, out="f16"),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("tensorwise_bf16", "rowwise_dynamic_m")]


compile_cases = partial(compile_case_module, fixes=PASS)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("scaled_mm"))


def test_stock_fails_on_scaled_mm(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    # The op stays unconverted with its operands; which constant the error names depends on the order.
    assert not res.ok and any("failed to legalize operation 'torch.constant." in m for m in res.messages), res.messages


def to_numpy(t: torch.Tensor) -> np.ndarray:
    import ml_dtypes

    return t.float().numpy().astype(ml_dtypes.bfloat16) if t.dtype == torch.bfloat16 else t.numpy()


def check(case, vmfb):
    inputs = case.inputs()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [to_numpy(t) for t in inputs])
    want = case.expected(*inputs)
    np.testing.assert_allclose(out.astype(np.float32), want, rtol=OUT[case.out][2], atol=1e-6)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_scaled_mm_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_scaled_mm_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

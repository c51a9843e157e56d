"""torch-clamp-convert-input end to end: clamps whose input torch promotes, compiled with the fix, equal torch's.

Stock IREE fails each function here (its lowering compares the input
unconverted: ``arith.cmpf`` on an integer, or a compare of two types); with
``--fixes=torch-clamp-convert-input`` each compiles for llvm-cpu and equals
torch's ``clamp``, ``clamp_min`` or ``clamp_max`` of the same operands, dtype
and values: torch-mlir's ``ElementwiseClampIntToFloatModule_basic`` (si64 by
[-2.5, 2.5]), si32, ui8 (over its whole range: a sign-extended 200 would clamp
to the bound) and bool inputs by float bounds, a bool by an int bound (si64),
and tensor bounds: si64 by f32 (``clamp.Tensor``, ``clamp_min.Tensor``), f16 by
f32, si32 by si64.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, random_array, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-clamp-convert-input"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    op: str  # clamp, clamp_min, clamp_max (scalar bounds) or clamp.Tensor, clamp_min.Tensor
    dtype: str
    shape: tuple
    bounds: list  # each a number, a (shape, dtype) tensor bound, or None
    result: str
    dynamic: bool = False

    def function(self) -> str:
        sizes = [None if self.dynamic else s for s in self.shape]
        x, r = vtensor(sizes, self.dtype), vtensor(sizes, self.result)
        args, types, lines, operands = [f"%x: {x}"], [x], [], []
        for i, b in enumerate(self.bounds):
            if b is None:
                lines.append(f"  %b{i} = torch.constant.none")
                types.append("!torch.none")
            elif isinstance(b, tuple):
                args.append(f"%b{i}: {vtensor(*b)}")
                types.append(vtensor(*b))
            else:
                kind = "float" if isinstance(b, float) else "int"
                lines.append(f"  %b{i} = torch.constant.{kind} {b}")
                types.append(f"!torch.{kind}")
            operands.append(f"%b{i}")
        call = f"  %r = torch.aten.{self.op} %x, {', '.join(operands)} : {', '.join(types)} -> {r}"
        return "\n".join(
            [f"func.func @{self.name}({', '.join(args)}) -> {r} {{", *lines, call, f"  return %r : {r}", "}"]
        )

    def inputs(self, rng) -> list:
        """x over its dtype's range (integers in [-6, 6] but for ui8 and bool; floats normal * 3), tensor
        bounds normal."""
        if self.dtype in ("ui8", "i1"):
            x = random_array(rng, self.shape, self.dtype)
        elif self.dtype.startswith("f"):
            x = (rng.standard_normal(self.shape) * 3).astype(NUMPY[self.dtype])
        else:
            x = rng.integers(-6, 7, self.shape).astype(NUMPY[self.dtype])
        return [x, *(random_array(rng, *b) for b in self.bounds if isinstance(b, tuple))]

    def expected(self, inputs) -> np.ndarray:
        x, *tensors = (torch.from_numpy(a) for a in inputs)
        bounds = [tensors.pop(0) if isinstance(b, tuple) else b for b in self.bounds]
        return getattr(torch, self.op.split(".")[0])(x, *bounds).numpy()


CASES = [
    Case("clamp_int_to_float", "clamp", "si64", (3, 5), [-2.5, 2.5], "f32", dynamic=True),
    Case("clamp_min_ui8", "clamp_min", "ui8", (4, 8), [-0.5], "f32"),
    Case("clamp_tensor_si64_f32", "clamp.Tensor", "si64", (3, 5), [((1, 5), "f32"), None], "f32"),
    Case("clamp_min_si32", "clamp_min", "si32", (6,), [1.5], "f32"),
    Case("clamp_max_bool", "clamp_max", "i1", (6,), [0.5], "f32"),
    Case("clamp_bool_by_int", "clamp", "i1", (6,), [0, None], "si64"),
    Case("clamp_min_tensor", "clamp_min.Tensor", "si64", (2, 4), [((1,), "f32")], "f32", dynamic=True),
    Case("clamp_tensor_f16_f32", "clamp.Tensor", "f16", (2, 3), [((2, 3), "f32"), ((2, 3), "f32")], "f32"),
    Case("clamp_tensor_si32_si64", "clamp.Tensor", "si32", (5,), [None, ((5,), "si64")], "si64"),
]

# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("clamp_int_to_float", "clamp_min_ui8", "clamp_tensor_si64_f32")]


compile_cases = partial(compile_case_module, fixes=PASS)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("clamp"))


def test_stock_fails_on_int_clamped_by_float(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("arith.cmpf" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    inputs = case.inputs(np.random.default_rng(len(case.name)))
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, inputs)
    want = case.expected(inputs)
    assert out.dtype == want.dtype and out.shape == want.shape and np.array_equal(out, want), (inputs, out, want)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_clamp_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

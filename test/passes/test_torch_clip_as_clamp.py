"""torch-clip-as-clamp end to end: torch.clip compiled with the fix equals torch's.

Stock IREE fails every ``torch.aten.clip`` (it imports as ``torch.operator``);
with ``--fixes=torch-clip-as-clamp`` each function here compiles for llvm-cpu
and equals ``torch.clip`` of the same operands: a lower bound alone (an int,
as torch-mlir's ``IouOfModule_basic`` clips), both float bounds, tensor bounds
(``clip.Tensor``, broadcast, one left out), dynamic sizes. Under --runslow an
integer clipped by float bounds, which also needs torch-clamp-convert-input
(--fixes runs it after this pass).
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, random_array, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-clip-as-clamp"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    dtype: str
    shape: tuple
    lo: object  # a number, a (shape, dtype) tensor bound, or None
    hi: object
    result: str
    dynamic: bool = False

    def bounds(self):
        return [b for b in (self.lo, self.hi) if isinstance(b, tuple)]

    def function(self) -> str:
        x = vtensor([None if self.dynamic else s for s in self.shape], self.dtype)
        r = vtensor([None if self.dynamic else s for s in self.shape], self.result)
        args, types, lines, operands = [f"%x: {x}"], [x], [], []
        tensor_form = bool(self.bounds())
        for i, b in enumerate((self.lo, self.hi)):
            if b is None:
                lines.append(f"  %b{i} = torch.constant.none")
                types.append("!torch.none")
            elif isinstance(b, tuple):
                t = vtensor(b[0], b[1])
                args.append(f"%b{i}: {t}")
                types.append(t)
            else:
                kind = "float" if isinstance(b, float) else "int"
                lines.append(f"  %b{i} = torch.constant.{kind} {b}")
                types.append(f"!torch.{kind}")
            operands.append(f"%b{i}")
        name = "torch.aten.clip.Tensor" if tensor_form else "torch.aten.clip"
        call = f'  %r = torch.operator "{name}"(%x, {", ".join(operands)}) : ({", ".join(types)}) -> {r}'
        return "\n".join(
            [f"func.func @{self.name}({', '.join(args)}) -> {r} {{", *lines, call, f"  return %r : {r}", "}"]
        )

    def inputs(self, rng) -> list:
        """x spread over the bounds (normal * 3, or integers in [-6, 6]); tensor bounds normal."""
        spread = rng.standard_normal(self.shape) * 3 if self.dtype == "f32" else rng.integers(-6, 7, self.shape)
        return [spread.astype(NUMPY[self.dtype]), *(random_array(rng, s, d) for s, d in self.bounds())]

    def expected(self, inputs) -> np.ndarray:
        x, *tensors = (torch.from_numpy(a) for a in inputs)
        lo = tensors.pop(0) if isinstance(self.lo, tuple) else self.lo
        hi = tensors.pop(0) if isinstance(self.hi, tuple) else self.hi
        return torch.clip(x, lo, hi).numpy()


CASES = [
    Case("clip_min_int", "f32", (5, 2), 0, None, "f32", dynamic=True),
    Case("clip_float_bounds", "f32", (3, 4), -0.5, 1.25, "f32"),
    Case("clip_tensor_max", "f32", (3, 4), None, ((1, 4), "f32"), "f32"),
    Case("clip_tensor_both", "f32", (2, 3), ((2, 1), "f32"), ((1, 3), "f32"), "f32", dynamic=True),
    Case("clip_int_by_floats", "si64", (3, 5), -2.5, 2.5, "f32"),
]

# The default run compiles these; --runslow compiles every case (with torch-clamp-convert-input).
SAMPLE = [c for c in CASES if c.name in ("clip_min_int", "clip_float_bounds", "clip_tensor_max")]


compile_cases = partial(compile_case_module, fixes=PASS)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("clip"))


def test_stock_fails_on_clip(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("torch.aten.clip" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    inputs = case.inputs(np.random.default_rng(len(case.name)))
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, inputs)
    want = case.expected(inputs)
    assert out.dtype == want.dtype and out.shape == want.shape and np.array_equal(out, want), (inputs, out, want)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_clip_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path, fixes=f"{PASS},torch-clamp-convert-input")
    for case in CASES:
        check(case, vmfb)

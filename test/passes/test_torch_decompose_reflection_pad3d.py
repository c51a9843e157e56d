"""torch-decompose-reflection-pad3d end to end: 3-d reflection pads compiled with the fix equal torch's.

Stock IREE has no lowering for ``aten.reflection_pad3d`` (nor for ``aten.pad``
"reflect" over three dims, which its frontend turns into one); with
``--fixes=torch-decompose-reflection-pad3d`` each function here compiles for
llvm-cpu and equals ``F.pad(x, pads, mode="reflect")`` exactly: rank 4 and 5,
each side alone and all together, pads up to size - 1, dynamic sizes, f32 and
si64. All cases are functions of one module compiled once.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_case_module, random_array, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-reflection-pad3d"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    shape: tuple
    pads: tuple  # (w_left, w_right, h_top, h_bottom, d_front, d_back), as torch takes them
    dtype: str = "f32"
    dynamic: tuple = ()  # dims typed '?'
    via_pad: bool = False  # aten.pad(mode="reflect") rather than aten.reflection_pad3d

    def padded(self) -> list:
        out = list(self.shape)
        for i, (a, b) in enumerate(zip(self.pads[0::2], self.pads[1::2])):
            out[-1 - i] += a + b
        return out

    def function(self) -> str:
        xt = vtensor([None if d in self.dynamic else s for d, s in enumerate(self.shape)], self.dtype)
        rt = vtensor([None if d in self.dynamic else s for d, s in enumerate(self.padded())], self.dtype)
        ints = "\n".join(f"  %p{i} = torch.constant.int {p}" for i, p in enumerate(self.pads))
        names = ", ".join(f"%p{i}" for i in range(6))
        lines = [
            f"func.func @{self.name}(%x: {xt}) -> {rt} {{",
            ints,
            f"  %l = torch.prim.ListConstruct {names} : ({', '.join(['!torch.int'] * 6)}) -> !torch.list<int>",
        ]
        if self.via_pad:
            lines += [
                '  %mode = torch.constant.str "reflect"',
                "  %none = torch.constant.none",
                f"  %r = torch.aten.pad %x, %l, %mode, %none : {xt}, !torch.list<int>, !torch.str, !torch.none -> {rt}",
            ]
        else:
            lines.append(f"  %r = torch.aten.reflection_pad3d %x, %l : {xt}, !torch.list<int> -> {rt}")
        return "\n".join([*lines, f"  return %r : {rt}", "}"])

    def input(self) -> np.ndarray:
        return random_array(np.random.default_rng(len(self.name)), self.shape, self.dtype)

    def expected(self, x: np.ndarray) -> np.ndarray:
        """torch's reflect pad of the element positions (exact in f64), read from ``x``: its semantics for
        any dtype (torch pads floats only)."""
        where = torch.arange(x.size, dtype=torch.float64).reshape(x.shape)
        picked = torch.nn.functional.pad(where, self.pads, mode="reflect").long().numpy()
        return x.reshape(-1)[picked]


CASES = [
    Case("all_sides", (1, 2, 4, 5, 6), (1, 2, 3, 1, 2, 3)),
    Case("width_only", (1, 3, 4, 5, 6), (5, 0, 0, 0, 0, 0)),
    Case("height_only", (2, 1, 3, 4, 5), (0, 0, 0, 3, 0, 0)),
    Case("depth_only", (1, 1, 4, 2, 3), (0, 0, 0, 0, 3, 3)),
    Case("rank_four", (3, 4, 5, 6), (2, 2, 1, 1, 1, 2)),
    Case("ints", (1, 2, 3, 3, 3), (1, 1, 2, 2, 1, 1), dtype="si64"),
    Case("dynamic", (2, 3, 4, 5, 6), (1, 2, 2, 1, 3, 0), dynamic=(0, 2, 4)),
    Case("pad_reflect", (1, 2, 4, 5, 6), (1, 1, 1, 1, 1, 1), via_pad=True, dynamic=(3,)),
]

# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("all_sides", "pad_reflect")]


compile_cases = partial(compile_case_module, fixes=PASS)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("pad3d"))


def test_stock_fails_on_reflection_pad3d(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("torch.constant.int" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    x = case.input()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [x])
    want = case.expected(x)
    assert out.shape == want.shape and np.array_equal(out.view(NUMPY[case.dtype]), want), (out, want)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_reflection_pad_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_reflection_pad_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

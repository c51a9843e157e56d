"""torch-decompose-meshgrid end to end: unpacked torch.meshgrid programs compiled with the fix equal torch.meshgrid.

Stock IREE fails every unpacked meshgrid (its frontend recomposes it into
untyped ``!torch.tensor`` ops); with ``--fixes=torch-decompose-meshgrid`` each
function here compiles for llvm-cpu and returns exactly ``torch.meshgrid`` of
its inputs: "ij" and "xy", two and three inputs, static and dynamic sizes, a
0-d input, integer and float dtypes. All cases are functions of one module
compiled once.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import NUMPY, Operand, compile_case_module, random_array, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-decompose-meshgrid"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    """``torch.meshgrid(*inputs, indexing=indexing)`` unpacked; ``indexing`` None for the default op."""

    name: str
    inputs: list
    indexing: str | None

    def grid_sizes(self) -> list:
        sizes = [op.sizes[0] if op.sizes else 1 for op in self.inputs]
        if self.indexing == "xy" and len(sizes) > 1:
            sizes[0], sizes[1] = sizes[1], sizes[0]
        return sizes

    def function(self) -> str:
        args = ", ".join(f"%a{i}: {op.type}" for i, op in enumerate(self.inputs))
        types = ", ".join(op.type for op in self.inputs)
        grid = vtensor(self.grid_sizes(), self.inputs[0].dtype)
        grids = ", ".join([grid] * len(self.inputs))
        names = ", ".join(f"%a{i}" for i in range(len(self.inputs)))
        if self.indexing is None:
            call = "  %g = torch.aten.meshgrid %l : !torch.list<vtensor> -> !torch.list<vtensor>"
        else:
            call = (
                f'  %s = torch.constant.str "{self.indexing}"\n'
                "  %g = torch.aten.meshgrid.indexing %l, %s : !torch.list<vtensor>, !torch.str -> !torch.list<vtensor>"
            )
        n = len(self.inputs)
        return "\n".join(
            [
                f"func.func @{self.name}({args}) -> ({grids}) {{",
                f"  %l = torch.prim.ListConstruct {names} : ({types}) -> !torch.list<vtensor>",
                call,
                f"  %r:{n} = torch.prim.ListUnpack %g : !torch.list<vtensor> -> {grids}",
                f"  return {', '.join(f'%r#{i}' for i in range(n))} : {grids}",
                "}",
            ]
        )

    def expected(self) -> list:
        tensors = [torch.from_numpy(op.array) for op in self.inputs]
        return [g.numpy() for g in torch.meshgrid(*tensors, indexing=self.indexing or "ij")]


def operand(rng, size, dtype, dynamic=False) -> Operand:
    shape = [] if size is None else [size]
    sizes = [] if size is None else [None if dynamic else size]
    return Operand(sizes, dtype, random_array(rng, shape, dtype))


def cases() -> list[Case]:
    rng = np.random.default_rng(11)
    return [
        Case("ij_default", [operand(rng, 3, "si64"), operand(rng, 4, "si64")], None),
        Case("ij_three_f32", [operand(rng, 2, "f32"), operand(rng, 5, "f32"), operand(rng, 3, "f32")], "ij"),
        Case("xy_two", [operand(rng, 3, "f32"), operand(rng, 4, "f32")], "xy"),
        Case("xy_three_si32", [operand(rng, 3, "si32"), operand(rng, 4, "si32"), operand(rng, 5, "si32")], "xy"),
        Case("dynamic_ij", [operand(rng, 6, "f32", True), operand(rng, 7, "f32", True)], "ij"),
        Case("dynamic_xy", [operand(rng, 6, "f16", True), operand(rng, 2, "f16")], "xy"),
        Case("zero_d", [operand(rng, None, "f32"), operand(rng, 4, "f32")], "ij"),
        Case("single", [operand(rng, 5, "si64")], "xy"),
    ]


CASES = cases()

# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("ij_default", "xy_three_si32", "dynamic_ij")]


compile_cases = partial(compile_case_module, fixes=PASS)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("meshgrid"))


def test_stock_fails_on_meshgrid(tmp_path):
    res = stock_compile(CASES[:1], tmp_path)
    assert not res.ok and any("!torch.tensor" in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    outs = e2e.run_runtime(vmfb, CPU, case.name, [op.array for op in case.inputs])
    want = case.expected()
    assert len(outs) == len(want)
    for got, w in zip(outs, want):
        assert got.shape == w.shape and np.array_equal(got.view(NUMPY[case.inputs[0].dtype]), w), (got, w)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_meshgrid_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_meshgrid_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

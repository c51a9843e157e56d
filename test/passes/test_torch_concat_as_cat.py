"""torch-concat-as-cat end to end: random torch.concat programs compiled for llvm-cpu equal numpy.

Stock IREE cannot compile ``torch.operator "torch.aten.concat"``; with the pass
applied to the module as parsed, every program compiles and each function
equals ``np.concatenate`` of the parts converted to ``torch.promote_types`` of
theirs: ``torch.concat`` and ``torch.concatenate`` are ``torch.cat``, which
promotes so (the pairs below are torch 2.13's answers, as in
test_torch_decompose_diff.py). Every part has at least one element: a
concatenation of only empty parts fails torch-mlir's ``cat`` itself, written
either way.

All cases are functions of one module compiled once.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections
from opt_py.patterns.torch_ir import promote
from torch_e2e import NUMPY, random_array, vtensor

PASS = "torch-concat-as-cat"
CPU = e2e.TARGETS["cpu"]
SAME = ["f32", "si64", "i1", "f16", "bf16"]
MIXED = [("ui8", "si8"), ("si32", "si64"), ("i1", "si32"), ("f16", "bf16"), ("si64", "f32"), ("f16", "f32")]


@dataclass
class Case:
    """``concat([parts], dim)`` (or ``concatenate``) with each part's static sizes (None for '?')."""

    name: str
    op: str
    dim: int
    parts: list  # (array, sizes, dtype)

    @property
    def dtype(self) -> str:
        out = self.parts[0][2]
        for _, _, d in self.parts[1:]:
            out = promote(out, d)
        return out

    def result_sizes(self) -> list:
        rank = self.parts[0][0].ndim
        sizes = []
        for axis in range(rank):
            column = [s[axis] for _, s, _ in self.parts]
            if axis == self.dim % rank:
                sizes.append(None if None in column else sum(column))
            else:
                sizes.append(next((s for s in column if s is not None), None))
        return sizes

    def function(self) -> str:
        types = [vtensor(s, d) for _, s, d in self.parts]
        rt = vtensor(self.result_sizes(), self.dtype)
        args = ", ".join(f"%p{i}: {t}" for i, t in enumerate(types))
        names = ", ".join(f"%p{i}" for i in range(len(types)))
        return "\n".join(
            [
                f"func.func @{self.name}({args}) -> {rt} {{",
                f"  %dim = torch.constant.int {self.dim}",
                f"  %l = torch.prim.ListConstruct {names} : ({', '.join(types)}) -> !torch.list<vtensor>",
                f'  %r = torch.operator "{self.op}"(%l, %dim) : (!torch.list<vtensor>, !torch.int) -> {rt}',
                f"  return %r : {rt}",
                "}",
            ]
        )

    def expected(self) -> np.ndarray:
        return np.concatenate([a.astype(NUMPY[self.dtype]) for a, _, _ in self.parts], axis=self.dim)


def random_case(rng, index: int) -> Case:
    """Rank 1-3, any dim, 1-3 parts of lengths 1-4 along it, each size dynamic 40% of the time, a third mixed."""
    rank = int(rng.integers(1, 4))
    dim = int(rng.integers(-rank, rank))
    shape = [int(rng.integers(1, 4)) for _ in range(rank)]
    count = int(rng.integers(1, 4))
    first, other = MIXED[int(rng.integers(len(MIXED)))] if rng.random() < 0.35 else (str(rng.choice(SAME)),) * 2
    parts = []
    for p in range(count):
        s = list(shape)
        s[dim] = int(rng.integers(1, 5))
        dtype = first if p == 0 else other
        parts.append((random_array(rng, s, dtype), [None if rng.random() < 0.4 else d for d in s], dtype))
    op = "torch.aten.concat" if rng.random() < 0.7 else "torch.aten.concatenate"
    return Case(f"case{index}", op, dim, parts)


def router_case(rng) -> Case:
    """PhiMoE's sparsemixer: torch.concat of two [tokens, 1] tensors along -1, a dynamic token count."""
    a, b = (rng.standard_normal((5, 1)).astype(np.float32) for _ in range(2))
    return Case("router", "torch.aten.concat", -1, [(a, [None, 1], "f32"), (b, [None, 1], "f32")])


def cases() -> list[Case]:
    rng = np.random.default_rng(2031)
    return [router_case(rng), *(random_case(rng, i) for i in range(25))]


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    path = tmp_path_factory.mktemp("concat") / "fixed.mlir"
    path.write_text(run_pipeline(program(CASES), PASS))
    return e2e.compile_program(str(path), CPU)


@pytest.mark.parametrize("pair", MIXED, ids=lambda p: f"{p[0]}-{p[1]}")
def test_the_pattern_promotes_as_torch(pair):
    """torch.promote_types of each mixed pair used here, as torch 2.13 answers."""
    torch_answers = {
        ("ui8", "si8"): "si16",
        ("si32", "si64"): "si64",
        ("i1", "si32"): "si32",
        ("f16", "bf16"): "f32",
        ("si64", "f32"): "f32",
        ("f16", "f32"): "f32",
    }
    assert promote(*pair) == promote(*reversed(pair)) == torch_answers[pair]


def test_stock_fails_on_concat(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[:1]))
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("torch.aten.concat" in m for m in res.messages), res.messages[-3:]


def test_the_pass_rewrites_every_case():
    fixed = run_pipeline(program(CASES), PASS)
    assert "torch.aten.concat" not in fixed


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{c.op.rsplit('.', 1)[1]}-dim{c.dim}-{c.dtype}")
def test_concat_matches_numpy(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [a for a, _, _ in case.parts])
    want = case.expected()
    assert out.shape == want.shape and out.dtype == want.dtype, (out.shape, out.dtype, want.dtype)
    assert np.array_equal(out.astype(np.float64), want.astype(np.float64)), (out, want)

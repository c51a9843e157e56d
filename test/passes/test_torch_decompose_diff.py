"""torch-decompose-diff end to end: random torch.diff programs compiled for llvm-cpu equal numpy.

Stock IREE cannot compile ``torch.operator "torch.aten.diff"``; with the pass
applied to the module as parsed, every program compiles and each function
equals ``np.diff``. numpy's ``np.diff`` has ``torch.diff``'s semantics, checked
against torch 2.13 (CPU) before writing this test: 240 random cases (bool,
ui8, si8-si64, f16, bf16 through ml_dtypes, f32, f64; ranks 1-4; sizes 0-4;
n 0-6; negative and positive dims; prepend/append absent or present) gave
equal values, shapes and dtypes: bool differences are xor (``!=``), n = 0
returns the input and ignores prepend and append, n at or past the length
gives an empty result, f16 and bf16 round each step. With parts of different
dtypes torch computes in ``torch.promote_types`` of them: equal to ``np.diff``
of the parts converted to that dtype first (all 90 ordered pairs of those
dtypes); ``PROMOTED`` lists the pairs used here as torch promotes them. No
integer part with a bf16 one: IREE 3.13's llvm-cpu cannot convert an integer
to bf16 at all (``undefined symbol: __truncsfbf2`` at link, stock alike).

All cases are functions of one module compiled once (a compile per case
would cost minutes).
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections
from opt_py.patterns.torch_ir import promote
from torch_e2e import NUMPY, Operand, compile_fixed, random_array, vtensor

PASS = "torch-decompose-diff"
CPU = e2e.TARGETS["cpu"]
SAME = ["i1", "si32", "si64", "f32", "f16", "bf16"]
# (input dtype, prepend/append dtype, torch.promote_types of them), as torch 2.13 answers.
PROMOTED = [
    ("si32", "si64", "si64"),
    ("i1", "si32", "si32"),
    ("ui8", "si8", "si16"),
    ("ui8", "si32", "si32"),
    ("si64", "f32", "f32"),
    ("f16", "bf16", "f32"),
    ("i1", "f16", "f16"),
    ("bf16", "f32", "f32"),
    ("si8", "si16", "si16"),
]


@dataclass
class Case:
    """``diff(x, n, dim, prepend, append)`` as torch exports it, with the arrays to run it on."""

    name: str
    n: int
    dim: int
    x: Operand
    prepend: Operand | None = None
    append: Operand | None = None

    @property
    def parts(self) -> list[Operand]:
        return [p for p in (self.prepend, self.x, self.append) if p is not None]

    def result(self) -> tuple[list, str]:
        """The sizes and dtype torch gives the result: the input's for n = 0; else the promoted dtype,
        the sizes off dim the parts' (static where any is), along dim the length less n, at least 0."""
        if self.n == 0:
            return self.x.sizes, self.x.dtype
        dtype = self.x.dtype
        for p in self.parts:
            dtype = promote(dtype, p.dtype)
        sizes = []
        for axis in range(len(self.x.sizes)):
            column = [p.sizes[axis] for p in self.parts]
            if axis == self.dim % len(self.x.sizes):
                sizes.append(None if None in column else max(sum(column) - self.n, 0))
            else:
                sizes.append(next((s for s in column if s is not None), None))
        return sizes, dtype

    def function(self) -> str:
        result = vtensor(*self.result())
        named = [(name, p) for name, p in (("x", self.x), ("prepend", self.prepend), ("append", self.append)) if p]
        args = ", ".join(f"%{name}: {p.type}" for name, p in named)
        operands = ["%x", "%n", "%dim", *(f"%{name}" if p else "%none" for name, p in named_optional(self))]
        types = [
            self.x.type,
            "!torch.int",
            "!torch.int",
            *(p.type if p else "!torch.none" for _, p in named_optional(self)),
        ]
        return "\n".join(
            [
                f"func.func @{self.name}({args}) -> {result} {{",
                f"  %n = torch.constant.int {self.n}",
                f"  %dim = torch.constant.int {self.dim}",
                "  %none = torch.constant.none",
                f'  %r = torch.operator "torch.aten.diff"({", ".join(operands)}) : ({", ".join(types)}) -> {result}',
                f"  return %r : {result}",
                "}",
            ]
        )

    def inputs(self) -> list[np.ndarray]:
        return [p.array for p in (self.x, self.prepend, self.append) if p is not None]

    def expected(self) -> np.ndarray:
        if self.n == 0:
            return self.x.array
        dtype = NUMPY[self.result()[1]]
        extra = {name: p.array.astype(dtype) for name, p in named_optional(self) if p}
        return np.diff(self.x.array.astype(dtype), n=self.n, axis=self.dim, **extra)


def named_optional(case: Case):
    return [("prepend", case.prepend), ("append", case.append)]


def random_case(rng, index: int) -> Case:
    """Rank 1-4, any dim, n in 0-6, prepend/append each present half the time (sizes 0-2 along dim),
    each size dynamic 40% of the time, one case in three of mixed dtypes."""
    rank = int(rng.integers(1, 5))
    dim = int(rng.integers(-rank, rank))
    n = int(rng.choice([0, 1, 1, 1, 2, 3, 6]))
    shape = [int(rng.integers(1, 5)) for _ in range(rank)]
    shape[dim] = int(rng.integers(0, 6))
    x_dtype, other, _ = PROMOTED[int(rng.integers(len(PROMOTED)))] if rng.random() < 0.3 else (rng.choice(SAME),) * 3

    def part(dtype, length=None):
        s = list(shape)
        if length is not None:
            s[dim] = length
        return Operand([None if rng.random() < 0.4 else d for d in s], dtype, random_array(rng, s, dtype))

    x = part(x_dtype)
    prepend = part(other, int(rng.integers(0, 3))) if rng.random() < 0.5 else None
    append = part(other, int(rng.integers(0, 3))) if rng.random() < 0.5 else None
    return Case(f"case{index}", n, dim, x, prepend, append)


def transformers_case() -> Case:
    """transformers' masking_utils: diff(position_ids, prepend=position_ids[:, :1] - 1, dim=-1), dynamic length."""
    ids = np.broadcast_to(np.arange(7, dtype=np.int64), (2, 7)).copy()
    ids[1, 4:] = np.arange(3)  # a packed second sequence: the diff marks where it starts
    return Case("transformers_mask", 1, -1, Operand([2, None], "si64", ids), Operand([2, 1], "si64", ids[:, :1] - 1))


def long_case(rng) -> Case:
    """A length past the vector width, n = 2, both ends: the vectorized code, not only the remainders."""
    x = Operand([3, None], "f32", random_array(rng, (3, 257), "f32"))
    return Case(
        "long",
        2,
        1,
        x,
        Operand([3, 2], "f32", random_array(rng, (3, 2), "f32")),
        Operand([3, None], "f32", random_array(rng, (3, 5), "f32")),
    )


def cases() -> list[Case]:
    rng = np.random.default_rng(2024)
    return [transformers_case(), long_case(rng), *(random_case(rng, i) for i in range(34))]


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_fixed(program(CASES), tmp_path_factory.mktemp("diff"), PASS)


@pytest.mark.parametrize("row", PROMOTED, ids=lambda r: f"{r[0]}-{r[1]}")
def test_the_pattern_promotes_as_torch(row):
    """The pattern's dtype check (``torch_ir.promote``) gives torch's answer for each pair used here."""
    a, b, promoted = row
    assert promote(a, b) == promote(b, a) == promoted


def test_stock_fails_on_diff(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[:1]))
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("torch.aten.diff" in m for m in res.messages), res.messages[-3:]


def test_the_pass_rewrites_every_case():
    assert "torch.aten.diff" not in run_pipeline(program(CASES), PASS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-n{c.n}-dim{c.dim}-{vtensor(*c.result())}")
def test_diff_matches_numpy(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, case.inputs())
    want = case.expected()
    assert out.shape == want.shape and out.dtype == want.dtype, (out.shape, out.dtype, want.shape, want.dtype)
    assert np.array_equal(out.astype(np.float64), want.astype(np.float64), equal_nan=True), (out, want)

"""torch-and-to-bitwise-and end to end: random ``a & b`` programs compiled for llvm-cpu equal numpy.

Stock IREE cannot lower ``torch.aten.__and__.Tensor``; with the pass applied
to the module as parsed, every program compiles and each function equals
``np.bitwise_and`` of both operands converted to the result dtype. That is
torch's ``&``, checked against torch 2.13 (CPU) before writing this test:
for every row of ``RESULT_TYPE`` (bool and integer dtypes, 0-d operands,
mixed dtypes), ``a & b`` equals ``bitwise_and(a.to(r), b.to(r))`` and numpy's
the same, with ``r = torch.result_type(a, b)`` as the table gives it
(integers converted as C casts: a 0-d si64 truncated to ui8 wraps).

All cases are functions of one module compiled once.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections
from opt_py.patterns.torch_ir import VTensor, result_type
from torch_e2e import NUMPY, Operand, compile_fixed, random_array, vtensor

PASS = "torch-and-to-bitwise-and"
CPU = e2e.TARGETS["cpu"]
# (a dtype, a rank, b dtype, b rank, the dtype of a & b), as torch 2.13 answers.
RESULT_TYPE = [
    ("i1", 2, "i1", 2, "i1"),
    ("i1", 2, "i1", 0, "i1"),
    ("ui8", 1, "si32", 1, "si32"),
    ("ui8", 2, "si8", 2, "si16"),
    ("i1", 1, "si8", 1, "si8"),
    ("si32", 1, "si64", 0, "si32"),
    ("i1", 2, "si64", 0, "si64"),
    ("ui8", 1, "si64", 0, "ui8"),
    ("si16", 0, "si8", 0, "si16"),
    ("si64", 3, "si32", 3, "si64"),
    ("i1", 0, "ui8", 2, "ui8"),
    ("si8", 2, "ui8", 0, "si8"),
    ("si32", 2, "i1", 2, "si32"),
    ("ui8", 0, "i1", 1, "ui8"),
    ("si16", 2, "ui8", 2, "si16"),
]


@dataclass
class Case:
    """``a & b`` typed ``result_dtype`` (torch's)."""

    name: str
    a: Operand
    b: Operand
    result_dtype: str

    def result_sizes(self) -> list:
        """Broadcast sizes: a static size other than 1 wherever an operand has one, else 1 where all
        are 1, else dynamic."""
        rank = max(len(self.a.sizes), len(self.b.sizes))
        pad = [[1] * (rank - len(s)) + list(s) for s in (self.a.sizes, self.b.sizes)]
        out = []
        for column in zip(*pad):
            static = [s for s in column if s not in (None, 1)]
            out.append(static[0] if static else (1 if None not in column else None))
        return out

    def function(self) -> str:
        a, b, r = self.a.type, self.b.type, vtensor(self.result_sizes(), self.result_dtype)
        return "\n".join(
            [
                f"func.func @{self.name}(%a: {a}, %b: {b}) -> {r} {{",
                f"  %r = torch.aten.__and__.Tensor %a, %b : {a}, {b} -> {r}",
                f"  return %r : {r}",
                "}",
            ]
        )

    def expected(self) -> np.ndarray:
        dtype = NUMPY[self.result_dtype]
        return np.bitwise_and(self.a.array.astype(dtype), self.b.array.astype(dtype))


def random_case(rng, index: int, row) -> Case:
    """One row of ``RESULT_TYPE`` with random sizes 2-5: an operand dim is the result's or a static 1
    (torch-mlir assumes a dynamic dim does not broadcast), the result's static or dynamic half the time."""
    a_dtype, a_rank, b_dtype, b_rank, dtype = row
    rank = max(a_rank, b_rank)
    full = [int(rng.integers(2, 6)) for _ in range(rank)]

    def operand(r, operand_dtype):
        shape = [1 if rng.random() < 0.25 else s for s in full[rank - r :]]
        sizes = [s if s == 1 or rng.random() < 0.5 else None for s in shape]
        return Operand(sizes, operand_dtype, random_array(rng, shape, operand_dtype))

    return Case(f"case{index}", operand(a_rank, a_dtype), operand(b_rank, b_dtype), dtype)


def cases() -> list[Case]:
    rng = np.random.default_rng(7)
    return [random_case(rng, 2 * i + k, row) for i, row in enumerate(RESULT_TYPE) for k in range(2)]


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_fixed(program(CASES), tmp_path_factory.mktemp("and"), PASS)


@pytest.mark.parametrize("row", RESULT_TYPE, ids=lambda r: f"{r[0]}{r[1]}d-{r[2]}{r[3]}d")
def test_the_pattern_promotes_as_torch(row):
    """The pattern's check (``torch_ir.result_type``) gives torch's answer for each row."""
    a_dtype, a_rank, b_dtype, b_rank, dtype = row
    assert result_type([VTensor((2,) * a_rank, a_dtype), VTensor((2,) * b_rank, b_dtype)]) == dtype


def test_stock_fails_on_and(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[:1]))
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("torch.aten.__and__.Tensor" in m for m in res.messages), res.messages[-3:]


def test_the_pass_rewrites_every_case():
    assert "__and__" not in run_pipeline(program(CASES), PASS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{c.a.type}&{c.b.type}")
def test_and_matches_numpy(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [case.a.array, case.b.array])
    want = case.expected()
    assert out.shape == want.shape and out.dtype.itemsize == want.dtype.itemsize, (out.shape, out.dtype, want.dtype)
    got = out.view(want.dtype)  # the runtime's buffers are signless: a ui8 result comes back as int8
    assert np.array_equal(got, want), (got, want)

"""torch-topk-unsorted-as-sorted end to end: random ``topk(sorted=False)`` programs compiled for llvm-cpu.

Stock IREE cannot lower ``torch.aten.topk`` with ``sorted=False``; with the
pass applied to the module as parsed, every program compiles and each
function gives numpy's sorted top-k (values and indices). torch documents
the order of an unsorted top-k as unspecified, so the sorted answer is one
torch allows: as a set of (value, index) pairs it is torch's, and in order it
is what ``sorted=True`` gives. Values are distinct along each row (a
permutation), so the indices are determined; NaN and ties are the lowering's
business, not this pass's.

All cases are functions of one module compiled once.
"""

import re
from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections
from torch_e2e import NUMPY, compile_fixed, vtensor

PASS = "torch-topk-unsorted-as-sorted"
CPU = e2e.TARGETS["cpu"]
DTYPES = ["f32", "f16", "bf16", "si32", "si64"]


@dataclass
class Case:
    """``topk(x, k, dim, largest, sorted=False)`` with x's static sizes (None for '?') and runtime array."""

    name: str
    sizes: list
    dtype: str
    k: int
    dim: int
    largest: bool
    x: np.ndarray

    def function(self) -> str:
        x = vtensor(self.sizes, self.dtype)
        out = list(self.sizes)
        out[self.dim] = self.k
        v, i = vtensor(out, self.dtype), vtensor(out, "si64")
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {x}) -> ({v}, {i}) {{",
                f"  %k = torch.constant.int {self.k}",
                f"  %dim = torch.constant.int {self.dim}",
                f"  %largest = torch.constant.bool {str(self.largest).lower()}",
                "  %false = torch.constant.bool false",
                f"  %v, %i = torch.aten.topk %x, %k, %dim, %largest, %false : {x}, !torch.int, !torch.int, "
                f"!torch.bool, !torch.bool -> {v}, {i}",
                f"  return %v, %i : {v}, {i}",
                "}",
            ]
        )

    def expected(self):
        """Sorted top-k: descending for the largest, ascending for the smallest."""
        order = np.argsort(self.x.astype(np.float64), axis=self.dim, kind="stable")
        if self.largest:
            order = np.flip(order, axis=self.dim)
        idx = np.take(order, range(self.k), axis=self.dim)
        return np.take_along_axis(self.x, idx, axis=self.dim), idx.astype(np.int64)


def random_case(rng, index: int) -> Case:
    """Rank 1-3, sizes 1-6 (each dynamic 40% of the time), any dim, k from 1 to the length, largest
    or smallest; values a permutation (distinct, exact in every dtype here)."""
    rank = int(rng.integers(1, 4))
    shape = [int(rng.integers(1, 7)) for _ in range(rank)]
    dim = int(rng.integers(-rank, rank))
    dtype = str(rng.choice(DTYPES))
    x = (rng.permutation(int(np.prod(shape))) - 100).reshape(shape).astype(NUMPY[dtype])
    sizes = [None if rng.random() < 0.4 else s for s in shape]
    return Case(f"case{index}", sizes, dtype, int(rng.integers(1, shape[dim] + 1)), dim, bool(rng.random() < 0.7), x)


def router_case(rng) -> Case:
    """DeepSeek-V3's grouped routing: the top 4 of 8 group scores per token, a dynamic token count."""
    x = rng.permutation(40 * 8).reshape(40, 8).astype(np.float32) / 7
    return Case("grouped_router", [None, 8], "f32", 4, -1, True, x)


def cases() -> list[Case]:
    rng = np.random.default_rng(11)
    return [router_case(rng), *(random_case(rng, i) for i in range(29))]


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_fixed(program(CASES), tmp_path_factory.mktemp("topk"), PASS)


def test_stock_fails_on_unsorted_topk(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[:1]))
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("torch.constant.bool" in m for m in res.messages), res.messages[-3:]


def test_the_pass_rewrites_every_case():
    """Every topk's last operand (sorted) is now a true constant (printed as %true, %true_0, ...)."""
    sorted_operands = re.findall(
        r"torch\.aten\.topk %\S+, %\S+, %\S+, %\S+, (%\S+) :", run_pipeline(program(CASES), PASS)
    )
    assert len(sorted_operands) == len(CASES) and all(re.fullmatch(r"%true(_\d+)?", s) for s in sorted_operands)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{vtensor(c.sizes, c.dtype)}-k{c.k}-dim{c.dim}")
def test_topk_matches_numpy_sorted(case, vmfb):
    values, indices = e2e.run_runtime(vmfb, CPU, case.name, [case.x])
    want_values, want_indices = case.expected()
    np.testing.assert_array_equal(indices, want_indices)
    np.testing.assert_array_equal(values.astype(np.float64), want_values.astype(np.float64))

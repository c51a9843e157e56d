"""torch-argsort-stable-as-argsort end to end: random ``argsort.stable`` programs with ``--fixes`` on llvm-cpu.

Stock IREE cannot lower ``torch.aten.argsort.stable`` (torch 2.13's export
of ``torch.argsort(..., stable=True)``); with ``--fixes`` every program
compiles and each function's indices equal numpy's stable argsort (of -x
for descending: equal keys keep their order both ways, as torch's stable
sort does) exactly, on keys with many ties (-0.0 and +0.0 among them), for
``stable`` true and false, any dim (negative too), static and dynamic sizes.
The reference was checked against torch 2.13 (CPU) on the same inputs
before writing this test: ``torch.argsort(x, dim, descending, stable=True)``
equals it for every case. NaN is left out: its order is the lowering's, as
for ``aten.argsort`` stock compiles (docs/passes/torch-argsort-stable-as-argsort.md);
so is f64, whose inputs IREE's default f64-to-f32 demotion reads as f32 bytes.

All cases are functions of one module compiled once.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree import fixes as fix_table
from opt_py.iree.phases import compile_with_injections
from torch_e2e import NUMPY, vtensor

PASS = "torch-argsort-stable-as-argsort"
CPU = e2e.TARGETS["cpu"]
DTYPES = ["f32", "f16", "bf16", "si8", "si16", "si32", "si64"]


@dataclass
class Case:
    """``argsort.stable(x, stable, dim, descending)`` with x's static sizes (None for '?') and runtime array."""

    name: str
    sizes: list
    dtype: str
    dim: int
    descending: bool
    stable: bool
    x: np.ndarray

    def function(self) -> str:
        x, r = vtensor(self.sizes, self.dtype), vtensor(self.sizes, "si64")
        flag = {True: "%true", False: "%false"}
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {x}) -> {r} {{",
                "  %true = torch.constant.bool true",
                "  %false = torch.constant.bool false",
                f"  %dim = torch.constant.int {self.dim}",
                f'  %r = torch.operator "torch.aten.argsort.stable"(%x, {flag[self.stable]}, %dim, '
                f"{flag[self.descending]}) : ({x}, !torch.bool, !torch.int, !torch.bool) -> {r}",
                f"  return %r : {r}",
                "}",
            ]
        )

    def expected(self) -> np.ndarray:
        """Stable argsort: ascending, or of -x (in float64, exact for these keys) for descending."""
        keys = self.x.astype(np.float64)
        return np.argsort(-keys if self.descending else keys, axis=self.dim, kind="stable").astype(np.int64)


def random_keys(rng, shape, dtype) -> np.ndarray:
    """Keys with many ties: a few distinct values (both zeros for floats), or the integer range's ends."""
    if dtype.startswith("si"):
        info = np.iinfo(NUMPY[dtype])
        pool = np.array([info.min, -3, -1, 0, 0, 2, 7, info.max], dtype=np.int64)
    else:
        pool = np.array([-np.inf, -2.5, -1.0, -0.0, 0.0, 0.0, 1.5, 3.0, np.inf])
    return pool[rng.integers(0, len(pool), shape)].astype(NUMPY[dtype])


def random_case(rng, index: int) -> Case:
    """Rank 1-3, sizes 1-9 (one case has a row of 40), each size dynamic half the time."""
    rank = int(rng.integers(1, 4))
    shape = [int(rng.integers(1, 10)) for _ in range(rank)]
    dim = int(rng.integers(-rank, rank))
    if index == 0:
        shape, dim = [3, 40], -1
    sizes = [s if rng.random() < 0.5 else None for s in shape]
    dtype = DTYPES[index % len(DTYPES)]
    stable = bool(rng.random() < 0.75)
    return Case(f"case{index}", sizes, dtype, dim, bool(rng.random() < 0.5), stable, random_keys(rng, shape, dtype))


def cases() -> list[Case]:
    rng = np.random.default_rng(11)
    return [random_case(rng, i) for i in range(16)]


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    """The module compiled with ``--fixes`` (a dynamic row needs ``argsort-indices-only`` on the CPU too)."""
    path = tmp_path_factory.mktemp("argsort") / "cases.mlir"
    path.write_text(program(CASES))
    inject, inject_codegen = fix_table.specs("all", CPU.compile_flags)
    assert any(PASS in spec for spec in inject), inject
    return e2e.compile_program(str(path), CPU, inject=inject, inject_codegen=inject_codegen)


def test_stock_fails_on_argsort_stable(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[1:2]))
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("torch.aten.argsort.stable" in m for m in res.messages), res.messages[-3:]


def test_the_pass_rewrites_every_case():
    assert "argsort.stable" not in run_pipeline(program(CASES), PASS)


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c.name}-{c.dtype}-dim{c.dim}-{'desc' if c.descending else 'asc'}"
)
def test_argsort_matches_stable_numpy(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [case.x])
    assert np.array_equal(out, case.expected()), (case.x, out, case.expected())

"""torch-roll-shift-mod-size end to end: torch.roll by any shift equals np.roll.

IREE 3.13's torch frontend returns ``torch.roll(x, s, d)`` unrotated whenever
|s| exceeds the dim's size (its decomposition slices from -s without taking
it mod the size), static and dynamic sizes alike: wrong numbers, no
diagnostic (pinned below). With the pass on the module as parsed, random
rolls as iree-turbine exports them (``torch.aten.roll`` with constant shift
and dim lists; rank 1-3; one to three rolled dims, negative dims among them;
shifts from -3n to 3n; static and dynamic sizes, empty dims included)
compile in one module and each equals ``np.roll`` (without it, 9 of these 20
are wrong or do not compile).
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e

CPU = e2e.TARGETS["cpu"]
PASS = ("start:torch-roll-shift-mod-size",)


@dataclass(frozen=True)
class Case:
    name: str
    shape: tuple  # run-time sizes
    dynamic: tuple  # dims dynamic in the type
    shifts: tuple
    dims: tuple  # as written (negative ones count from the end)

    def function(self) -> str:
        t = f"!torch.vtensor<[{','.join('?' if d in self.dynamic else str(s) for d, s in enumerate(self.shape))}],f32>"
        lines = [f"func.func @{self.name}(%x: {t}) -> {t} {{"]
        for i, (s, d) in enumerate(zip(self.shifts, self.dims)):
            lines += [f"  %s{i} = torch.constant.int {s}", f"  %d{i} = torch.constant.int {d}"]
        n = len(self.shifts)
        ints = ", ".join(["!torch.int"] * n)
        lines += [
            f"  %shifts = torch.prim.ListConstruct {', '.join(f'%s{i}' for i in range(n))} : ({ints}) -> !torch.list<int>",
            f"  %dims = torch.prim.ListConstruct {', '.join(f'%d{i}' for i in range(n))} : ({ints}) -> !torch.list<int>",
            f"  %r = torch.aten.roll %x, %shifts, %dims : {t}, !torch.list<int>, !torch.list<int> -> {t}",
            f"  return %r : {t}",
            "}",
        ]
        return "\n".join(lines)


def random_case(rng, n: int) -> Case:
    rank = int(rng.integers(1, 4))
    shape = tuple(int(rng.integers(0 if rng.random() < 0.1 else 1, 7)) for _ in range(rank))
    rolled = [int(d) for d in rng.choice(rank, size=int(rng.integers(1, rank + 1)), replace=False)]
    shifts = tuple(int(rng.integers(-3 * max(shape[d], 1), 3 * max(shape[d], 1) + 1)) for d in rolled)
    dims = tuple(d - rank if rng.random() < 0.3 else d for d in rolled)
    dynamic = tuple(d for d in range(rank) if rng.random() < 0.5)
    return Case(f"case{n}", shape, dynamic, shifts, dims)


def cases(count: int, seed: int = 0) -> list[Case]:
    rng = np.random.default_rng(seed)
    return [random_case(rng, n) for n in range(count)]


CASES = cases(20)


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


def compile_text(text, tmp_path, inject=(), name="p"):
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    return e2e.compile_program(str(path), CPU, inject=inject)


def beyond(case) -> bool:
    return any(abs(s) > case.shape[d] for s, d in zip(case.shifts, case.dims))


def test_the_generator_covers_the_family():
    assert {len(c.shape) for c in CASES} == {1, 2, 3}
    assert sum(beyond(c) for c in CASES) >= 10 and any(not beyond(c) for c in CASES)
    assert any(len(c.shifts) > 1 for c in CASES) and any(d < 0 for c in CASES for d in c.dims)
    assert any(c.dynamic for c in CASES) and any(0 in c.shape for c in CASES)


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    return compile_text(program(CASES), tmp_path_factory.mktemp("roll"), PASS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_roll_matches_numpy(case, fixed):
    x = np.random.default_rng(CASES.index(case)).standard_normal(case.shape).astype(np.float32)
    (got,) = e2e.run_runtime(fixed, CPU, case.name, [x])
    np.testing.assert_array_equal(got, np.roll(x, case.shifts, case.dims))


def test_stock_returns_the_tensor_unrotated(tmp_path):
    """The bug: a shift beyond the size, static and dynamic, without the pass."""
    chosen = [Case("static", (5, 4), (), (7, -9), (0, 1)), Case("dynamic", (5, 4), (0, 1), (7, -9), (0, 1))]
    text = program(chosen)
    assert run_pipeline(text, "torch-roll-shift-mod-size").count("torch.aten.roll") == 2
    stock = compile_text(text, tmp_path)
    x = np.arange(20, dtype=np.float32).reshape(5, 4)
    for case in chosen:
        np.testing.assert_array_equal(e2e.run_runtime(stock, CPU, case.name, [x])[0], x)
    assert not np.array_equal(np.roll(x, (7, -9), (0, 1)), x)

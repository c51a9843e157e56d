"""torch-decompose-histc end to end: random torch.histc programs compiled for llvm-cpu equal torch's binning.

Stock IREE cannot compile ``torch.operator "torch.aten.histc"``; with the pass
applied to the module as parsed, every program compiles and each function
equals ``histc_reference``, numpy written as torch's CPU kernel computes: the
bounds rounded to the dtype, an element counted where ``min <= x <= max``, its
bin ``trunc(((x - min) * bins) / (max - min))`` with each step rounded to the
dtype, ``bins`` itself counted in the last bin. That reference was checked
against ``torch.histc`` (torch 2.13, CPU) before writing this test: 2935 random
cases (f32 and f64; bins 1 to 1000; integer and float bounds; up to 3000
elements drawn from the bin edges, their float neighbours, values outside the
range, NaN and infinities) gave equal histograms. The same binning computed in
double, for f32 inputs, differs from torch in 1568 of 2000 such cases: the
order and rounding of the steps decide the bins of values near an edge, which
is why the programs draw most of their values there.

f64 programs are compiled with ``--iree-input-demote-f64-to-f32=false``: IREE
demotes f64 to f32 by default, whatever the program says.

All cases are functions of one module compiled once.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections
from torch_e2e import vtensor

PASS = "torch-decompose-histc"
CPU = e2e.TARGETS["cpu"]
KEEP_F64 = ("--iree-input-demote-f64-to-f32=false",)


def histc_reference(x: np.ndarray, bins: int, lo, hi) -> np.ndarray:
    """``torch.histc(x, bins, lo, hi)`` as torch's CPU kernel computes it (``lo < hi`` once rounded)."""
    dtype = x.dtype.type
    low, high = dtype(float(lo)), dtype(float(hi))
    width, scale = dtype(high - low), dtype(bins)
    inside = (x >= low) & (x <= high)
    shifted = np.where(inside, x, low).astype(x.dtype) - low
    ratio = (shifted * scale).astype(x.dtype) / width
    index = np.minimum(np.trunc(ratio.astype(x.dtype)).astype(np.int64), bins - 1)
    return np.array([np.count_nonzero(inside & (index == b)) for b in range(bins)]).astype(x.dtype)


def scalar(value) -> tuple[str, str]:
    """A bound as torch exports it: ``torch.constant.int`` for an int, ``torch.constant.float`` for a float."""
    if isinstance(value, int):
        return f"torch.constant.int {value}", "!torch.int"
    return f"torch.constant.float {float(value):.17e}", "!torch.float"


@dataclass
class Case:
    """``histc(x, bins, lo, hi)`` over ``x``, its static sizes (None for '?') as the program types it."""

    name: str
    x: np.ndarray
    sizes: list
    bins: int
    lo: int | float
    hi: int | float

    @property
    def dtype(self) -> str:
        return "f32" if self.x.dtype == np.float32 else "f64"

    def function(self) -> str:
        xt, rt = vtensor(self.sizes, self.dtype), vtensor([self.bins], self.dtype)
        (lo, lo_t), (hi, hi_t) = scalar(self.lo), scalar(self.hi)
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}) -> {rt} {{",
                f"  %bins = torch.constant.int {self.bins}",
                f"  %lo = {lo}",
                f"  %hi = {hi}",
                f'  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : ({xt}, !torch.int, {lo_t}, {hi_t}) -> {rt}',
                f"  return %r : {rt}",
                "}",
            ]
        )

    def expected(self) -> np.ndarray:
        return histc_reference(self.x, self.bins, self.lo, self.hi)


def normal(x: np.ndarray) -> np.ndarray:
    """``x`` without its subnormal values: IREE's CPU runtime flushes them to zero in every program (a
    neighbour of the edge 0 would read as 0), which no rewrite can change."""
    return x[(x == 0) | ~(np.abs(x) < np.finfo(x.dtype).tiny)]


def edge_values(rng, n: int, bins: int, lo, hi, dtype) -> np.ndarray:
    """Values where binning is delicate: the bin edges (as linspace gives them in the dtype), their float
    neighbours on both sides, values past both bounds, NaN and infinities, and random ones in range."""
    edges = np.linspace(float(lo), float(hi), bins + 1).astype(dtype)
    up, down = np.nextafter(edges, dtype(np.inf)), np.nextafter(edges, dtype(-np.inf))
    span = float(hi) - float(lo)
    outside = [float(lo) - span, float(hi) + span, float(lo) - 1e-3, np.nan, np.inf, -np.inf]
    inside = rng.uniform(float(lo), float(hi), 16)
    pool = np.concatenate([edges, up, down, np.array(outside), inside]).astype(dtype)
    return rng.choice(normal(pool), n)


def moe_case(rng) -> Case:
    """transformers' experts: histc(sorted expert ids as f32, bins=E, min=0, max=E - 1) over a dynamic count,
    with ids past E - 1 (expert-parallel sentinels, which the count drops)."""
    ids = np.sort(rng.integers(0, 9, 40)).astype(np.float32)
    return Case("moe_tokens_per_expert", ids, [None], 8, 0, 7)


def edges_case(name: str, bins: int, lo: float, hi: float, dtype) -> Case:
    """Every bin edge as linspace gives it in the dtype, with both its float neighbours: the values whose bins
    the order and rounding of torch's steps decide (3 * (bins + 1) elements, past the vector width)."""
    edges = np.linspace(lo, hi, bins + 1).astype(dtype)
    x = np.concatenate([edges, np.nextafter(edges, dtype(np.inf)), np.nextafter(edges, dtype(-np.inf))])
    return Case(name, normal(x), [None], bins, lo, hi)


EDGES = [
    ("edges_f32_100_bins", 100, -3.7, 11.3, np.float32),
    ("edges_f32_7_bins", 7, 0.1, 0.8, np.float32),
    ("edges_f32_1000_bins", 1000, 0.0, 1.0, np.float32),
    ("edges_f64_37_bins", 37, 0.3, 5.9, np.float64),
]


def random_case(rng, index: int) -> Case:
    """Rank 0-3, sizes 0-6 (each dynamic 40% of the time), bins 1-100, integer or float bounds, f32 or f64."""
    dtype = np.float32 if rng.random() < 0.7 else np.float64
    bins = int(rng.choice([1, 2, 3, 4, 7, 10, 64, 100]))
    if rng.random() < 0.4:
        lo = int(rng.integers(-10, 10))
        hi = lo + int(rng.integers(1, 20))
    else:
        lo, hi = sorted(float(v) for v in rng.standard_normal(2) * 5)
    rank = int(rng.integers(0, 4))
    first = [0, 1, 3, 64, 150] if rank < 3 else [0, 1, 3]
    shape = [int(rng.choice(first)), *(int(rng.integers(1, 5)) for _ in range(rank - 1))][:rank]
    x = edge_values(rng, int(np.prod(shape)), bins, lo, hi, dtype).reshape(shape)
    return Case(f"case{index}", x, [None if rng.random() < 0.4 else s for s in shape], bins, lo, hi)


def cases() -> list[Case]:
    rng = np.random.default_rng(2028)
    return [moe_case(rng), *(edges_case(*e) for e in EDGES), *(random_case(rng, i) for i in range(25))]


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    path = tmp_path_factory.mktemp("histc") / "fixed.mlir"
    path.write_text(run_pipeline(program(CASES), PASS))
    return e2e.compile_program(str(path), CPU, extra_flags=KEEP_F64)


def other_order(x: np.ndarray, bins: int, lo, hi, how: str) -> np.ndarray:
    """``histc_reference`` with the bin computed another way: ``how`` is 'divide first' (``(x - min) / width *
    bins``), 'reciprocal' (``(x - min) * (bins / width)``) or 'double' (the product and quotient in f64)."""
    dtype = x.dtype.type
    low, high = dtype(float(lo)), dtype(float(hi))
    width, scale = dtype(high - low), dtype(bins)
    inside = (x >= low) & (x <= high)
    shifted = np.where(inside, x, low).astype(x.dtype) - low
    ratio = {
        "divide first": lambda: (shifted / width).astype(x.dtype) * scale,
        "reciprocal": lambda: shifted * dtype(scale / width),
        "double": lambda: shifted.astype(np.float64) * bins / (float(high) - float(low)),
    }[how]()
    index = np.minimum(np.trunc(ratio).astype(np.int64), bins - 1)
    return np.array([np.count_nonzero(inside & (index == b)) for b in range(bins)]).astype(x.dtype)


@pytest.mark.parametrize("how", ["divide first", "reciprocal", "double"])
def test_the_cases_tell_the_orders_apart(how):
    """The programs' values lie where the order and rounding of torch's steps decide the bin: each other way
    of computing it bins some of them otherwise, so a rewrite that reordered the steps would fail."""
    differ = [c.name for c in CASES if not np.array_equal(other_order(c.x, c.bins, c.lo, c.hi, how), c.expected())]
    assert len(differ) >= 3, differ


def test_stock_fails_on_histc(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[:1]))
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("torch.aten.histc" in m for m in res.messages), res.messages[-3:]


def test_the_pass_rewrites_every_case():
    assert "torch.aten.histc" not in run_pipeline(program(CASES), PASS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{vtensor(c.sizes, c.dtype)}-bins{c.bins}")
def test_histc_matches_torch_binning(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [case.x])
    want = case.expected()
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape)
    assert np.array_equal(out, want), (out, want)

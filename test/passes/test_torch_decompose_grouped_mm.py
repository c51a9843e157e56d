"""torch-decompose-grouped-mm end to end: random grouped matmuls compiled for llvm-cpu equal the loop torch runs.

Stock IREE cannot compile ``torch.operator "torch.transformers.grouped_mm_fallback"``
nor ``"torch.aten._grouped_mm"``; with the pass applied to the module as parsed,
every program compiles and each function equals ``grouped_mm_reference``:
transformers' ``_grouped_mm_fallback`` itself, its loop over the offsets run on
numpy arrays (zeros, then ``out[start:end] = x[start:end] @ w[e]`` with
Python's slice bounds, the next group starting where this one ended). That
reference was checked against torch 2.13 (CPU) before writing this test: on
600 random programs (sorted, unsorted, negative and past-the-end offsets; si32
and si64) it equals ``torch.ops.transformers.grouped_mm_fallback`` on all 1200,
and ``torch._grouped_mm`` on every row a group writes (``_grouped_mm`` leaves
the others unwritten: the pass's zeros are one of its answers).

Rows no group writes must be exactly 0 even where the input row is NaN or
infinite (transformers' expert-parallel sentinels past the last offset).
Products are compared with a tolerance of the dtype (torch and IREE sum in
different orders; f16 and bf16 are accumulated in f32 and rounded once by
both).

All cases are functions of one module compiled once.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections
from torch_e2e import NUMPY, vtensor

PASS = "torch-decompose-grouped-mm"
CPU = e2e.TARGETS["cpu"]
ULP = {"f32": 2.0**-23, "f16": 2.0**-10, "bf16": 2.0**-7}
FALLBACK, ATEN = "torch.transformers.grouped_mm_fallback", "torch.aten._grouped_mm"


def grouped_mm_reference(x: np.ndarray, w: np.ndarray, offs: np.ndarray) -> np.ndarray:
    """transformers' ``_grouped_mm_fallback`` on numpy arrays, in f64: its loop as written."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    out = np.zeros((x.shape[0], w.shape[2]))
    start = 0
    for i, end in enumerate(offs.tolist()):
        if start == end:
            continue
        out[start:end] = x[start:end] @ w[i]
        start = end
    return out


def written_rows(rows: int, offs: np.ndarray) -> np.ndarray:
    """Which rows some group writes (Python's slice bounds, as the loop takes them)."""
    written = np.zeros(rows, bool)
    start = 0
    for end in offs.tolist():
        written[start:end] = True
        start = end
    return written


@dataclass
class Case:
    """``op(x, w, offs)`` on these arrays; ``dynamic`` names the sizes the program leaves '?' ('S', 'E')."""

    name: str
    op: str
    x: np.ndarray
    w: np.ndarray
    offs: np.ndarray
    dtype: str
    dynamic: tuple = ("S",)

    def types(self) -> tuple[str, str, str, str]:
        (s, k), (e, _, m) = self.x.shape, self.w.shape
        s = None if "S" in self.dynamic else s
        e = None if "E" in self.dynamic else e
        offs = "si32" if self.offs.dtype == np.int32 else "si64"
        return (
            vtensor([s, k], self.dtype),
            vtensor([e, k, m], self.dtype),
            vtensor([e], offs),
            vtensor([s, m], self.dtype),
        )

    def function(self) -> str:
        xt, wt, ot, rt = self.types()
        extra, extra_types = ("", "") if self.op == FALLBACK else (", %none, %none", ", !torch.none, !torch.none")
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {xt}, %w: {wt}, %offs: {ot}) -> {rt} {{",
                "  %none = torch.constant.none",
                f'  %r = torch.operator "{self.op}"(%x, %w, %offs{extra}) : ({xt}, {wt}, {ot}{extra_types}) -> {rt}',
                f"  return %r : {rt}",
                "}",
            ]
        )

    def inputs(self) -> list[np.ndarray]:
        return [self.x, self.w, self.offs]


def arrays(rng, s: int, k: int, m: int, e: int, dtype: str):
    """An input and weights of normal values, exactly representable in ``dtype``."""
    x = rng.standard_normal((s, k)).astype(np.float32).astype(NUMPY[dtype])
    w = rng.standard_normal((e, k, m)).astype(np.float32).astype(NUMPY[dtype])
    return x, w


def moe_case(rng) -> Case:
    """Mixtral's form: rows sorted by expert, offsets the running token counts (expert 2 empty), the last
    offset short of S with NaN and infinite rows past it (expert-parallel sentinels): those rows are 0."""
    x, w = arrays(rng, 23, 16, 24, 4, "f32")
    x[20:] = np.array([np.nan, np.inf, -np.inf])[:, None]
    offs = np.cumsum([6, 9, 0, 5]).astype(np.int32)
    return Case("moe_fallback", FALLBACK, x, w, offs, "f32")


def fixed_cases(rng) -> list[Case]:
    """One case per form the semantics has: each offset shape, static and dynamic sizes, both ops."""

    def case(name, offs, s=9, e=4, dtype="f32", op=FALLBACK, dynamic=("S",), k=8, m=5, offs_dtype=np.int32):
        x, w = arrays(rng, s, k, m, e, dtype)
        return Case(name, op, x, w, np.array(offs, offs_dtype), dtype, dynamic)

    return [
        case("static_rows_si64", [2, 5, 5, 9], dynamic=(), offs_dtype=np.int64),
        case("unsorted", [6, 2, 8, 4]),
        case("negative_ends", [-6, 5, -1, 9]),
        case("past_the_end", [3, 12, 20, 30]),
        case("dynamic_groups", [1, 4, 4, 7], dynamic=("S", "E")),
        case("one_group", [6], e=1),
        case("no_rows", [0, 0, 0, 0], s=0),
        case("aten_f32", [2, 2, 6, 8], op=ATEN),
        case("aten_bf16", [3, 4, 7, 9], dtype="bf16", op=ATEN),
        case("aten_f16", [0, 5, 6, 8], dtype="f16", op=ATEN),
        case("fallback_f16", [1, 3, 7, 9], dtype="f16"),
        case("large", np.cumsum([40, 0, 71, 13, 60, 2, 9, 5]).tolist(), s=200, e=8, k=64, m=48),
    ]


def random_case(rng, index: int) -> Case:
    """S 0-40, E 1-6, K and M 1-20; offsets sorted (half the time) or drawn from [-S - 2, S + 2]; either op."""
    op = FALLBACK if rng.random() < 0.6 else ATEN
    dtype = "f32" if rng.random() < 0.7 else ("bf16" if op == ATEN else "f16")
    s, e, k, m = int(rng.integers(0, 41)), int(rng.integers(1, 7)), int(rng.integers(1, 21)), int(rng.integers(1, 21))
    if rng.random() < 0.5:
        offs = np.sort(rng.integers(0, s + 1, e))
    else:
        offs = rng.integers(-s - 2, s + 3, e)
    wide = op == FALLBACK and rng.random() < 0.5
    x, w = arrays(rng, s, k, m, e, dtype)
    dynamic = tuple(d for d in ("S", "E") if rng.random() < 0.6)
    return Case(f"case{index}", op, x, w, offs.astype(np.int64 if wide else np.int32), dtype, dynamic)


def cases() -> list[Case]:
    rng = np.random.default_rng(2029)
    return [moe_case(rng), *fixed_cases(rng), *(random_case(rng, i) for i in range(20))]


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    path = tmp_path_factory.mktemp("grouped_mm") / "fixed.mlir"
    path.write_text(run_pipeline(program(CASES), PASS))
    return e2e.compile_program(str(path), CPU)


def test_stock_fails_on_both_ops(tmp_path):
    chosen = [CASES[0], next(c for c in CASES if c.op == ATEN)]
    for case in chosen:
        path = tmp_path / f"{case.name}.mlir"
        path.write_text(program([case]))
        res = compile_with_injections(str(path), list(CPU.compile_flags), [])
        assert not res.ok and any(case.op in m for m in res.messages), res.messages[-3:]


def test_the_pass_rewrites_every_case():
    fixed = run_pipeline(program(CASES), PASS)
    assert FALLBACK not in fixed and ATEN not in fixed


def test_the_cases_reach_every_form():
    """Unsorted, negative and past-the-end offsets, and rows no group writes, each in several programs."""
    forms = {"unsorted": 0, "negative": 0, "past the end": 0, "unwritten rows": 0}
    for c in CASES:
        forms["unsorted"] += bool(np.any(np.diff(c.offs) < 0))
        forms["negative"] += bool(np.any(c.offs < 0))
        forms["past the end"] += bool(np.any(c.offs > c.x.shape[0]))
        forms["unwritten rows"] += bool(not written_rows(c.x.shape[0], c.offs).all())
    assert min(forms.values()) >= 3, forms


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{c.op.rsplit('.', 1)[1]}-{c.types()[0]}")
def test_grouped_mm_matches_the_loop(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, case.inputs())
    want = grouped_mm_reference(case.x, case.w, case.offs)
    assert out.shape == want.shape and out.dtype == NUMPY[case.dtype], (out.shape, out.dtype)
    got = out.astype(np.float64)
    written = written_rows(case.x.shape[0], case.offs)
    assert np.all(got[~written] == 0), got[~written]
    # Summed in f32 in another order than the reference's, then rounded once to the dtype.
    terms = np.abs(case.x[written].astype(np.float64)) @ np.abs(case.w.astype(np.float64)).max(axis=0)
    bound = ULP[case.dtype] * np.abs(want[written]) + ULP["f32"] * (case.x.shape[1] + 2) * terms
    assert np.all(np.abs(got[written] - want[written]) <= bound), np.abs(got[written] - want[written]).max()

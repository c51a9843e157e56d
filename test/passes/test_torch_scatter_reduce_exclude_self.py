"""torch-scatter-reduce-exclude-self end to end: scatter_reduce(include_self=False) on llvm-cpu equals torch.

Stock IREE 3.13 fails llvm-cpu's code generation on ``scatter_reduce.two``
with ``include_self=False`` and a dynamic index ('memref.alloca' op expected
no unbounded stack allocations); with the pass applied to the module as
parsed, one module holding every reduction (sum, prod, amax, amin, mean) in
f32 and si32, with dynamic sizes, repeated targets and untouched ones, a
negative ``dim`` and an index smaller than ``src``, compiles and each function
equals ``reference`` (torch's definition written out: targets start from the
first source, mean floor-divides integers) and, where torch is installed,
``torch.Tensor.scatter_reduce`` itself. The default run compiles two of them.
"""

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from torch_e2e import NUMPY, native_compile, vtensor

PASS = "torch-scatter-reduce-exclude-self"
CPU = e2e.TARGETS["cpu"]
REDUCES = ("sum", "prod", "amax", "amin", "mean")
SELF, INDEX, SRC = (6, 4, 3), (3, 4, 2), (5, 4, 3)  # index no larger than src; rows 3-5 of dim 0 only sometimes hit


def function(name: str, dtype: str, reduce: str, dim: int) -> str:
    xt, it, st = vtensor((None, None, None), dtype), vtensor((None, None, None), "si64"), vtensor(SRC, dtype)
    return "\n".join(
        [
            f"func.func @{name}(%x: {xt}, %i: {it}, %s: {st}) -> {xt} {{",
            f"  %dim = torch.constant.int {dim}",
            f'  %red = torch.constant.str "{reduce}"',
            "  %false = torch.constant.bool false",
            f"  %r = torch.aten.scatter_reduce.two %x, %dim, %i, %s, %red, %false : {xt}, !torch.int, {it}, {st}, "
            f"!torch.str, !torch.bool -> {xt}",
            f"  return %r : {xt}",
            "}",
        ]
    )


COMBINE = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}


def reference(x, dim: int, index, src, reduce: str) -> np.ndarray:
    """torch's scatter_reduce without self: each target hit reduces its sources alone; mean divides by their count."""
    out, count = x.copy(), np.zeros(x.shape, np.int64)
    for p in np.ndindex(index.shape):
        target = list(p)
        target[dim] = index[p]
        t = tuple(target)
        out[t] = src[p] if count[t] == 0 else COMBINE[reduce](out[t], src[p])
        count[t] += 1
    if reduce == "mean":
        hit = count > 0
        if x.dtype.kind == "f":
            out[hit] = out[hit] / count[hit].astype(x.dtype)
        else:
            out[hit] = np.floor_divide(out[hit], count[hit].astype(x.dtype))
    return out


CASES = [(f"{r}_{d}", d, r, -3 if r == "mean" and d == "f32" else 0) for r in REDUCES for d in ("f32", "si32")]
CHEAP = [c for c in CASES if c[0] in ("mean_si32", "amax_f32")]  # the floor-divided count and an infinite identity


def program(chosen) -> str:
    return "\n".join(function(*c) for c in chosen) + "\n"


def inputs(dtype: str, seed: int):
    rng = np.random.default_rng(seed)
    if dtype == "f32":
        x, src = rng.standard_normal(SELF), rng.standard_normal(SRC)
    else:
        x, src = rng.integers(-20, 20, SELF), rng.integers(-4, 5, SRC)
    index = rng.integers(0, SELF[0] - 1, INDEX)  # the last row of dim 0 is never a target
    return x.astype(NUMPY[dtype]), index.astype(np.int64), src.astype(NUMPY[dtype])


def compiled(tmp_path_factory, chosen):
    path = tmp_path_factory.mktemp("scatter_reduce") / "fixed.mlir"
    path.write_text(run_pipeline(program(chosen), PASS))
    return e2e.compile_program(str(path), CPU)


@pytest.fixture(scope="module")
def cheap_vmfb(tmp_path_factory):
    return compiled(tmp_path_factory, CHEAP)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compiled(tmp_path_factory, CASES)


def run_case(vmfb, case):
    name, dtype, reduce, dim = case
    x, index, src = inputs(dtype, seed=len(name) * 7 + REDUCES.index(reduce))
    (out,) = e2e.run_runtime(vmfb, CPU, name, [x, index, src])
    assert out.dtype == x.dtype and not np.array_equal(out, x)  # something was scattered
    np.testing.assert_allclose(out, reference(x, dim % 3, index, src, reduce), rtol=1e-6, atol=1e-6)
    return x, index, src, out


@pytest.mark.parametrize("case", CHEAP, ids=lambda c: c[0])
def test_cheap_cases_match_the_reference(case, cheap_vmfb):
    run_case(cheap_vmfb, case)


@pytest.mark.slow
def test_stock_fails_without_self(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[:1]))
    proc = native_compile(path, tmp_path / "stock.vmfb")
    assert proc.returncode != 0 and "expected no unbounded stack allocations" in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_scatter_reduce_without_self_matches_torch(case, vmfb):
    torch = pytest.importorskip("torch")
    x, index, src, out = run_case(vmfb, case)
    _, _, reduce, dim = case
    t = torch.from_numpy
    want = t(x).scatter_reduce(dim, t(index), t(src), reduce, include_self=False)
    np.testing.assert_allclose(out, want.numpy(), rtol=1e-6, atol=1e-6)

"""torch-scatter-wrap-dim end to end: scatters with a negative dim compiled for llvm-cpu equal numpy.

Stock IREE 3.13 crashes (a segmentation fault in torch-mlir's TorchToTMTensor)
on ``aten.scatter.src``, ``scatter.value``, ``scatter_add`` and
``scatter_reduce.two`` with a negative ``dim``; with the pass applied to the
module as parsed, every program compiles and each function equals
``scatter_reference``, torch's definition written out (``out = self``, then
for every position ``p`` of ``index``, ``out[p with p[dim] = index[p]]``
receives ``src[p]``: replaced, added, or reduced by max or min with
``include_self``). ``scatter.src`` and ``scatter.value`` write each target
once (torch leaves the winner among duplicates unspecified), the others take
duplicates.

All cases are functions of one module compiled once; the stock crash is shown
on one program in a subprocess of the native ``iree-compile``.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from torch_e2e import NUMPY, native_compile, vtensor

PASS = "torch-scatter-wrap-dim"
CPU = e2e.TARGETS["cpu"]
REDUCE = {"sum": np.add, "amax": np.maximum, "amin": np.minimum}


def float_literal(x: float) -> str:
    """``x`` as MLIR spells an f64: decimal where finite, its bits in hexadecimal otherwise (-inf)."""
    return f"{x:.17e}" if np.isfinite(x) else "0x" + np.float64(x).tobytes()[::-1].hex().upper()


def scatter_reference(x, dim: int, index, src, combine=None) -> np.ndarray:
    """torch's scatter: ``src[p]`` into ``x`` at ``p`` with ``p[dim] = index[p]``, replacing or ``combine``-d."""
    out = x.copy()
    for p in np.ndindex(index.shape):
        target = list(p)
        target[dim] = index[p]
        value = src[p] if isinstance(src, np.ndarray) else src
        out[tuple(target)] = value if combine is None else combine(out[tuple(target)], value)
    return out


@dataclass
class Case:
    """``op(self, dim, index, src-or-value[, reduce, include_self])`` with a negative ``dim``."""

    name: str
    op: str
    dim: int
    x: np.ndarray
    index: np.ndarray
    src: np.ndarray | float
    dtype: str
    dynamic: tuple  # which of self's sizes the program leaves '?'
    reduce: str | None = None

    def sizes(self, shape) -> list:
        return [None if d in self.dynamic else s for d, s in enumerate(shape)]

    def function(self) -> str:
        xt = vtensor(self.sizes(self.x.shape), self.dtype)
        it = vtensor(self.index.shape, "si64")
        args = [f"%x: {xt}", f"%i: {it}"]
        body = [f"  %dim = torch.constant.int {self.dim}"]
        if self.op == "torch.aten.scatter.value":
            body.append(f"  %v = torch.constant.float {float_literal(self.src)}")
            operands, types = "%x, %dim, %i, %v", f"{xt}, !torch.int, {it}, !torch.float"
        else:
            st = vtensor(self.src.shape, self.dtype)
            args.append(f"%s: {st}")
            operands, types = "%x, %dim, %i, %s", f"{xt}, !torch.int, {it}, {st}"
        if self.reduce is not None:
            body += [f'  %red = torch.constant.str "{self.reduce}"', "  %true = torch.constant.bool true"]
            operands, types = operands + ", %red, %true", types + ", !torch.str, !torch.bool"
        return "\n".join(
            [
                f"func.func @{self.name}({', '.join(args)}) -> {xt} {{",
                *body,
                f"  %r = {self.op} {operands} : {types} -> {xt}",
                f"  return %r : {xt}",
                "}",
            ]
        )

    def inputs(self) -> list:
        return [self.x, self.index] + ([self.src] if isinstance(self.src, np.ndarray) else [])

    def expected(self) -> np.ndarray:
        combine = np.add if self.op == "torch.aten.scatter_add" else REDUCE.get(self.reduce)
        src = self.src if isinstance(self.src, np.ndarray) else NUMPY[self.dtype](self.src)
        return scatter_reference(self.x, self.dim, self.index, src, combine)


def random_values(rng, shape, dtype):
    if dtype == "f32":
        return rng.standard_normal(shape).astype(np.float32)
    return rng.integers(-50, 50, shape).astype(NUMPY[dtype])


def unique_index(rng, self_shape, index_shape, dim: int) -> np.ndarray:
    """An index whose targets along ``dim`` are distinct on each line: a prefix of a permutation per line."""
    index = np.empty(index_shape, np.int64)
    rest = [range(s) for d, s in enumerate(index_shape) if d != dim % len(index_shape)]
    for line in np.ndindex(*[len(r) for r in rest]):
        where = list(line)
        where.insert(dim % len(index_shape), slice(None))
        index[tuple(where)] = rng.permutation(self_shape[dim])[: index_shape[dim]]
    return index


def random_case(rng, i: int) -> Case:
    """Rank 1-3, sizes 1-5 (index and src no larger than self), a negative dim, each size dynamic 40% of the time."""
    op = rng.choice(
        [
            "torch.aten.scatter.src",
            "torch.aten.scatter.value",
            "torch.aten.scatter_add",
            "torch.aten.scatter_reduce.two",
        ]
    )
    rank = int(rng.integers(1, 4))
    dim = -int(rng.integers(1, rank + 1))
    shape = [int(rng.integers(1, 6)) for _ in range(rank)]
    index_shape = [int(rng.integers(1, s + 1)) for s in shape]
    dtype = "f32" if op == "torch.aten.scatter.value" or rng.random() < 0.6 else str(rng.choice(["si32", "si64"]))
    x = random_values(rng, shape, dtype)
    unique = op in ("torch.aten.scatter.src", "torch.aten.scatter.value")
    if unique:
        index = unique_index(rng, shape, index_shape, dim)
    else:
        index = rng.integers(0, shape[dim], index_shape).astype(np.int64)
    src = float(rng.standard_normal()) if op == "torch.aten.scatter.value" else random_values(rng, index_shape, dtype)
    reduce = str(rng.choice(list(REDUCE))) if op == "torch.aten.scatter_reduce.two" else None
    dynamic = tuple(d for d in range(rank) if rng.random() < 0.4)
    return Case(f"case{i}", op, dim, x, index, src, dtype, dynamic, reduce)


def router_case(rng) -> Case:
    """PhiMoE's sparsemixer: scores.scatter(-1, top index, -inf) over a dynamic token count."""
    scores = rng.standard_normal((7, 4)).astype(np.float32)
    top = np.argmax(scores, axis=-1)[:, None].astype(np.int64)
    return Case("router_mask", "torch.aten.scatter.value", -1, scores, top, float("-inf"), "f32", (0,))


def cases() -> list[Case]:
    rng = np.random.default_rng(2030)
    return [router_case(rng), *(random_case(rng, i) for i in range(27))]


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    path = tmp_path_factory.mktemp("scatter") / "fixed.mlir"
    path.write_text(run_pipeline(program(CASES), PASS))
    return e2e.compile_program(str(path), CPU)


def test_the_cases_cover_every_scatter():
    assert {c.op for c in CASES} == {
        "torch.aten.scatter.src",
        "torch.aten.scatter.value",
        "torch.aten.scatter_add",
        "torch.aten.scatter_reduce.two",
    }


def test_stock_crashes_on_a_negative_dim(tmp_path):
    """In a subprocess of the native iree-compile: the crash takes the process with it."""
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[:1]))
    proc = native_compile(path, tmp_path / "stock.vmfb")
    assert proc.returncode != 0 and "convertTorchScatterIndexAndSrcToTMScatterIndexAndSrc" in proc.stderr


def test_the_fixed_program_compiles_in_a_subprocess(tmp_path):
    """The same program with the pass applied compiles with the native iree-compile."""
    path = tmp_path / "fixed.mlir"
    path.write_text(run_pipeline(program(CASES[:1]), PASS))
    proc = native_compile(path, tmp_path / "fixed.vmfb")
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_the_pass_wraps_every_dim():
    fixed = run_pipeline(program(CASES), PASS)
    assert "torch.constant.int -" not in fixed


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{c.op.rsplit('.', 1)[-1]}-dim{c.dim}-{c.reduce}")
def test_scatter_matches_numpy(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, case.inputs())
    want = case.expected()
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape)
    assert np.allclose(out, want, rtol=1e-6, atol=1e-6), (out, want)

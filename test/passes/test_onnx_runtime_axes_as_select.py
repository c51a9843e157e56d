"""onnx-runtime-axes-as-select end to end: ONNX reductions and CumSum over runtime axes equal numpy.

Stock IREE 3.13 refuses an ONNX ReduceX or CumSum whose axes are a graph
input (``failed to legalize operation 'torch.aten.sum.dim_IntList'`` and the
like, pinned below). With the pass at the start, random cases (each of the
ten reductions and CumSum; rank 1-4, sizes 1-3, often all equal so that several axes
sets give the same shape; one to rank runtime axes in any order, negative ones among
them; keepdims on and off; CumSum's exclusive and reverse; a 0-d or 1-element
axis) compile in one module per seed, and each function, given the axes at
run time, equals numpy. A fixed sample runs by default; more seeds are slow.
CumSum over dynamic sizes (a dynamic sequence) has a test of its own. Not generated: forms IREE aborts on even with constant axes, which the pass
leaves alone (its lit test has one).
"""

import subprocess
import sys
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e

CPU = e2e.TARGETS["cpu"]
PASS = ("start:onnx-runtime-axes-as-select",)
BOUND = 8  # the pass's limit on candidates; the generator stays within it
ONNX_TEST = Path(__file__).resolve().parents[2] / ".." / "shared" / "peer" / "onnx_ops" / "onnx" / "node" / "generated"


def _cumsum(x, axis, exclusive, reverse):
    y = np.flip(x, axis) if reverse else x
    out = np.cumsum(y, axis=axis)
    if exclusive:
        out = out - y
    return np.flip(out, axis) if reverse else out


REFERENCE = {
    "ReduceL1": lambda x, ax, k: np.sum(np.abs(x), axis=ax, keepdims=k),
    "ReduceL2": lambda x, ax, k: np.sqrt(np.sum(x * x, axis=ax, keepdims=k)),
    "ReduceLogSum": lambda x, ax, k: np.log(np.sum(x, axis=ax, keepdims=k)),
    "ReduceLogSumExp": lambda x, ax, k: np.log(np.sum(np.exp(x), axis=ax, keepdims=k)),
    "ReduceMax": lambda x, ax, k: np.max(x, axis=ax, keepdims=k),
    "ReduceMean": lambda x, ax, k: np.mean(x, axis=ax, keepdims=k),
    "ReduceMin": lambda x, ax, k: np.min(x, axis=ax, keepdims=k),
    "ReduceProd": lambda x, ax, k: np.prod(x, axis=ax, keepdims=k),
    "ReduceSum": lambda x, ax, k: np.sum(x, axis=ax, keepdims=k),
    "ReduceSumSquare": lambda x, ax, k: np.sum(x * x, axis=ax, keepdims=k),
}
OPS = (*REFERENCE, "CumSum")


def _t(sizes, dtype="f32") -> str:
    return f"!torch.vtensor<[{','.join(map(str, sizes))}],{dtype}>"


@dataclass(frozen=True)
class Case:
    name: str
    op: str
    shape: tuple
    axes: tuple  # the runtime axes, as given (negative ones count from the end)
    keepdims: bool = True  # reductions
    exclusive: bool = False  # CumSum
    reverse: bool = False  # CumSum
    axis_shape: tuple = (1,)  # CumSum's axis tensor: () or (1,)

    @property
    def norm(self) -> tuple:
        return tuple(sorted(a % len(self.shape) for a in self.axes))

    def result(self) -> tuple:
        if self.op == "CumSum":
            return self.shape
        if self.keepdims:
            return tuple(1 if d in self.norm else s for d, s in enumerate(self.shape))
        return tuple(s for d, s in enumerate(self.shape) if d not in self.norm)

    def axes_shape(self) -> tuple:
        return self.axis_shape if self.op == "CumSum" else (len(self.axes),)

    def function(self) -> str:
        x, r, a = _t(self.shape), _t(self.result()), _t(self.axes_shape(), "si64")
        if self.op == "CumSum":
            attrs = (
                f"torch.onnx.exclusive = {int(self.exclusive)} : si64, torch.onnx.reverse = {int(self.reverse)} : si64"
            )
        else:
            attrs = f"torch.onnx.keepdims = {int(self.keepdims)} : si64"
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {x}, %a: {a}) -> {r} attributes {{torch.onnx_meta.opset_version = 18 : si64}} {{",
                f'  %r = torch.operator "onnx.{self.op}"(%x, %a) {{{attrs}}} : ({x}, {a}) -> {r}',
                f"  return %r : {r}",
                "}",
            ]
        )

    def inputs(self, rng):
        x = rng.uniform(0.5, 1.5, self.shape).astype(np.float32)  # positive: ReduceLogSum's log is defined
        return [x, np.array(self.axes, np.int64).reshape(self.axes_shape())]

    def expected(self, x):
        if self.op == "CumSum":
            return _cumsum(x, self.norm[0], self.exclusive, self.reverse)
        return REFERENCE[self.op](x, self.norm, self.keepdims)

    def fitting(self) -> list[tuple]:
        """The axes sets that give this case's types (the generator's own, not the pass's)."""
        if self.op == "CumSum":
            return [(d,) for d in range(len(self.shape))]
        return [
            c
            for c in combinations(range(len(self.shape)), len(self.axes))
            if Case(self.name, self.op, self.shape, c, self.keepdims).result() == self.result()
        ]

    def candidates(self) -> int:
        return len(self.fitting())

    def aborts_iree(self) -> bool:
        """A form IREE 3.13 aborts on even with constant axes, which the pass leaves alone (a lit case)."""
        if self.op not in ("ReduceL2", "ReduceLogSum", "ReduceLogSumExp") or not self.keepdims:
            return False
        return any(all(self.shape[d] == 1 for d in c) for c in self.fitting())


def random_case(rng, n: int) -> Case:
    op = OPS[n % len(OPS)]
    while True:
        rank = int(rng.choice([1, 2, 3, 3, 4, 4]))
        if rng.random() < 0.5:  # equal sizes: the types leave several axes sets, the select decides
            shape = (int(rng.integers(1, 4)),) * rank
        else:
            shape = tuple(int(s) for s in rng.integers(1, 4, rank))
        full = rank == 1 or rng.random() < 0.15  # every axis; else fewer, where the types can be ambiguous
        m = 1 if op == "CumSum" else rank if full else int(rng.integers(1, rank))
        chosen = [int(d) for d in rng.choice(rank, size=m, replace=False)]
        axes = tuple(d - rank if rng.random() < 0.4 else d for d in chosen)
        case = Case(
            f"case{n}",
            op,
            shape,
            axes,
            keepdims=bool(rng.random() < 0.5),
            exclusive=bool(rng.random() < 0.5),
            reverse=bool(rng.random() < 0.5),
            axis_shape=() if rng.random() < 0.5 else (1,),
        )
        if case.candidates() <= BOUND and not case.aborts_iree():
            return case


def cases(count: int, seed: int) -> list[Case]:
    rng = np.random.default_rng(seed)
    return [random_case(rng, n) for n in range(count)]


SAMPLE = cases(22, 24)  # two of each op; a seed whose sample covers the family (below)
SLOW_SEEDS = (1, 2, 3, 4)


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


def test_the_generator_covers_the_family():
    assert {c.op for c in SAMPLE} == set(OPS)
    assert {len(c.shape) for c in SAMPLE} == {1, 2, 3, 4}
    assert any(a < 0 for c in SAMPLE for a in c.axes) and any(len(c.axes) > 1 for c in SAMPLE)
    assert {c.keepdims for c in SAMPLE if c.op != "CumSum"} == {True, False}
    assert sum(c.candidates() > 1 for c in SAMPLE) >= len(SAMPLE) // 2  # most need a select at run time


def test_every_case_is_rewritten():
    out = run_pipeline(program(SAMPLE), "onnx-runtime-axes-as-select")
    for c in SAMPLE:
        assert f'"onnx.{c.op}"(%arg0, %arg1)' not in out
    assert out.count("torch.aten.where.self") == sum(c.candidates() - 1 for c in SAMPLE)


def _compile(chosen, tmp_path, inject=PASS):
    path = tmp_path / "p.mlir"
    path.write_text(program(chosen))
    return e2e.compile_program(str(path), CPU, inject=inject)


def _check(vmfb, case, seed):
    x, axes = case.inputs(np.random.default_rng(seed))
    (got,) = e2e.run_runtime(vmfb, CPU, case.name, [x, axes])
    want = case.expected(x)
    assert got.shape == want.shape, (case, got.shape)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=str(case))


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    return _compile(SAMPLE, tmp_path_factory.mktemp("axes"))


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: f"{c.name}-{c.op}")
def test_matches_numpy(case, fixed):
    _check(fixed, case, int(case.name[4:]))


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW_SEEDS)
def test_matches_numpy_more_seeds(seed, tmp_path):
    chosen = cases(44, seed)
    vmfb = _compile(chosen, tmp_path)
    for case in chosen:
        _check(vmfb, case, seed)


def test_stock_refuses_runtime_axes(tmp_path):
    """The bug: without the pass, IREE has no lowering for a reduction or a cumsum over runtime axes."""
    from opt_py.errors import OptPyError

    for op in ("ReduceSum", "CumSum"):
        case = Case("f", op, (3, 2, 2), (1,), keepdims=False)
        with pytest.raises(OptPyError, match="failed to legalize operation"):
            _compile([case], tmp_path, inject=())


def test_cumsum_over_dynamic_dims(tmp_path):
    """A CumSum's candidates do not depend on its sizes: over dynamic ones (a dynamic sequence) the select of
    per-axis copies compiles and equals numpy, for every axis, forward exclusive and reverse inclusive."""
    t, a = "!torch.vtensor<[?,?],f32>", "!torch.vtensor<[],si64>"
    functions = [
        f"func.func @f{e}{r}(%x: {t}, %a: {a}) -> {t} attributes {{torch.onnx_meta.opset_version = 18 : si64}} {{\n"
        f'  %r = torch.operator "onnx.CumSum"(%x, %a) {{torch.onnx.exclusive = {e} : si64, '
        f"torch.onnx.reverse = {r} : si64}} : ({t}, {a}) -> {t}\n  return %r : {t}\n}}\n"
        for e, r in ((1, 0), (0, 1))
    ]
    path = tmp_path / "p.mlir"
    path.write_text("".join(functions))
    vmfb = e2e.compile_program(str(path), CPU, inject=PASS)
    rng = np.random.default_rng(5)
    for shape in ((5, 7), (1, 3)):
        x = rng.uniform(0.5, 1.5, shape).astype(np.float32)
        for axis in (0, 1, -1, -2):
            for e, r in ((1, 0), (0, 1)):
                (got,) = e2e.run_runtime(vmfb, CPU, f"f{e}{r}", [x, np.array(axis, np.int64)])
                want = _cumsum(x, axis % 2, bool(e), bool(r))
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"{shape} axis {axis} e{e} r{r}")


def test_onnx_test_passes_with_fixes(tmp_path):
    """onnx_ops' test_reduce_l1_do_not_keepdims_example: ``opt-py compile --fixes``, then the suite's check."""
    folder = ONNX_TEST / "test_reduce_l1_do_not_keepdims_example"
    if not (folder / "model.mlir").exists():
        pytest.skip(f"the peers' onnx_ops suite is not at {folder}")
    vmfb = tmp_path / "model.vmfb"
    flags = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
    opt_py = [sys.executable, "-m", "opt_py", "compile", "--fixes", *flags, "model.mlir", "-o", str(vmfb)]
    proc = subprocess.run(opt_py, cwd=folder, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    run = [e2e.runtime_tool("iree-run-module"), f"--module={vmfb}", "--device=local-sync"]
    proc = subprocess.run([*run, "--flagfile=run_module_io_flags.txt"], cwd=folder, capture_output=True, text=True)
    assert proc.returncode == 0 and "[SUCCESS]" in proc.stdout, proc.stdout + proc.stderr

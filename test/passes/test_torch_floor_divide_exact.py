"""torch-floor-divide-exact end to end: integer floor divisions compiled for llvm-cpu equal numpy's, exactly.

Stock IREE computes si32/si64 floor division in f32 (torch-mlir's lowering)
and is wrong wherever an operand needs more than 24 bits: torch-mlir's own
e2e test ElementwiseDivScalarRoundingModeFloorInt64Module gets (2^63 - 2) //
2^30 as 2^33 (torch: 2^33 - 1). With the pass applied to the module as
parsed, each function equals ``np.floor_divide`` of the operands converted to
the result's dtype (Python's floor division, which is torch's: checked
against torch 2.13 CPU on these inputs before writing the test). Operands
are drawn over the dtype's whole range and near its ends, with signs mixed;
left out are divisors of 0 (torch raises) and INT_MIN / -1 (torch's CPU
kernel traps).

All cases are functions of one module compiled once.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from torch_e2e import NUMPY, compile_fixed, vtensor

PASS = "torch-floor-divide-exact"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    """``op(a, b)`` typed ``[sizes], dtype``; ``b`` an array (a tensor operand) or an int (a scalar)."""

    name: str
    op: str  # "div_floor", "floor_divide", "div_scalar_floor", "floor_divide_scalar"
    a: np.ndarray
    a_sizes: list
    b: np.ndarray | int
    b_sizes: list | None
    dtype: str

    def function(self) -> str:
        at = vtensor(self.a_sizes, _torch(self.a.dtype))
        shape = np.broadcast_shapes(self.a.shape, np.shape(self.b))
        pad = [1] * (len(shape) - len(self.a_sizes)) + list(self.a_sizes)  # a dynamic in a: dynamic in the result
        rt = vtensor([None if p is None else s for p, s in zip(pad, shape)], self.dtype)
        if self.op in ("div_scalar_floor", "floor_divide_scalar"):
            head = f"func.func @{self.name}(%a: {at}) -> {rt} {{\n  %b = torch.constant.int {self.b}"
            body = {
                "div_scalar_floor": f"torch.aten.div.Scalar_mode %a, %b, %mode : {at}, !torch.int, !torch.str -> {rt}",
                "floor_divide_scalar": f"torch.aten.floor_divide.Scalar %a, %b : {at}, !torch.int -> {rt}",
            }[self.op]
        else:
            bt = vtensor(self.b_sizes, _torch(self.b.dtype))
            head = f"func.func @{self.name}(%a: {at}, %b: {bt}) -> {rt} {{"
            body = {
                "div_floor": f"torch.aten.div.Tensor_mode %a, %b, %mode : {at}, {bt}, !torch.str -> {rt}",
                "floor_divide": f"torch.aten.floor_divide %a, %b : {at}, {bt} -> {rt}",
            }[self.op]
        return f'{head}\n  %mode = torch.constant.str "floor"\n  %r = {body}\n  return %r : {rt}\n}}'

    def inputs(self) -> list:
        return [self.a] if isinstance(self.b, int) else [self.a, self.b]

    def expected(self) -> np.ndarray:
        dtype = NUMPY[self.dtype]
        return np.floor_divide(self.a.astype(dtype), np.asarray(self.b).astype(dtype))


def _torch(dtype) -> str:
    return {np.dtype(v): k for k, v in NUMPY.items()}[np.dtype(dtype)]


def operands(rng, shape, dtype) -> tuple[np.ndarray, np.ndarray]:
    """Dividends and divisors of ``dtype``: uniform over the range, near both ends, small; no divisor 0, no
    INT_MIN / -1."""
    info = np.iinfo(dtype)
    n = int(np.prod(shape))

    def draw():
        pools = [
            rng.integers(info.min, info.max, n, endpoint=True),
            rng.integers(info.max - 1000, info.max, n, endpoint=True),
            rng.integers(info.min, info.min + 1000, n, endpoint=True),
            rng.integers(-(2**24) - 5, 2**24 + 5, n),
            rng.integers(-40, 40, n),
        ]
        return np.choose(rng.integers(0, len(pools), n), pools).astype(dtype)

    a, b = draw(), draw()
    b[b == 0] = 3
    b[(a == info.min) & (b == -1)] = 7
    return a.reshape(shape), b.reshape(shape)


def cases() -> list[Case]:
    rng = np.random.default_rng(63)
    out = []
    for dtype, np_type in (("si64", np.int64), ("si32", np.int32)):
        a, b = operands(rng, (3, 17), np_type)
        out.append(Case(f"div_floor_{dtype}", "div_floor", a, [3, 17], b, [3, 17], dtype))
        out.append(Case(f"floor_divide_{dtype}_dynamic", "floor_divide", a, [None, 17], b, [None, 17], dtype))
        column, _ = operands(rng, (3, 1), np_type)
        _, row = operands(rng, (17,), np_type)
        out.append(Case(f"floor_divide_{dtype}_broadcast", "floor_divide", column, [3, 1], row, [17], dtype))
        for divisor in (2**30, -7):
            tag = "neg" if divisor < 0 else "pos"
            out.append(Case(f"div_scalar_floor_{dtype}_{tag}", "div_scalar_floor", a, [3, 17], divisor, None, dtype))
            out.append(
                Case(f"floor_divide_scalar_{dtype}_{tag}", "floor_divide_scalar", a, [3, 17], divisor, None, dtype)
            )
        # How torch exports `torch.div(x, 2**30, rounding_mode="floor")`: the scalar as a 0-d si64 tensor.
        zero_d = np.array(-(2**30) + 1, dtype=np.int64)
        out.append(Case(f"div_floor_{dtype}_by_0d_si64", "div_floor", a, [3, 17], zero_d, [], dtype))
    # torch-mlir's ElementwiseDivScalarRoundingModeFloorInt64Module inputs.
    near = np.array([9223372036854775806, -9223372036854775807, 1073741824, -3], dtype=np.int64)
    out.append(Case("torch_mlir_e2e_inputs", "div_floor", near, [4], np.array(1073741824), [], "si64"))
    return out


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_fixed(program(CASES), tmp_path_factory.mktemp("floordiv"), PASS)


def test_stock_is_wrong_near_int64_max(tmp_path):
    """Stock's f32 floor division gives 2^33 for (2^63 - 2) // 2^30: this test notices when IREE fixes it."""
    case = CASES[-1]
    path = tmp_path / "stock.mlir"
    path.write_text(program([case]))
    (out,) = e2e.run_runtime(e2e.compile_program(str(path), CPU), CPU, case.name, case.inputs())
    assert out[0] == 2**33 and case.expected()[0] == 2**33 - 1, out


def test_the_pass_rewrites_every_case():
    text = run_pipeline(program(CASES), PASS)
    assert "torch.aten.floor_divide" not in text and "torch.aten.div.Scalar_mode" not in text
    assert text.count("torch.aten.div.Tensor_mode") == text.count("torch.aten.where.self") == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_floor_divide_matches_numpy(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, case.inputs())
    want = case.expected()
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape)
    assert np.array_equal(out, want), (case.a, case.b, out, want)

"""torch-decompose-logsumexp end to end: ``torch.logsumexp`` programs compiled for llvm-cpu equal numpy's.

Stock IREE cannot lower ``torch.aten.logsumexp``; with the pass applied to
the module as parsed, every program compiles and each function equals the
logsumexp of its input computed in float64 (the shift by the finite max that
keeps ``exp`` from overflowing included), within the dtype's rounding: rows
of ordinary values, rows whose ``exp`` overflows without the shift, rows all
``-inf`` (``-inf``), rows holding ``+inf`` (``+inf``) and NaN (NaN), as
torch gives them; keepdim both ways, several dims, a dynamic size, an empty reduction, f16.
(f64 is left out: a stock f64 program's result buffer is refused at run time
under IREE's f64 demotion, issue 35, whatever the op.) Where torch is installed, ``torch.logsumexp`` is checked to agree with
the same reference on the same inputs.

All cases are functions of one module compiled once.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections
from torch_e2e import NUMPY, compile_fixed, vtensor

PASS = "torch-decompose-logsumexp"
CPU = e2e.TARGETS["cpu"]
RTOL = {"f16": 4e-3, "f32": 2e-6}


@dataclass
class Case:
    name: str
    sizes: list  # None: dynamic
    dtype: str
    dims: list
    keepdim: bool
    array: np.ndarray

    def result_sizes(self) -> list:
        rank = len(self.sizes)
        wrapped = [d % rank for d in self.dims]
        if self.keepdim:
            return [1 if d in wrapped else s for d, s in enumerate(self.sizes)]
        return [s for d, s in enumerate(self.sizes) if d not in wrapped]

    def function(self) -> str:
        x, r = vtensor(self.sizes, self.dtype), vtensor(self.result_sizes(), self.dtype)
        ints = [f"  %d{k} = torch.constant.int {d}" for k, d in enumerate(self.dims)]
        listed = ", ".join(f"%d{k}" for k in range(len(self.dims)))
        return "\n".join(
            [
                f"func.func @{self.name}(%x: {x}) -> {r} {{",
                *ints,
                f"  %dims = torch.prim.ListConstruct {listed} : ({', '.join(['!torch.int'] * len(self.dims))}) -> "
                "!torch.list<int>",
                f"  %keep = torch.constant.bool {'true' if self.keepdim else 'false'}",
                f"  %r = torch.aten.logsumexp %x, %dims, %keep : {x}, !torch.list<int>, !torch.bool -> {r}",
                f"  return %r : {r}",
                "}",
            ]
        )

    def expected(self) -> np.ndarray:
        """In float64: ``log(sum(exp(x - m))) + m``, ``m`` the max where finite, else 0."""
        x = self.array.astype(np.float64)
        dims = tuple(d % x.ndim for d in self.dims)
        with np.errstate(all="ignore"):
            if x.size == 0:  # torch: log(sum(exp(x))), -inf
                out = np.log(np.sum(np.exp(x), axis=dims, keepdims=True))
                return out if self.keepdim else np.squeeze(out, axis=dims)
            m = np.max(x, axis=dims, keepdims=True)
            m = np.where(np.isinf(m), 0.0, m)
            out = np.log(np.sum(np.exp(x - m), axis=dims, keepdims=True)) + m
        return out if self.keepdim else np.squeeze(out, axis=dims)


def cases() -> list[Case]:
    rng = np.random.default_rng(5)
    rows = rng.standard_normal((6, 7)).astype(np.float32) * 4
    rows[1] += 200.0  # exp overflows f32 without the shift
    rows[2] = -np.inf  # all -inf: -inf
    rows[3, 2] = np.inf  # +inf
    rows[4, 5] = np.nan
    rows[5, :3] = -np.inf
    return [
        Case("rows", [6, 7], "f32", [1], False, rows),
        Case("columns_kept", [6, 7], "f32", [-2], True, rows),
        Case("two_dims_dynamic", [None, 4, 5], "f32", [0, -1], True, rng.standard_normal((3, 4, 5)).astype(np.float32)),
        Case("all_dims", [2, 3], "f32", [1, 0], False, rng.standard_normal((2, 3)).astype(np.float32) * 30),
        Case("half", [6, 14, 2], "f16", [2], False, rng.standard_normal((6, 14, 2)).astype(np.float16)),
        Case("half_long", [4, 300], "f16", [1], False, (rng.standard_normal((4, 300)) * 3).astype(np.float16)),
        Case("empty_dynamic", [None, 3], "f32", [0], False, np.zeros((0, 3), np.float32)),
    ]


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_fixed(program(CASES), tmp_path_factory.mktemp("logsumexp"), PASS)


def test_stock_fails_on_logsumexp(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[:1]))
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("failed to legalize operation 'torch.constant" in m for m in res.messages), res.messages[
        -3:
    ]


def test_the_pass_rewrites_every_case():
    assert "torch.aten.logsumexp" not in run_pipeline(program(CASES), PASS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_logsumexp_matches_numpy(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, [case.array])
    want = case.expected()
    assert out.shape == want.shape and out.dtype == NUMPY[case.dtype], (out.shape, out.dtype)
    got = out.astype(np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(want)), (got, want)
    assert np.array_equal(np.isinf(got) & (got > 0), np.isinf(want) & (want > 0)), (got, want)
    assert np.array_equal(np.isinf(got) & (got < 0), np.isinf(want) & (want < 0)), (got, want)
    finite = np.isfinite(want)
    scale = np.maximum(np.abs(want[finite]), 1.0)
    assert np.all(np.abs(got[finite] - want[finite]) <= RTOL[case.dtype] * scale), (got, want)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_reference_is_torchs(case):
    torch = pytest.importorskip("torch")
    got = torch.logsumexp(torch.from_numpy(case.array), dim=case.dims, keepdim=case.keepdim).double().numpy()
    want = case.expected()
    assert got.shape == want.shape
    assert np.allclose(got, want, rtol=RTOL[case.dtype], atol=0, equal_nan=True), (got, want)

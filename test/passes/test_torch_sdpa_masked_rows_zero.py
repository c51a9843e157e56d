"""torch-sdpa-masked-rows-zero end to end: fully masked attention rows are 0 (or NaN) exactly where torch's are.

Stock IREE computes a query row whose mask hides every key as NaN
(torch-mlir's ``ScaledDotProductAttentionBoolMaskModule_basic``); torch 2.13
returns 0. With the pass applied to the module as parsed, each function
equals ``sdpa_reference``: numpy written as torch's math kernel computes
(scores plus the mask as 0/-inf, ``_safe_softmax``: a row of -inf scores
gets zero weights, then ``@ v``). Rows with a visible key within 1e-5 (the
attention op is stock's); fully masked rows exactly: 0.0 with finite inputs,
NaN where torch's is (a NaN query in the row; an infinite value, 0 * inf).
``test_reference_is_torch`` checks the reference against
``torch.nn.functional.scaled_dot_product_attention`` on every case's inputs
(skipped without torch).

All cases are functions of one module compiled once.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import compile_fixed, sdpa_reference, vtensor

PASS = "torch-sdpa-masked-rows-zero"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    mask: np.ndarray
    dynamic: bool = False  # the query and key lengths dynamic

    def _type(self, a, dims=()):
        sizes = [None if i in dims else s for i, s in enumerate(a.shape)]
        return vtensor(sizes, {np.dtype(np.bool_): "i1", np.dtype(np.float32): "f32"}[a.dtype])

    def function(self) -> str:
        r = len(self.q.shape)
        seq = (r - 2,) if self.dynamic else ()
        qt, kt, vt = self._type(self.q, seq), self._type(self.k, seq), self._type(self.v, seq)
        mt = self._type(self.mask, (self.mask.ndim - 2, self.mask.ndim - 1) if self.dynamic else ())
        out = vtensor([*self.q.shape[:-1], self.v.shape[-1]], "f32")
        if self.dynamic:
            out = vtensor(
                [None if i == r - 2 else s for i, s in enumerate([*self.q.shape[:-1], self.v.shape[-1]])], "f32"
            )
        return "\n".join(
            [
                f"func.func @{self.name}(%q: {qt}, %k: {kt}, %v: {vt}, %m: {mt}) -> {out} {{",
                "  %dropout = torch.constant.float 0.000000e+00",
                "  %false = torch.constant.bool false",
                "  %none = torch.constant.none",
                f"  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %dropout, %false, %none, %false : "
                f"{qt}, {kt}, {vt}, {mt}, !torch.float, !torch.bool, !torch.none, !torch.bool -> {out}",
                f"  return %r : {out}",
                "}",
            ]
        )

    def inputs(self) -> list:
        return [self.q, self.k, self.v, self.mask]

    def expected(self) -> np.ndarray:
        return sdpa_reference(self.q, self.k, self.v, self.mask)


def _qkv(rng, b, h, lq, lk, e, ev):
    f32 = np.float32
    return (
        rng.standard_normal((b, h, lq, e)).astype(f32),
        rng.standard_normal((b, h, lk, e)).astype(f32),
        rng.standard_normal((b, h, lk, ev)).astype(f32),
    )


def cases() -> list[Case]:
    rng = np.random.default_rng(2)
    out = []
    # torch-mlir's test: randn > 0.5 masks, then three rows hidden for sure.
    q, k, v = _qkv(rng, 2, 3, 8, 12, 16, 20)
    mask = rng.standard_normal((2, 3, 8, 12)) > 0.5
    mask[0, 0, 1], mask[1, 2, 7], mask[1, 0, 0] = False, False, False
    out.append(Case("bool_mask_e2e_shapes", q, k, v, mask))
    # A [1,1,L,S] mask broadcast over batch and heads (a rank-2 one stock's lowering refuses:
    # "'tensor.collapse_shape' op expected the expanded type ... to have a higher (or same) rank").
    q, k, v = _qkv(rng, 2, 2, 6, 9, 8, 8)
    mask = rng.random((1, 1, 6, 9)) < 0.3
    mask[..., 2, :] = False
    out.append(Case("bool_mask_broadcast", q, k, v, mask))
    # Key padding: batch 1's keys all hidden, a [B,1,1,S] mask (every row of it fully masked).
    q, k, v = _qkv(rng, 2, 2, 5, 7, 8, 4)
    mask = np.ones((2, 1, 1, 7), np.bool_)
    mask[1] = False
    out.append(Case("bool_key_padding", q, k, v, mask))
    # A float mask: -inf and finite entries, two rows all -inf.
    q, k, v = _qkv(rng, 2, 3, 8, 12, 16, 20)
    fmask = np.where(rng.random((2, 1, 8, 12)) < 0.5, -np.inf, rng.standard_normal((2, 1, 8, 12))).astype(np.float32)
    fmask[0, 0, 3], fmask[1, 0, 0] = -np.inf, -np.inf
    out.append(Case("float_mask_inf_rows", q, k, v, fmask))
    # Dynamic lengths.
    q, k, v = _qkv(rng, 1, 2, 7, 7, 16, 16)
    mask = np.tril(np.ones((7, 7), np.bool_))[None, None].copy()
    mask[..., 4, :] = False
    out.append(Case("bool_mask_dynamic", q, k, v, mask, dynamic=True))
    # NaN and infinities: a NaN query in a hidden row (torch: NaN), an infinite value (torch: 0 * inf = NaN in
    # every hidden row of that head), a NaN query in a visible row.
    q, k, v = _qkv(rng, 1, 2, 6, 5, 4, 3)
    mask = rng.random((1, 2, 6, 5)) < 0.6
    mask[0, 0, 1], mask[0, 0, 4], mask[0, 1, 2] = False, False, False
    mask[0, 0, 0, 0] = True
    q[0, 0, 1, 2] = np.nan
    q[0, 0, 0, 1] = np.nan
    v[0, 1, 3, 0] = np.inf
    out.append(Case("nan_and_inf", q, k, v, mask))
    return out


CASES = cases()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_fixed(program(CASES), tmp_path_factory.mktemp("sdpa"), PASS)


def _hidden_rows(case) -> np.ndarray:
    """Where a query row sees no key, broadcast to the output's shape."""
    m = case.mask if case.mask.dtype == np.bool_ else case.mask != -np.inf
    rows = ~np.any(np.broadcast_to(m, (*case.q.shape[:-1], case.k.shape[-2])), axis=-1, keepdims=True)
    return np.broadcast_to(rows, (*case.q.shape[:-1], case.v.shape[-1]))


def test_every_case_has_hidden_rows():
    assert all(_hidden_rows(c).any() for c in CASES)


def test_stock_gives_nan_where_torch_gives_zero(tmp_path):
    case = CASES[0]
    path = tmp_path / "stock.mlir"
    path.write_text(program([case]))
    (out,) = e2e.run_runtime(e2e.compile_program(str(path), CPU), CPU, case.name, case.inputs())
    hidden = _hidden_rows(case)
    assert np.isnan(out[hidden]).all() and (case.expected()[hidden] == 0).all()


def test_reference_is_torch():
    torch = pytest.importorskip("torch")
    for case in CASES:
        args = [torch.from_numpy(x) for x in case.inputs()]
        got = torch.nn.functional.scaled_dot_product_attention(*args).numpy()
        want = case.expected()
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True, err_msg=case.name)
        hidden = _hidden_rows(case)
        assert np.array_equal(got[hidden], want[hidden], equal_nan=True), case.name


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_fully_masked_rows_as_torch(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, case.inputs())
    want = case.expected()
    assert out.shape == want.shape, out.shape
    hidden = _hidden_rows(case)
    assert np.array_equal(out[hidden], want[hidden], equal_nan=True), (out[hidden], want[hidden])
    np.testing.assert_allclose(out[~hidden], want[~hidden], rtol=1e-5, atol=1e-5, equal_nan=True)

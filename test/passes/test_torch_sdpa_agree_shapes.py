"""torch-sdpa-agree-shapes end to end: attentions whose types disagree compile and equal torch's math.

Randomized: rank 3 or 4; every size of q, k, v, the mask and the result drawn static or dynamic
independently (a size-1 dim stays static, as torch.export keeps it: under
``torch.assume_strict_symbolic_shapes`` a dynamic dim never broadcasts); no mask, a bool or a float mask of rank 2 up to the query's
with 1s drawn in its batch dims; ``is_causal`` where there is no mask. Each program is compiled for
llvm-cpu with the pass and torch-sdpa-masked-rows-zero after it, as ``--fixes`` runs them (a bool
mask's fully hidden rows must still be 0, one case forces such rows under a rank-2 mask), and equals
``sdpa_reference`` (torch's math kernel in numpy: a causal flag is a ``tril`` mask) within 1e-5;
``test_reference_is_torch`` checks the reference against
``torch.nn.functional.scaled_dot_product_attention`` (skipped without torch). The campaign's five
failing forms are pinned on stock (each fails to compile) and compile with the pass. More random
programs run under ``--runslow``.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from torch_e2e import sdpa_reference, vtensor

PASS = "torch-sdpa-agree-shapes"
PIPELINE = "torch-sdpa-agree-shapes,torch-sdpa-masked-rows-zero"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    name: str
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    mask: np.ndarray | None
    causal: bool
    dynamic: dict  # operand name ("q", "k", "v", "mask", "out") -> the set of its dims typed dynamic

    def _type(self, key, shape, dtype="f32"):
        return vtensor([None if i in self.dynamic.get(key, ()) else s for i, s in enumerate(shape)], dtype)

    def out_shape(self):
        return (*self.q.shape[:-1], self.v.shape[-1])

    def function(self) -> str:
        qt, kt, vt = (self._type(n, a.shape) for n, a in (("q", self.q), ("k", self.k), ("v", self.v)))
        out = self._type("out", self.out_shape())
        if self.mask is None:
            mt, args, margs = "!torch.none", "", "%none"
        else:
            mt = self._type("mask", self.mask.shape, "i1" if self.mask.dtype == np.bool_ else "f32")
            args, margs = f", %m: {mt}", "%m"
        causal = "%true" if self.causal else "%false"
        return "\n".join(
            [
                f"func.func @{self.name}(%q: {qt}, %k: {kt}, %v: {vt}{args}) -> {out} "
                "attributes {torch.assume_strict_symbolic_shapes} {",
                "  %dropout = torch.constant.float 0.000000e+00",
                "  %false = torch.constant.bool false",
                "  %true = torch.constant.bool true",
                "  %none = torch.constant.none",
                f"  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, {margs}, %dropout, {causal}, %none, "
                f"%false : {qt}, {kt}, {vt}, {mt}, !torch.float, !torch.bool, !torch.none, !torch.bool -> {out}",
                f"  return %r : {out}",
                "}",
            ]
        )

    def inputs(self) -> list:
        return [self.q, self.k, self.v] + ([] if self.mask is None else [self.mask])

    def reference_mask(self):
        if self.causal:
            return np.tril(np.ones((self.q.shape[-2], self.k.shape[-2]), np.bool_))
        return np.zeros((), np.float32) if self.mask is None else self.mask

    def expected(self) -> np.ndarray:
        return sdpa_reference(self.q, self.k, self.v, self.reference_mask())


def random_case(rng, name: str) -> Case:
    n = int(rng.integers(3, 5))
    batch = [int(x) for x in rng.integers(1, 4, n - 2)]
    lq, lk, e, ev = (int(x) for x in rng.integers(2, 9, 4))
    f32 = np.float32
    q = rng.standard_normal((*batch, lq, e)).astype(f32)
    k = rng.standard_normal((*batch, lk, e)).astype(f32)
    v = rng.standard_normal((*batch, lk, ev)).astype(f32)
    kind = rng.choice(["none", "causal", "bool", "float"])
    mask = None
    if kind in ("bool", "float"):
        rank = int(rng.integers(2, n + 1))
        full = (*batch, lq, lk)[n - rank :]
        shape = [1 if i < rank - 2 and rng.random() < 0.5 else s for i, s in enumerate(full)]
        mask = rng.random(shape) < 0.7 if kind == "bool" else rng.standard_normal(shape).astype(f32)
    shapes = {"q": q.shape, "k": k.shape, "v": v.shape, "out": (*q.shape[:-1], ev)}
    if mask is not None:
        shapes["mask"] = mask.shape
    # A size-1 dim stays static, as torch.export keeps it (it would broadcast, which a dynamic dim does not).
    dynamic = {key: {i for i, s in enumerate(shape) if s != 1 and rng.random() < 0.4} for key, shape in shapes.items()}
    return Case(name, q, k, v, mask, kind == "causal", dynamic)


def cases(count: int, seed: int) -> list[Case]:
    rng = np.random.default_rng(seed)
    return [random_case(rng, f"random{seed}_{i}") for i in range(count)]


def hidden_rows_case() -> Case:
    """A rank-2 bool mask with two rows hiding every key, under a rank-4 query: both fixes at once."""
    rng = np.random.default_rng(7)
    f32 = np.float32
    q, k, v = (rng.standard_normal(s).astype(f32) for s in ((2, 2, 5, 8), (2, 2, 6, 8), (2, 2, 6, 4)))
    mask = rng.random((5, 6)) < 0.5
    mask[1], mask[3] = False, False
    return Case("hidden_rows_rank2_mask", q, k, v, mask, False, {"q": {0}, "k": {2}})


def campaign_forms() -> list[Case]:
    """The llvm-cpu fuzz campaign's five failing forms (seeds 7, 105, 175, 279, 121), one function each."""
    rng = np.random.default_rng(3)

    def r(*s):
        return rng.standard_normal(s).astype(np.float32)

    x = r(2, 2, 8)
    return [
        Case("lower_rank_mask", r(2, 4, 8), r(2, 3, 8), r(2, 3, 8), r(4, 3), False, {}),
        Case("dynamic_batch_static_result", r(2, 6, 8), r(2, 7, 8), r(2, 7, 8), None, False, {"q": {0}, "k": {1}}),
        Case("static_head_dim_vs_dynamic", r(2, 4, 8), r(2, 7, 8), r(2, 7, 8), None, False, {"q": {0}, "k": {2}}),
        Case("causal_length_static_vs_dynamic", x, x, r(2, 2, 8), None, True, {"q": {1}, "k": {1}, "v": {0}}),
        Case("causal_dynamic_key_batch", r(2, 5, 8), r(2, 7, 8), r(2, 7, 8), None, True, {"k": {0, 2}, "v": {0, 2}}),
    ]


CASES = [*cases(6, 0), hidden_rows_case()]
FORMS = campaign_forms()


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


def compile_with_fixes(chosen, tmp_path) -> bytes:
    path = tmp_path / "fixed.mlir"
    path.write_text(run_pipeline(program(chosen), PIPELINE))
    return e2e.compile_program(str(path), CPU)


def check(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, case.inputs())
    want = case.expected()
    assert out.shape == want.shape, (out.shape, want.shape)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5, err_msg=case.name)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_with_fixes([*CASES, *FORMS], tmp_path_factory.mktemp("sdpa-agree"))


def test_the_random_cases_need_the_pass():
    """Most random cases have types that disagree (the pass rewrites them); the cases cover every mask kind."""
    rewritten = run_pipeline(program(CASES), PASS).count("torch.tensor_static_info_cast")
    assert rewritten >= len(CASES) // 2
    kinds = {("causal" if c.causal else "none") if c.mask is None else str(c.mask.dtype) for c in CASES}
    assert kinds == {"none", "causal", "bool", "float32"}, kinds


@pytest.mark.parametrize("case", CASES + FORMS, ids=lambda c: c.name)
def test_attention_matches_reference(case, vmfb):
    check(case, vmfb)


def test_hidden_rows_are_zero(vmfb):
    case = CASES[-1]
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, case.inputs())
    assert (out[..., [1, 3], :] == 0).all() and np.abs(out[..., [0, 2, 4], :]).max() > 0


@pytest.mark.parametrize("case", FORMS, ids=lambda c: c.name)
def test_stock_fails_on_the_campaign_forms(case, tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program([case]))
    res = e2e.compile_result(str(path), CPU)
    assert not res.ok, case.name


def test_reference_is_torch():
    torch = pytest.importorskip("torch")
    for case in [*CASES, *FORMS]:
        args = [torch.from_numpy(x) for x in case.inputs()[:3]]
        mask = None if case.mask is None else torch.from_numpy(case.mask)
        got = torch.nn.functional.scaled_dot_product_attention(*args, attn_mask=mask, is_causal=case.causal)
        np.testing.assert_allclose(got.numpy(), case.expected(), rtol=1e-5, atol=1e-6, err_msg=case.name)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_more_random_attentions(seed, tmp_path):
    chosen = cases(12, seed)
    vmfb = compile_with_fixes(chosen, tmp_path)
    for case in chosen:
        check(case, vmfb)

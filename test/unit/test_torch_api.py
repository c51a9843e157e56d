"""``opt_py.torch.compile``: a PyTorch module to a loaded IREE module with the fixes, in one call.

Everywhere, iree-turbine's export is stood in for by a committed export (the
corpus's MoE router, whose numbers stock IREE gets wrong and ``--fixes``
right), so compiling with or without the fixes, loading and calling are
checked without torch. Where torch and iree-turbine are installed (the
``models`` extra), real modules are exported and compared with PyTorch: a
decoder's masks, outputs nested as users nest them (dicts, dataclasses,
``ModelOutput``) with Python numbers among them, f64 computed in f64, and a
second compile served by the module cache.
"""

import shutil
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from opt_py import OptPyError

ROOT = Path(__file__).resolve().parents[2]
ROUTER = ROOT / "test" / "models" / "moe_router"


@pytest.fixture
def fake_turbine(monkeypatch):
    """``iree.turbine.aot.export`` that "exports" the committed MoE router, recording its arguments."""
    calls = []

    class Exported:
        mlir_module = types.SimpleNamespace(get_asm=lambda **_: (ROUTER / "model.mlir").read_text())

        def save_mlir(self, path):
            shutil.copyfile(ROUTER / "model.mlir", path)

    def export(model, *, args, kwargs, dynamic_shapes, strict_export):
        calls.append((model, args, kwargs, dynamic_shapes, strict_export))
        return Exported()

    aot = types.SimpleNamespace(export=export)
    monkeypatch.setitem(sys.modules, "iree.turbine", types.SimpleNamespace(aot=aot))
    monkeypatch.setitem(sys.modules, "iree.turbine.aot", aot)
    return calls


def router_io():
    x = np.load(ROUTER / "input0.npy")
    return x, [np.load(ROUTER / f"expected{i}.npy") for i in range(2)]


def test_with_the_fixes_the_numbers_are_right(fake_turbine):
    import opt_py.torch

    x, want = router_io()
    compiled = opt_py.torch.compile("model", (x,), dynamic_shapes={"x": {0: "tokens"}})
    got = compiled(x)
    assert isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], np.ndarray)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-6)
    assert fake_turbine == [("model", (x,), None, {"x": {0: "tokens"}}, False)]


def test_stock_is_what_iree_gives(fake_turbine):
    """fixes=False is stock IREE, which scatters the router's two results into one buffer (pinned wrong)."""
    import opt_py.torch

    x, want = router_io()
    got = opt_py.torch.compile("model", (x,), fixes=False)(x)
    assert any(not np.allclose(g, w, rtol=1e-4, atol=1e-6) for g, w in zip(got, want))


def test_an_unknown_target_is_an_error(fake_turbine):
    import opt_py.torch

    with pytest.raises(OptPyError, match="unknown target 'tpu'"):
        opt_py.torch.compile("model", (), target="tpu")


def test_a_gpu_target_compiles_here(fake_turbine):
    import opt_py.torch

    compiled = opt_py.torch.compile("model", (), target="cuda")
    assert compiled.target == "cuda" and len(compiled.vmfb) > 1000


def test_a_pytorch_decoder_mask_compiles_and_matches():
    """torch.diff, `&` on bool tensors and an unsorted top-k (what transformers' masks and routers use) need
    the frontend fixes; the module then matches PyTorch."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("iree.turbine", reason="exporting needs the `models` extra (torch, iree-turbine)")
    import opt_py.torch
    from torch.export import Dim

    class Mask(torch.nn.Module):
        def forward(self, pos, scores):
            d = torch.diff(pos, prepend=pos[:, :1] - 1, dim=-1)
            keep = (d == 1) & (pos >= 0)
            picked = torch.topk(scores, 2, dim=-1, sorted=False).values.sum(-1)
            return keep.cumsum(-1), picked

    pos = torch.arange(12).reshape(1, 12)
    scores = torch.randn(12, 8, generator=torch.Generator().manual_seed(0))
    seq = Dim("seq", min=2, max=64)
    compiled = opt_py.torch.compile(Mask(), (pos, scores), dynamic_shapes={"pos": {1: seq}, "scores": {0: seq}})
    pos2, scores2 = torch.arange(20).reshape(1, 20), torch.randn(20, 8)
    for got, want in zip(compiled(pos2, scores2), Mask()(pos2, scores2)):
        torch.testing.assert_close(got, want)


def models_extra():
    torch = pytest.importorskip("torch")
    pytest.importorskip("iree.turbine", reason="exporting needs the `models` extra (torch, iree-turbine)")
    return torch


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("OPT_PY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_numbers_and_nested_outputs_come_back_as_the_model_returns_them(cache_dir):
    """A dict holding a tuple, a dataclass and a Hugging Face ModelOutput; a size (a SymInt of a dynamic
    dim: iree-turbine's importer alone fails on it with KeyError) and a constant, as Python numbers."""
    torch = models_extra()
    import dataclasses

    import opt_py.torch
    from torch.export import Dim
    from transformers.modeling_outputs import BaseModelOutput

    @dataclasses.dataclass
    class Stats:
        mean: torch.Tensor
        rows: int

    class Nested(torch.nn.Module):
        def forward(self, x):
            h = torch.tanh(x)
            return {
                "pair": (h * 2, x.shape[0]),
                "stats": Stats(h.mean(0), x.shape[0] + 1),
                "hf": BaseModelOutput(last_hidden_state=h, hidden_states=None),
                "scale": 0.5,
            }

    compiled = opt_py.torch.compile(Nested(), (torch.randn(3, 4),), dynamic_shapes={"x": {0: Dim("n", max=64)}})
    x = torch.randn(7, 4)
    got, want = compiled(x), Nested()(x)
    assert list(got) == ["pair", "stats", "hf", "scale"]
    torch.testing.assert_close(got["pair"][0], want["pair"][0])
    assert got["pair"][1] == 7 and type(got["pair"][1]) is int
    assert isinstance(got["stats"], Stats) and got["stats"].rows == 8 and type(got["stats"].rows) is int
    torch.testing.assert_close(got["stats"].mean, want["stats"].mean)
    assert type(got["hf"]) is BaseModelOutput and list(got["hf"].keys()) == ["last_hidden_state"]
    torch.testing.assert_close(got["hf"].last_hidden_state, want["hf"].last_hidden_state)
    assert got["scale"] == 0.5
    text = repr(compiled)
    assert len(text) < 300 and "returns {pair=(Tensor, int), stats=Stats(mean=Tensor, rows=int)" in text, text
    assert "for 'cpu'" in text and "KiB" in text


@pytest.mark.slow
def test_a_module_returning_only_a_python_number(cache_dir):
    torch = models_extra()
    import opt_py.torch
    from torch.export import Dim

    class Count(torch.nn.Module):
        def forward(self, x):
            return x.shape[0] * x.shape[1]

    compiled = opt_py.torch.compile(Count(), (torch.randn(3, 4),), dynamic_shapes={"x": {0: Dim("n", max=64)}})
    assert compiled(torch.randn(9, 4)) == 36


def test_f64_is_computed_in_f64(cache_dir):
    """IREE demotes f64 to f32 by default (the module then fails at run time in hal.buffer_view.create);
    opt_py.torch.compile keeps f64 for a program that has it: results equal PyTorch's f64 to 1e-12,
    which f32 arithmetic cannot reach."""
    torch = models_extra()
    import opt_py.torch

    class Float64(torch.nn.Module):
        def forward(self, x, w):
            return torch.exp(x @ w) / 3.0, (x * 1e-9).sum()

    g = torch.Generator().manual_seed(0)
    x, w = torch.randn(5, 6, generator=g, dtype=torch.float64), torch.randn(6, 2, generator=g, dtype=torch.float64)
    compiled = opt_py.torch.compile(Float64(), (x, w))
    got, want = compiled(x, w), Float64()(x, w)
    for a, b in zip(got, want):
        assert a.dtype == torch.float64
        torch.testing.assert_close(a, b, rtol=1e-12, atol=1e-15)


def test_unsigned_results_come_back_in_torchs_dtype(cache_dir):
    """IREE's ABI is signless: the runtime hands a uint8 result back as int8 of the same bytes. The model's
    outputs are uint8 as PyTorch's, values above 127 included (a cast, an unsigned max); NumPy in, NumPy out too."""
    torch = models_extra()
    import opt_py.torch

    class Unsigned(torch.nn.Module):
        def forward(self, x):
            u = x.to(torch.uint8)
            return u, torch.max(u, 1)[0], x + 1

    x = torch.tensor([[-3, 200, 7], [255, 0, 129]])
    compiled = opt_py.torch.compile(Unsigned(), (x,))
    got, want = compiled(x), Unsigned()(x)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and torch.equal(a, b), (a, b)
    arrays = compiled(x.numpy())
    assert [a.dtype.name for a in arrays] == ["uint8", "uint8", "int64"]
    assert np.array_equal(arrays[1], want[1].numpy())


def test_a_second_compile_of_the_same_model_is_served_by_the_cache(cache_dir):
    """The second compile is the first's module, read from the cache with what it knows: the module
    scatters into its input's buffer (IREE #16168), so that input is lent as a copy, cached or not."""
    torch = models_extra()
    import opt_py.torch

    class Scatter(torch.nn.Module):
        def forward(self, x, pos, v):
            return x.index_copy(0, pos, v) * 2

    x, pos, v = torch.randn(4, 3), torch.tensor([2]), torch.ones(1, 3)
    first = opt_py.torch.compile(Scatter(), (x, pos, v))
    second = opt_py.torch.compile(Scatter(), (x, pos, v))
    assert not first.cached and second.cached and second.vmfb == first.vmfb
    assert first.written == second.written == [0]
    assert "from the cache" in repr(second)
    before = x.clone()
    for compiled in (first, second):
        torch.testing.assert_close(compiled(x, pos, v), Scatter()(x, pos, v))
        assert torch.equal(x, before)
    assert not opt_py.torch.compile(Scatter(), (x, pos, v), cache=False).cached
    assert opt_py.torch.clear_cache() == 1

"""``opt_py.torch.compile``: a PyTorch module to a loaded IREE module with the fixes, in one call.

Everywhere, iree-turbine's export is stood in for by a committed export (the
corpus's MoE router, whose numbers stock IREE gets wrong and ``--fixes``
right), so compiling with or without the fixes, loading and calling are
checked without torch. Where torch and iree-turbine are installed (the
``models`` extra), a real module is exported and compared with PyTorch.
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

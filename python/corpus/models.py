"""The real-model corpus under test/models/: small PyTorch modules with random weights from a fixed seed
(no downloads), each a ``Spec``, and ``export``, which writes a model's folder with iree-turbine (model.mlir,
input<i>.npy, expected<i>.npy, manifest.json; ``write`` is shared with ``library_models``).
tools/export_models.py is the command; the tests read ``SPECS`` to check that an export reproduces.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "test", "models")
MAX_FILE_BYTES = 2 * 1024 * 1024


@dataclass
class Spec:
    name: str
    family: str
    summary: str
    module: Callable[[], nn.Module]
    # example args for export, and the args the test runs with (from a generator)
    example: Callable[[torch.Generator], tuple]
    run: Callable[[torch.Generator], tuple]
    dynamic: dict | None = None  # torch.export dynamic_shapes, keyed by forward's arg names
    rtol: float = 1e-4
    atol: float = 1e-5
    seed: int = 0
    notes: str = ""
    extra: dict = field(default_factory=dict)


def randn(g, *shape):
    return torch.randn(*shape, generator=g)


def randint(g, hi, *shape):
    return torch.randint(0, hi, shape, generator=g)


SPECS: list[Spec] = []


def spec(**kw):
    SPECS.append(Spec(**kw))


BATCH = Dim("batch", min=2, max=1024)
TOKENS = Dim("tokens", min=2, max=4096)
SEQ = Dim("seq", min=2, max=512)
ROWS = Dim("rows", min=2, max=4096)
N_IDX = Dim("n_idx", min=2, max=4096)


# --------------------------------------------------------------------------
# top-k / argsort / sort
# --------------------------------------------------------------------------


class TopK(nn.Module):
    def forward(self, x):
        return torch.topk(x, 8, dim=-1)


class ArgSort(nn.Module):
    def forward(self, x):
        return torch.argsort(x, dim=-1)


class SortDesc(nn.Module):
    def forward(self, x):
        return torch.sort(x, dim=-1, descending=True)


class Sampler(nn.Module):
    """Logits head + top-k of the probabilities (a sampler's first step); only
    the indices are returned, so the sort's values result is unused."""

    def __init__(self):
        super().__init__()
        self.head = nn.Linear(32, 128)

    def forward(self, h):
        probs = F.softmax(self.head(h), dim=-1)
        return torch.topk(probs, 4, dim=-1).indices


spec(
    name="topk_dynamic",
    family="topk",
    summary="torch.topk(k=8) over 64 columns, dynamic rows",
    module=TopK,
    example=lambda g: (randn(g, 4, 64),),
    run=lambda g: (randn(g, 37, 64),),
    dynamic={"x": {0: ROWS}},
)
spec(
    name="argsort_static",
    family="topk",
    summary="torch.argsort over the last dim, static 8x48",
    module=ArgSort,
    example=lambda g: (randn(g, 8, 48),),
    run=lambda g: (randn(g, 8, 48),),
)
spec(
    name="sort_descending",
    family="topk",
    summary="torch.sort(descending) values+indices, dynamic rows",
    module=SortDesc,
    example=lambda g: (randn(g, 4, 40),),
    run=lambda g: (randn(g, 19, 40),),
    dynamic={"x": {0: ROWS}},
)
spec(
    name="topk_sampler",
    family="topk",
    summary="linear -> softmax -> topk indices only, dynamic batch",
    module=Sampler,
    example=lambda g: (randn(g, 4, 32),),
    run=lambda g: (randn(g, 23, 32),),
    dynamic={"h": {0: BATCH}},
)


# --------------------------------------------------------------------------
# softmax + elementwise, group-norm + SiLU
# --------------------------------------------------------------------------


class SoftmaxMul(nn.Module):
    def forward(self, x, y):
        return F.softmax(x, dim=-1) * y


class ScaledMaskedSoftmax(nn.Module):
    """softmax(x * scale + mask) * gate, the attention-probabilities shape."""

    def forward(self, x, mask, gate):
        return F.softmax(x * 0.125 + mask, dim=-1) * torch.sigmoid(gate)


class GroupNormSiLU(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.GroupNorm(8, 32)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.1)
            self.norm.bias.normal_(0.0, 0.1)

    def forward(self, x):
        return F.silu(self.norm(x))


spec(
    name="softmax_mul",
    family="softmax",
    summary="softmax(x, -1) * y, dynamic rows x 256",
    module=SoftmaxMul,
    example=lambda g: (randn(g, 4, 256), randn(g, 4, 256)),
    run=lambda g: (randn(g, 33, 256), randn(g, 33, 256)),
    dynamic={"x": {0: ROWS}, "y": {0: ROWS}},
    atol=1e-6,
)
spec(
    name="softmax_masked_gate",
    family="softmax",
    summary="softmax(x*s + mask) * sigmoid(gate), static 4x8x64x64",
    module=ScaledMaskedSoftmax,
    example=lambda g: (randn(g, 4, 8, 64, 64), randn(g, 1, 1, 64, 64), randn(g, 4, 8, 64, 64)),
    run=lambda g: (randn(g, 4, 8, 64, 64), randn(g, 1, 1, 64, 64), randn(g, 4, 8, 64, 64)),
    atol=1e-6,
)
spec(
    name="groupnorm_silu",
    family="groupnorm",
    summary="GroupNorm(8, 32) + SiLU on Nx32x16x16, dynamic N",
    module=GroupNormSiLU,
    example=lambda g: (randn(g, 2, 32, 16, 16),),
    run=lambda g: (randn(g, 3, 32, 16, 16),),
    dynamic={"x": {0: BATCH}},
)


# --------------------------------------------------------------------------
# attention
# --------------------------------------------------------------------------


class MHA(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(64, 4, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


class CausalSDPA(nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class CausalSelfAttention(nn.Module):
    """A GPT block's attention: fused qkv projection, causal SDPA, output projection."""

    def __init__(self, d=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out(y.transpose(1, 2).reshape(b, t, d))


spec(
    name="mha_self",
    family="attention",
    summary="nn.MultiheadAttention(64, 4) self-attention, dynamic seq",
    module=MHA,
    example=lambda g: (randn(g, 2, 16, 64),),
    run=lambda g: (randn(g, 2, 21, 64),),
    dynamic={"x": {1: SEQ}},
)
spec(
    name="sdpa_causal",
    family="attention",
    summary="F.scaled_dot_product_attention(is_causal) 2x4xSx32, dynamic S",
    module=CausalSDPA,
    example=lambda g: tuple(randn(g, 2, 4, 16, 32) for _ in range(3)),
    run=lambda g: tuple(randn(g, 2, 4, 45, 32) for _ in range(3)),
    dynamic={"q": {2: SEQ}, "k": {2: SEQ}, "v": {2: SEQ}},
)
spec(
    name="causal_self_attention",
    family="attention",
    summary="qkv linear + causal SDPA + out proj, static 2x32x64",
    module=CausalSelfAttention,
    example=lambda g: (randn(g, 2, 32, 64),),
    run=lambda g: (randn(g, 2, 32, 64),),
)


# --------------------------------------------------------------------------
# one_hot / scatter_ / index_put
# --------------------------------------------------------------------------


class OneHot(nn.Module):
    def forward(self, idx):
        return F.one_hot(idx, 16)


class ScatterRows(nn.Module):
    """zeros(N, 32).scatter_(1, idx, src): write src at column idx of each row."""

    def forward(self, idx, src):
        out = torch.zeros(idx.shape[0], 32, dtype=src.dtype)
        out.scatter_(1, idx, src)
        return out


class IndexPutAccumulate(nn.Module):
    """x.index_put((idx,), vals, accumulate=True): a static table, a dynamic
    number of updates (mixed static/dynamic dims)."""

    def forward(self, x, idx, vals):
        return x.index_put((idx,), vals, accumulate=True)


class IndexPutRows(nn.Module):
    """out[idx] = vals (no accumulate), dynamic table rows and updates."""

    def forward(self, x, idx, vals):
        out = x.clone()
        out[idx] = vals
        return out


class MoERouter(nn.Module):
    """A top-2 MoE router: gate -> softmax -> top-2, then the dispatch mask and
    the combine weights scattered into zeros over a dynamic token count."""

    def __init__(self, d=32, experts=8):
        super().__init__()
        self.experts = experts
        self.gate = nn.Linear(d, experts, bias=False)

    def forward(self, x):
        probs = F.softmax(self.gate(x), dim=-1)
        w, idx = torch.topk(probs, 2, dim=-1)
        w = w / w.sum(dim=-1, keepdim=True)
        dispatch = torch.zeros_like(probs).scatter(1, idx, 1.0)
        combine = torch.zeros_like(probs).scatter(1, idx, w)
        return dispatch, combine


class MoEOneHotCounts(nn.Module):
    """one_hot of the top-2 expert ids summed per token and per expert (the load
    statistics of a router), dynamic token count."""

    def __init__(self, d=32, experts=8):
        super().__init__()
        self.experts = experts
        self.gate = nn.Linear(d, experts, bias=False)

    def forward(self, x):
        idx = torch.topk(self.gate(x), 2, dim=-1).indices
        mask = F.one_hot(idx, self.experts).sum(dim=1)
        return mask, mask.sum(dim=0)


def _unique_idx(g, n, hi):
    return torch.randperm(hi, generator=g)[:n]


spec(
    name="one_hot_static",
    family="scatter",
    summary="F.one_hot(idx, 16) on static 4x24 ids",
    module=OneHot,
    example=lambda g: (randint(g, 16, 4, 24),),
    run=lambda g: (randint(g, 16, 4, 24),),
)
spec(
    name="scatter_rows_dynamic",
    family="scatter",
    summary="zeros(N,32).scatter_(1, idx, src), dynamic N",
    module=ScatterRows,
    example=lambda g: (torch.stack([_unique_idx(g, 4, 32) for _ in range(5)]), randn(g, 5, 4)),
    run=lambda g: (torch.stack([_unique_idx(g, 4, 32) for _ in range(29)]), randn(g, 29, 4)),
    dynamic={"idx": {0: ROWS}, "src": {0: ROWS}},
)
spec(
    name="index_put_accumulate_mixed",
    family="scatter",
    summary="x.index_put((idx,), vals, accumulate=True): static 64x16 table, dynamic update count",
    module=IndexPutAccumulate,
    example=lambda g: (randn(g, 64, 16), randint(g, 64, 6), randn(g, 6, 16)),
    run=lambda g: (randn(g, 64, 16), randint(g, 64, 50), randn(g, 50, 16)),
    dynamic={"x": None, "idx": {0: N_IDX}, "vals": {0: N_IDX}},
)
spec(
    name="index_put_rows_dynamic",
    family="scatter",
    summary="out[idx] = vals with unique idx, dynamic table and updates",
    module=IndexPutRows,
    example=lambda g: (randn(g, 20, 16), _unique_idx(g, 5, 20), randn(g, 5, 16)),
    run=lambda g: (randn(g, 70, 16), _unique_idx(g, 30, 70), randn(g, 30, 16)),
    dynamic={"x": {0: ROWS}, "idx": {0: N_IDX}, "vals": {0: N_IDX}},
)
spec(
    name="moe_router",
    family="scatter",
    summary="top-2 MoE router: dispatch mask and combine weights scattered into zeros, dynamic tokens",
    module=MoERouter,
    example=lambda g: (randn(g, 8, 32),),
    run=lambda g: (randn(g, 45, 32),),
    dynamic={"x": {0: TOKENS}},
    atol=1e-6,
)
spec(
    name="moe_one_hot_counts",
    family="scatter",
    summary="one_hot(top-2 ids).sum per token and per expert, dynamic tokens",
    module=MoEOneHotCounts,
    example=lambda g: (randn(g, 8, 32),),
    run=lambda g: (randn(g, 45, 32),),
    dynamic={"x": {0: TOKENS}},
)


# --------------------------------------------------------------------------
# grouped-conv input gradient
# --------------------------------------------------------------------------


class GroupedConvInputGrad(nn.Module):
    """torch.nn.grad.conv2d_input of a 3x3 grouped conv (groups=4): the
    backward-data convolution."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(32, 8, 3, 3) * 0.2)

    def forward(self, grad_out):
        return torch.nn.grad.conv2d_input(
            (grad_out.shape[0], 32, 12, 12), self.weight, grad_out, stride=1, padding=1, groups=4
        )


class GroupedConvInputGradStrided(nn.Module):
    """The input gradient of a strided grouped conv, written as the transposed
    conv it is (what autograd runs): conv_transpose2d(groups=4, stride=2)."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(32, 8, 3, 3) * 0.2)

    def forward(self, grad_out):
        return F.conv_transpose2d(grad_out, self.weight, stride=2, padding=1, output_padding=1, groups=4)


spec(
    name="grouped_conv_input_grad",
    family="conv_grad",
    summary="torch.nn.grad.conv2d_input, 3x3 groups=4, static 2x32x12x12",
    module=GroupedConvInputGrad,
    example=lambda g: (randn(g, 2, 32, 12, 12),),
    run=lambda g: (randn(g, 2, 32, 12, 12),),
    atol=1e-4,
)
spec(
    name="grouped_conv_transpose_strided",
    family="conv_grad",
    summary="conv_transpose2d(groups=4, stride=2) (input grad of a strided grouped conv), dynamic N",
    module=GroupedConvInputGradStrided,
    example=lambda g: (randn(g, 2, 32, 8, 8),),
    run=lambda g: (randn(g, 3, 32, 8, 8),),
    dynamic={"grad_out": {0: BATCH}},
    atol=1e-4,
)


# --------------------------------------------------------------------------
# embedding / index_select / gather / KV-cache read
# --------------------------------------------------------------------------


class Embedding(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(512, 64)

    def forward(self, ids):
        return self.emb(ids)


class IndexSelect(nn.Module):
    def forward(self, x, idx):
        return x.index_select(0, idx) * 2.0


class Gather(nn.Module):
    def forward(self, x, idx):
        return torch.gather(x, 1, idx)


class KVCacheRead(nn.Module):
    """Write this step's k/v into a cache at a runtime offset and read the
    window [offset, offset + 8) back (a dynamic slice), then attend to it."""

    def forward(self, cache_k, cache_v, q, k_new, v_new, offset):
        pos = offset.item()
        torch._check(pos >= 0)
        torch._check(pos + 8 <= cache_k.shape[2])
        k = cache_k.narrow(2, pos, 8) + k_new
        v = cache_v.narrow(2, pos, 8) + v_new
        return F.scaled_dot_product_attention(q, k, v), k


spec(
    name="embedding",
    family="gather",
    summary="nn.Embedding(512, 64) on Bx? ids, dynamic sequence",
    module=Embedding,
    example=lambda g: (randint(g, 512, 2, 16),),
    run=lambda g: (randint(g, 512, 2, 27),),
    dynamic={"ids": {1: SEQ}},
    rtol=0,
    atol=0,
)
spec(
    name="index_select_dynamic",
    family="gather",
    summary="x.index_select(0, idx) * 2, dynamic table and idx",
    module=IndexSelect,
    example=lambda g: (randn(g, 20, 48), randint(g, 20, 6)),
    run=lambda g: (randn(g, 90, 48), randint(g, 90, 33)),
    dynamic={"x": {0: ROWS}, "idx": {0: N_IDX}},
    rtol=0,
    atol=0,
)
spec(
    name="gather_dim1",
    family="gather",
    summary="torch.gather(x, 1, idx), dynamic rows",
    module=Gather,
    example=lambda g: (randn(g, 4, 64), randint(g, 64, 4, 16)),
    run=lambda g: (randn(g, 31, 64), randint(g, 64, 31, 16)),
    dynamic={"x": {0: ROWS}, "idx": {0: ROWS}},
    rtol=0,
    atol=0,
)
spec(
    name="kv_cache_read",
    family="gather",
    summary="k/v cache window at a runtime offset (narrow(.item())) + SDPA, static 2x4x64x16 cache",
    module=KVCacheRead,
    example=lambda g: (
        randn(g, 2, 4, 64, 16),
        randn(g, 2, 4, 64, 16),
        randn(g, 2, 4, 8, 16),
        randn(g, 2, 4, 8, 16),
        randn(g, 2, 4, 8, 16),
        torch.tensor(5),
    ),
    run=lambda g: (
        randn(g, 2, 4, 64, 16),
        randn(g, 2, 4, 64, 16),
        randn(g, 2, 4, 8, 16),
        randn(g, 2, 4, 8, 16),
        randn(g, 2, 4, 8, 16),
        torch.tensor(37),
    ),
)


# --------------------------------------------------------------------------
# whole small models
# --------------------------------------------------------------------------


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, x):
        return self.enc(x)


class ConvBN(nn.Sequential):
    def __init__(self, cin, cout, stride=1):
        super().__init__(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.a = ConvBN(cin, cout, stride)
        self.b = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.skip = (
            nn.Identity()
            if stride == 1 and cin == cout
            else nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
        )

    def forward(self, x):
        return F.relu(self.b(self.a(x)) + self.skip(x))


class ResNetSmall(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = ConvBN(3, 16)
        self.blocks = nn.Sequential(Block(16, 16, 1), Block(16, 32, 2), Block(32, 64, 2))
        self.fc = nn.Linear(64, 10)
        with torch.no_grad():  # non-trivial running statistics, as after training
            for m in self.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.running_mean.normal_(0, 0.1)
                    m.running_var.uniform_(0.5, 1.5)
                    m.weight.normal_(1, 0.1)
                    m.bias.normal_(0, 0.1)

    def forward(self, x):
        return self.fc(self.blocks(self.stem(x)).mean(dim=(2, 3)))


spec(
    name="transformer_encoder",
    family="model",
    summary="nn.TransformerEncoder(2 x TransformerEncoderLayer(64, 4, 128)), dynamic seq",
    module=Encoder,
    example=lambda g: (randn(g, 2, 16, 64),),
    run=lambda g: (randn(g, 2, 23, 64),),
    dynamic={"x": {1: SEQ}},
    rtol=1e-4,
    atol=1e-4,
)
spec(
    name="resnet_small",
    family="model",
    summary="conv-bn-relu stem + 3 residual blocks (16/32/64 ch) + fc on 32x32 images, dynamic batch",
    module=ResNetSmall,
    example=lambda g: (randn(g, 2, 3, 32, 32),),
    run=lambda g: (randn(g, 3, 3, 32, 32),),
    dynamic={"x": {0: BATCH}},
    rtol=1e-4,
    atol=1e-4,
)


# --------------------------------------------------------------------------


def _npy(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


def flatten_outputs(out) -> list:
    """A model's output tensors in order, nested tuples and lists flattened (what the manifests record)."""
    if isinstance(out, torch.Tensor):
        return [out]
    flat = []
    for o in out:
        flat += flatten_outputs(o)
    return flat


def export(s: Spec, out_root: str = OUT) -> dict:
    import iree.turbine.aot as aot

    torch.manual_seed(s.seed)
    # The fused fast path (aten._transformer_encoder_layer_fwd, _native_multi_head_attention)
    # has no torch-mlir lowering; export the composite ops instead.
    torch.backends.mha.set_fastpath_enabled(False)
    model = s.module().eval()
    g = torch.Generator().manual_seed(1000 + s.seed)
    example = s.example(g)
    args = s.run(g)
    with torch.no_grad():
        expected = flatten_outputs(model(*args))
        exported = aot.export(model, args=example, dynamic_shapes=s.dynamic)
    dyn = dynamic_dims(s.dynamic)

    def manifest(old: dict) -> dict:
        m = {
            "name": s.name,
            "family": s.family,
            "summary": s.summary,
            "function": "main",
            "seed": s.seed,
            "dynamic_dims": dyn,
            **shapes(args, expected),
            "tolerance": {"rtol": s.rtol, "atol": s.atol},
            "slow": old.get("slow", []),  # targets whose compile is slow (hand-kept)
            "known": old.get("known", {}),
            "exported_with": {"torch": torch.__version__, "iree-turbine": turbine_version()},
        }
        if s.notes:
            m["notes"] = s.notes
        return m

    return write(os.path.join(out_root, s.name), exported, args, expected, manifest)


def dynamic_dims(dynamic: dict | None) -> dict:
    """torch.export's dynamic_shapes as the manifest spells them: {arg: {dim: name}}."""
    dyn = {}
    for arg, dims in (dynamic or {}).items():
        if dims:
            dyn[arg] = {str(k): v.__name__ for k, v in dims.items()}
    return dyn


def shapes(args, expected) -> dict:
    """The manifest's "inputs" and "outputs": shape and dtype of each array."""
    return {
        "inputs": [{"shape": list(a.shape), "dtype": str(_npy(a).dtype)} for a in args],
        "outputs": [{"shape": list(e.shape), "dtype": str(_npy(e).dtype)} for e in expected],
    }


def write(d: str, exported, args, expected, manifest: Callable[[dict], dict]) -> dict:
    """Write one model's directory ``d``: model.mlir, input<i>.npy, expected<i>.npy and
    manifest.json, ``manifest(old)`` given the manifest already there (its hand-kept
    entries); refuse a file over MAX_FILE_BYTES. Shared with opt_py.corpus.library_models."""
    name = os.path.basename(d)
    os.makedirs(d, exist_ok=True)
    exported.save_mlir(os.path.join(d, "model.mlir"))
    for i, a in enumerate(args):
        np.save(os.path.join(d, f"input{i}.npy"), _npy(a))
    for i, e in enumerate(expected):
        np.save(os.path.join(d, f"expected{i}.npy"), _npy(e))
    mpath = os.path.join(d, "manifest.json")
    old = json.load(open(mpath)) if os.path.exists(mpath) else {}
    m = manifest(old)
    with open(mpath, "w") as f:
        json.dump(m, f, indent=2)
        f.write("\n")
    for fn in os.listdir(d):
        size = os.path.getsize(os.path.join(d, fn))
        if size > MAX_FILE_BYTES:
            raise SystemExit(f"{name}/{fn} is {size} bytes, over {MAX_FILE_BYTES}: make the model smaller")
    return m


def turbine_version() -> str:
    from importlib.metadata import version

    return version("iree-turbine")

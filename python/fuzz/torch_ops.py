"""PyTorch programs: the ops, and the program exported as users export it (iree-turbine, non-strict).

Each ``Op`` picks its operands (values so far, fresh inputs, or weights the
module holds as buffers: ``param``) and is one PyTorch call. The program is an
``nn.Module`` whose ``forward`` makes those calls in order, exported with
``iree.turbine.aot.export(..., strict_export=False)`` and ``Dim.AUTO`` on the
dims drawn dynamic (export keeps a dim dynamic where the program allows it).
The reference is the same module run eagerly with every float in float64; the
allowance's second run keeps the program's dtypes (bf16 included). Index
outputs (argmax, argsort, top-k's indices) are sinks: only returned, and
judged by the values they select.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .program import Program, Value

KIND = "torch"
DTYPES = ("f32", "f32", "f32", "f16", "i32", "i64", "i1", "f64")
FLOATS = ("f32", "f16", "bf16", "f64")
INTS = ("i32", "i64")


@dataclass(frozen=True)
class Op:
    name: str
    make: Callable  # (gen, rng) -> (args, attrs) or None
    fn: Callable  # (tensors, attrs) -> tensor
    exact: bool | None = False  # True: exact when its operands are; None: always exact
    sink: bool = False  # indices: only returned


def _torch():
    import torch

    return torch


def _F():
    import torch.nn.functional as F

    return F


TORCH_DTYPE = {
    "f64": "float64",
    "f32": "float32",
    "f16": "float16",
    "bf16": "bfloat16",
    "i64": "int64",
    "i32": "int32",
    "i1": "bool",
}
FROM_TORCH = {v: k for k, v in TORCH_DTYPE.items()}


def tdtype(name: str):
    return getattr(_torch(), TORCH_DTYPE[name])


# --------------------------------------------------------------------------
# Picking operands
# --------------------------------------------------------------------------


def one(dtypes, rank=(1, 4), exact_only=False):
    def make(gen, rng):
        a = gen.pick(lambda v: v.dtype in dtypes and rank[0] <= len(v.shape) <= rank[1] and (v.exact or not exact_only))
        return ([a], {}) if a is not None else None

    return make


def two(dtypes, exact_only=False, broadcast=True):
    """Two operands of one dtype: equal shapes, or the second broadcast along the first's last dim."""

    def make(gen, rng):
        a = gen.pick(lambda v: v.dtype in dtypes and len(v.shape) >= 1 and (v.exact or not exact_only))
        if a is None:
            return None
        va = gen.values[a]
        shape = va.shape[-1:] if broadcast and rng.random() < 0.3 else va.shape
        b = gen.pick(
            lambda v: v.shape == shape and v.dtype == va.dtype and (v.exact or not exact_only), fresh=(shape, va.dtype)
        )
        return [a, b], {}

    return make


def with_dim(dtypes, rank=(1, 4), exact_only=False, **extra):
    def make(gen, rng):
        a = gen.pick(lambda v: v.dtype in dtypes and rank[0] <= len(v.shape) <= rank[1] and (v.exact or not exact_only))
        if a is None:
            return None
        v = gen.values[a]
        attrs = {"dim": int(rng.integers(0, len(v.shape)))}
        for k, draw in extra.items():
            attrs[k] = draw(rng, v, attrs["dim"])
        return [a], attrs

    return make


def _cast_make(gen, rng):
    a = gen.pick(lambda v: len(v.shape) >= 1)
    if a is None:
        return None
    src = gen.values[a].dtype
    choices = [d for d in ("f32", "f16", "bf16", "i32", "i64", "i1") if d != src]
    if not gen.values[a].exact:  # a float computed inexactly becomes an integer or a bool only by rounding
        choices = [d for d in choices if d in FLOATS]
    return [a], {"to": str(rng.choice(choices))}


def _cast(xs, at):
    x = xs[0]
    to = tdtype(at["to"]) if isinstance(at["to"], str) else at["to"]
    if x.dtype == _torch().float64 and at["to"] in FLOATS:  # the reference: every float stays float64
        return x
    return x.to(to)


def _matmul_make(batch):
    def make(gen, rng):
        rank = 3 if batch else int(rng.integers(2, 4))
        a = gen.pick(lambda v: len(v.shape) == rank and v.dtype in ("f32", "f16", "f64"))
        if a is None:
            return None
        va = gen.values[a]
        want = (*va.shape[:-2], va.shape[-1], int(rng.integers(1, 9)))
        b = gen.pick(
            lambda v: v.shape[:-1] == want[:-1] and len(v.shape) == rank and v.dtype == va.dtype, fresh=(want, va.dtype)
        )
        return [a, b], {}

    return make


def _linear_make(gen, rng):
    a = gen.pick(lambda v: len(v.shape) >= 1 and v.dtype in ("f32", "f16"))
    if a is None:
        return None
    va = gen.values[a]
    n = int(rng.integers(1, 9))
    w = gen.param(Value((n, va.shape[-1]), va.dtype))
    b = gen.param(Value((n,), va.dtype))
    return [a, w, b], {}


def _conv_make(rank):
    def make(gen, rng):
        a = gen.pick(lambda v: len(v.shape) == rank and v.dtype == "f32" and all(s >= 3 for s in v.shape[2:]))
        if a is None:
            a = gen.fresh_input(
                Value((2, 3, *[int(rng.integers(4, 9)) for _ in range(rank - 2)]), "f32", gen._dynamic(rank))
            )
        va = gen.values[a]
        k = int(rng.integers(1, 4))
        o = int(rng.integers(1, 5))
        w = gen.param(Value((o, va.shape[1], *[k] * (rank - 2)), "f32"))
        return [a, w], {"stride": int(rng.integers(1, 3)), "padding": int(rng.integers(0, k))}

    return make


def _pool_make(rank):
    def make(gen, rng):
        a = gen.pick(lambda v: len(v.shape) == rank and v.dtype == "f32" and all(s >= 2 for s in v.shape[2:]))
        if a is None:
            return None
        return [a], {"k": 2, "stride": int(rng.integers(1, 3))}

    return make


def _norm_make(kind):
    def make(gen, rng):
        a = gen.pick(lambda v: len(v.shape) >= 2 and v.dtype in ("f32", "f16"))
        if a is None:
            return None
        va = gen.values[a]
        if kind == "batch":
            c = va.shape[1]
            mean = gen.param(Value((c,), va.dtype))
            var = gen.param(Value((c,), va.dtype))
            return [a, mean, var], {}
        w = gen.param(Value((va.shape[-1],), va.dtype))
        if kind == "rms":
            return [a, w], {}
        return [a, w, gen.param(Value((va.shape[-1],), va.dtype))], {}

    return make


def _batch_norm(xs, at):
    x, mean, var = xs
    return _F().batch_norm(x, mean, var.abs() + 0.5, training=False)


def _sdpa_make(gen, rng):
    q = gen.pick(lambda v: len(v.shape) in (3, 4) and v.dtype in ("f32", "f16") and v.shape[-2] >= 1)
    if q is None:
        q = gen.fresh_input(Value((2, int(rng.integers(2, 7)), 8), "f32", gen._dynamic(3)))
    vq = gen.values[q]
    s = int(rng.integers(2, 9))
    kv = (*vq.shape[:-2], s, vq.shape[-1])
    k = gen.pick(lambda v: v.shape == kv and v.dtype == vq.dtype, fresh=(kv, vq.dtype))
    v = gen.pick(lambda v: v.shape == kv and v.dtype == vq.dtype, fresh=(kv, vq.dtype))
    mask = str(rng.choice(["none", "bool", "float", "causal"]))
    args = [q, k, v]
    if mask == "bool":
        args.append(gen.fresh_input(Value((vq.shape[-2], s), "i1", ())))
    elif mask == "float":
        args.append(gen.fresh_input(Value((vq.shape[-2], s), vq.dtype, ())))
    return args, {"causal": mask == "causal"}


def _sdpa(xs, at):
    q, k, v, *m = xs
    if m and m[0].dtype == _torch().bool:
        m = [m[0] | _torch().eye(m[0].shape[0], m[0].shape[1], dtype=_torch().bool)]  # no row wholly masked
    return _F().scaled_dot_product_attention(q, k, v, attn_mask=m[0] if m else None, is_causal=at["causal"])


def _index_make(kind):
    """gather / scatter / scatter_add / index_select / index_put / embedding: indices as a fresh input in bounds."""

    def make(gen, rng):
        if kind == "embedding":
            w = gen.param(Value((int(rng.integers(3, 9)), int(rng.integers(2, 9))), "f32"))
            m = int(rng.integers(1, 7))
            idx = gen.fresh_input(Value((m,), "i64", gen._dynamic(1), True, gen.values[w].shape[0]))
            return [idx, w], {}
        a = gen.pick(lambda v: len(v.shape) >= 1 and v.dtype != "i1")
        if a is None:
            return None
        va = gen.values[a]
        d = int(rng.integers(0, len(va.shape)))
        m = int(rng.integers(1, 7))
        if kind in ("index_select", "index_put"):
            idx = gen.fresh_input(Value((m,), "i64", (), True, va.shape[d] if kind == "index_select" else va.shape[0]))
            if kind == "index_select":
                return [a, idx], {"dim": d}
            src = gen.fresh_input(Value((m, *va.shape[1:]), va.dtype, ()))
            return [a, idx, src], {"accumulate": bool(rng.random() < 0.5)}
        shape = tuple(m if i == d else s for i, s in enumerate(va.shape))
        idx = gen.fresh_input(Value(shape, "i64", (), True, va.shape[d]))
        if kind == "gather":
            return [a, idx], {"dim": d}
        src = gen.fresh_input(Value(shape, va.dtype, ()))
        return [a, idx, src], {"dim": d}

    return make


def _topk_k(rng, v, d):
    return int(rng.integers(1, v.shape[d] + 1))


def _slice_attrs(rng, v, d):
    size = int(rng.integers(1, v.shape[d] + 1))
    return [int(rng.integers(0, v.shape[d] - size + 1)), size]


def _reshape_make(gen, rng):
    a = gen.pick(lambda v: len(v.shape) >= 2)
    if a is None:
        return None
    v = gen.values[a]
    form = str(rng.choice(["flatten", "merge", "split"] if any(s % 2 == 0 for s in v.shape) else ["flatten", "merge"]))
    if form == "split":
        d = int(rng.choice([i for i, s in enumerate(v.shape) if s % 2 == 0]))
        return [a], {"form": form, "dim": d}
    return [a], {"form": form, "dim": int(rng.integers(0, len(v.shape) - 1))}


def _reshape(xs, at):
    x, d = xs[0], at["dim"]
    if at["form"] == "flatten":
        return x.reshape(-1)
    if at["form"] == "merge":
        return x.flatten(d, d + 1)
    return x.unflatten(d, (2, x.shape[d] // 2))


def _permute_make(gen, rng):
    a = gen.pick(lambda v: len(v.shape) >= 2)
    return ([a], {"perm": [int(p) for p in rng.permutation(len(gen.values[a].shape))]}) if a is not None else None


def _cat_make(stack):
    def make(gen, rng):
        a = gen.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return None
        va = gen.values[a]
        d = int(rng.integers(0, len(va.shape) + (1 if stack else 0)))
        shape = va.shape if stack else tuple(int(rng.integers(1, 5)) if i == d else s for i, s in enumerate(va.shape))

        def fits(v):
            return (
                v.dtype == va.dtype
                and len(v.shape) == len(va.shape)
                and all(v.shape[i] == va.shape[i] for i in range(len(va.shape)) if stack or i != d)
            )

        b = gen.pick(fits, fresh=(shape, va.dtype))
        return [a, b], {"dim": d}

    return make


def _where_make(gen, rng):
    c = gen.pick(lambda v: v.dtype == "i1" and len(v.shape) >= 1)
    if c is None:
        return None
    vc = gen.values[c]
    dtype = str(rng.choice(["f32", "f16", "i32", "i64"]))
    a = gen.pick(lambda v: v.shape == vc.shape and v.dtype == dtype, fresh=(vc.shape, dtype))
    b = gen.pick(lambda v: v.shape == vc.shape and v.dtype == dtype, fresh=(vc.shape, dtype))
    return [c, a, b], {}


def _masked_fill_make(gen, rng):
    a = gen.pick(lambda v: len(v.shape) >= 1 and v.dtype in ("f32", "f16", "i32", "i64"))
    if a is None:
        return None
    va = gen.values[a]
    m = gen.pick(lambda v: v.dtype == "i1" and v.shape == va.shape, fresh=(va.shape, "i1"))
    return [a, m], {"value": float(rng.choice([0.0, -1.0, 2.5])) if va.dtype in FLOATS else int(rng.integers(-3, 4))}


def _safe_div(a, b, mode):
    t = _torch()
    if a.dtype.is_floating_point:
        return a / (b * b + 1)
    return t.div(a, b.abs() + 1, rounding_mode=mode)


def _exact(values) -> bool:
    return all(v.exact for v in values)


T = _torch  # the ops' bodies call T() so that building the table imports nothing

OPS: dict[str, Op] = {
    op.name: op
    for op in [
        # elementwise, float
        Op("neg", one(FLOATS), lambda x, at: -x[0], True),
        Op("abs", one(FLOATS + INTS), lambda x, at: x[0].abs(), True),
        Op("relu", one(FLOATS), lambda x, at: _F().relu(x[0]), True),
        Op("exp", one(FLOATS), lambda x, at: x[0].exp()),
        Op("tanh", one(FLOATS), lambda x, at: x[0].tanh()),
        Op("sigmoid", one(FLOATS), lambda x, at: x[0].sigmoid()),
        Op("sin", one(FLOATS), lambda x, at: x[0].sin()),
        Op("sqrt_abs", one(FLOATS), lambda x, at: x[0].abs().sqrt()),
        Op("log1p_abs", one(FLOATS), lambda x, at: x[0].abs().log1p()),
        Op("rsqrt", one(FLOATS), lambda x, at: (x[0].abs() + 1).rsqrt()),
        Op("gelu", one(FLOATS), lambda x, at: _F().gelu(x[0])),
        Op("gelu_tanh", one(FLOATS), lambda x, at: _F().gelu(x[0], approximate="tanh")),
        Op("silu", one(FLOATS), lambda x, at: _F().silu(x[0])),
        Op("erf", one(FLOATS), lambda x, at: x[0].erf()),
        Op("clamp", one(FLOATS + INTS), lambda x, at: x[0].clamp(-1, 2), True),
        Op("add", two(FLOATS + INTS), lambda x, at: x[0] + x[1]),
        Op("sub", two(FLOATS + INTS), lambda x, at: x[0] - x[1]),
        Op("mul", two(FLOATS + INTS), lambda x, at: x[0] * x[1]),
        Op(
            "div",
            two(FLOATS + INTS),
            lambda x, at: (
                _safe_div(x[0], x[1], None) if x[0].dtype.is_floating_point else _safe_div(x[0], x[1], "trunc")
            ),
        ),
        Op("floor_divide", two(INTS), lambda x, at: _safe_div(x[0], x[1], "floor"), True),
        Op("remainder", two(INTS), lambda x, at: x[0].remainder(x[1].abs() + 1), True),
        Op("maximum", two(FLOATS + INTS), lambda x, at: T().maximum(x[0], x[1]), True),
        Op("minimum", two(FLOATS + INTS), lambda x, at: T().minimum(x[0], x[1]), True),
        # integer and boolean
        Op("bitwise_and", two(INTS + ("i1",)), lambda x, at: x[0] & x[1], True),
        Op("bitwise_or", two(INTS + ("i1",)), lambda x, at: x[0] | x[1], True),
        Op("bitwise_xor", two(INTS + ("i1",)), lambda x, at: x[0] ^ x[1], True),
        Op("logical_not", one(("i1",)), lambda x, at: ~x[0], True),
        Op("gt", two(FLOATS + INTS, exact_only=True), lambda x, at: x[0] > x[1], None),
        Op("eq", two(INTS + ("i1",), exact_only=True), lambda x, at: x[0] == x[1], None),
        Op("where", _where_make, lambda x, at: T().where(x[0], x[1], x[2]), True),
        Op("masked_fill", _masked_fill_make, lambda x, at: x[0].masked_fill(x[1], at["value"]), True),
        Op("cast", _cast_make, _cast, True),
        # reductions and scans
        Op(
            "sum",
            with_dim(FLOATS + INTS, keepdim=lambda r, v, d: bool(r.random() < 0.5)),
            lambda x, at: x[0].sum(at["dim"], keepdim=at["keepdim"]),
        ),
        Op("mean", with_dim(FLOATS), lambda x, at: x[0].mean(at["dim"])),
        Op("amax", with_dim(FLOATS + INTS), lambda x, at: x[0].amax(at["dim"]), True),
        Op("amin", with_dim(FLOATS + INTS), lambda x, at: x[0].amin(at["dim"]), True),
        Op("var", with_dim(("f32",), rank=(1, 4)), lambda x, at: x[0].var(at["dim"])),
        Op("logsumexp", with_dim(FLOATS), lambda x, at: x[0].logsumexp(at["dim"])),
        Op("any", with_dim(("i1",)), lambda x, at: x[0].any(at["dim"]), True),
        Op("all", with_dim(("i1",)), lambda x, at: x[0].all(at["dim"]), True),
        Op("argmax", with_dim(FLOATS + INTS, exact_only=True), lambda x, at: x[0].argmax(at["dim"]), None, sink=True),
        Op("argmin", with_dim(FLOATS + INTS, exact_only=True), lambda x, at: x[0].argmin(at["dim"]), None, sink=True),
        Op("cumsum", with_dim(FLOATS + INTS), lambda x, at: x[0].cumsum(at["dim"])),
        Op("softmax", with_dim(FLOATS), lambda x, at: x[0].softmax(at["dim"])),
        Op("log_softmax", with_dim(FLOATS), lambda x, at: x[0].log_softmax(at["dim"])),
        # sorting
        Op("sort", with_dim(FLOATS + INTS, exact_only=True), lambda x, at: x[0].sort(at["dim"])[0], True),
        Op("argsort", with_dim(FLOATS + INTS, exact_only=True), lambda x, at: x[0].argsort(at["dim"]), None, sink=True),
        Op(
            "topk",
            with_dim(FLOATS + INTS, exact_only=True, k=_topk_k),
            lambda x, at: x[0].topk(at["k"], at["dim"])[0],
            True,
        ),
        Op(
            "topk_indices",
            with_dim(FLOATS + INTS, exact_only=True, k=_topk_k),
            lambda x, at: x[0].topk(at["k"], at["dim"])[1],
            None,
            sink=True,
        ),
        # contractions, convolutions, pooling, norms, attention
        Op("matmul", _matmul_make(False), lambda x, at: x[0] @ x[1]),
        Op("bmm", _matmul_make(True), lambda x, at: T().bmm(x[0], x[1])),
        Op("linear", _linear_make, lambda x, at: _F().linear(x[0], x[1], x[2])),
        Op("conv1d", _conv_make(3), lambda x, at: _F().conv1d(x[0], x[1], stride=at["stride"], padding=at["padding"])),
        Op("conv2d", _conv_make(4), lambda x, at: _F().conv2d(x[0], x[1], stride=at["stride"], padding=at["padding"])),
        Op("max_pool1d", _pool_make(3), lambda x, at: _F().max_pool1d(x[0], at["k"], at["stride"]), True),
        Op("avg_pool1d", _pool_make(3), lambda x, at: _F().avg_pool1d(x[0], at["k"], at["stride"])),
        Op("max_pool2d", _pool_make(4), lambda x, at: _F().max_pool2d(x[0], at["k"], at["stride"]), True),
        Op("adaptive_avg_pool1d", _pool_make(3), lambda x, at: _F().adaptive_avg_pool1d(x[0], 2)),
        Op("layer_norm", _norm_make("layer"), lambda x, at: _F().layer_norm(x[0], x[0].shape[-1:], x[1], x[2])),
        Op("rms_norm", _norm_make("rms"), lambda x, at: _F().rms_norm(x[0], x[0].shape[-1:], x[1], eps=1e-6)),
        Op("batch_norm", _norm_make("batch"), lambda x, at: _batch_norm(x, at)),
        Op("sdpa", _sdpa_make, _sdpa),
        # indexing
        Op("gather", _index_make("gather"), lambda x, at: x[0].gather(at["dim"], x[1]), True),
        Op("scatter", _index_make("scatter"), lambda x, at: x[0].scatter(at["dim"], x[1], x[2]), None),
        Op("scatter_add", _index_make("scatter"), lambda x, at: x[0].scatter_add(at["dim"], x[1], x[2])),
        Op("index_select", _index_make("index_select"), lambda x, at: x[0].index_select(at["dim"], x[1]), True),
        Op(
            "index_put",
            _index_make("index_put"),
            lambda x, at: x[0].index_put((x[1],), x[2], accumulate=at["accumulate"]),
        ),
        Op("embedding", _index_make("embedding"), lambda x, at: _F().embedding(x[0], x[1]), True),
        # shapes and data movement
        Op("reshape", _reshape_make, _reshape, True),
        Op("permute", _permute_make, lambda x, at: x[0].permute(at["perm"]).contiguous(), True),
        Op(
            "transpose",
            with_dim(FLOATS + INTS + ("i1",), rank=(2, 4)),
            lambda x, at: x[0].transpose(at["dim"], -1),
            True,
        ),
        Op(
            "slice",
            with_dim(FLOATS + INTS + ("i1",), range=_slice_attrs),
            lambda x, at: x[0].narrow(at["dim"], at["range"][0], at["range"][1]),
            True,
        ),
        Op("cat", _cat_make(False), lambda x, at: T().cat([x[0], x[1]], at["dim"]), True),
        Op("stack", _cat_make(True), lambda x, at: T().stack([x[0], x[1]], at["dim"]), True),
        Op(
            "unsqueeze_expand",
            one(FLOATS + INTS + ("i1",), rank=(1, 3)),
            lambda x, at: x[0].unsqueeze(0).expand(3, *x[0].shape),
            True,
        ),
        Op("repeat", one(FLOATS + INTS, rank=(1, 3)), lambda x, at: x[0].repeat(2, *[1] * (x[0].dim() - 1)), True),
        Op("flip", with_dim(FLOATS + INTS + ("i1",)), lambda x, at: x[0].flip(at["dim"]), True),
        Op(
            "roll",
            with_dim(FLOATS + INTS, shift=lambda r, v, d: int(r.integers(1, 2 * v.shape[d] + 1))),
            lambda x, at: x[0].roll(at["shift"], at["dim"]),
            True,
        ),
        Op("tril", one(FLOATS + INTS, rank=(2, 3)), lambda x, at: x[0].tril(), True),
        Op("triu", one(FLOATS + INTS, rank=(2, 3)), lambda x, at: x[0].triu(1), True),
    ]
}


# --------------------------------------------------------------------------
# The table's interface to the generator and the jobs
# --------------------------------------------------------------------------


def native(x: np.ndarray, dtype: str):
    return _torch().from_numpy(np.ascontiguousarray(x)).to(tdtype(dtype))


def run(op: Op, tensors, attrs):
    with _torch().no_grad():
        return op.fn(list(tensors), attrs)


def result(op: Op, vals, attrs, out) -> Value:
    dtype = FROM_TORCH[str(out.dtype).removeprefix("torch.")]
    exact = True if op.exact is None else bool(op.exact) and _exact(vals)
    return Value(tuple(out.shape), dtype, (), exact, None, op.sink)


def sane(out) -> bool:
    from .generator import finite_and_modest

    t = out.float() if out.dtype == _torch().bfloat16 else out
    return finite_and_modest(t.numpy()) and out.numel() > 0


def evaluate(program: Program, data: list[np.ndarray], reference: bool) -> dict:
    """Every value as numpy: in float64 (``reference``) or in the program's dtypes (bf16 read as f32)."""
    t = _torch()
    vals = {}
    for i, x in zip(program.inputs, data):
        v = native(x, i.value.dtype)
        vals[i.id] = v.double() if reference and v.is_floating_point() else v
    with t.no_grad():
        for n in program.nodes:
            out = OPS[n.op].fn([vals[a] for a in n.args], n.attrs)
            if reference and out.is_floating_point():
                out = out.double()
            vals[n.id] = out
    return {k: (v.float() if v.dtype == t.bfloat16 else v).numpy() for k, v in vals.items()}


def module(program: Program):
    """The program as an ``nn.Module``: runtime inputs are ``forward``'s arguments, params its buffers."""
    t = _torch()

    class Program_(t.nn.Module):
        def __init__(self):
            super().__init__()
            for i, x in zip(program.inputs, program.input_data()):
                if i.value.param:
                    self.register_buffer(f"p{i.id}", native(x, i.value.dtype))

        def forward(self, *args):
            vals = dict(zip([i.id for i in program.inputs if not i.value.param], args))
            vals.update({i.id: getattr(self, f"p{i.id}") for i in program.inputs if i.value.param})
            for n in program.nodes:
                vals[n.id] = OPS[n.op].fn([vals[a] for a in n.args], n.attrs)
            return tuple(vals[o] for o in program.outputs)

    return Program_().eval()


def to_mlir(program: Program) -> str:
    """Exported as users export: ``aot.export(module, args, dynamic_shapes, strict_export=False)``."""
    import os
    import tempfile

    from iree.turbine import aot
    from torch.export import Dim

    runtime = [(i, x) for i, x in zip(program.inputs, program.input_data()) if not i.value.param]
    args = tuple(native(x, i.value.dtype) for i, x in runtime)
    shapes = tuple(
        {d: Dim.AUTO for d in range(len(i.value.shape)) if i.value.is_dynamic(d)} or None for i, _ in runtime
    )
    kwargs = {"dynamic_shapes": {"args": shapes}} if any(shapes) else {}
    exported = aot.export(module(program), args=args, strict_export=False, **kwargs)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "program.mlir")
        exported.save_mlir(path)
        with open(path) as f:
            return f.read()


def index_view(node, source, indices):
    """What indices select along the op's dim: compare these, not the indices, where ties may fall either way."""
    src = np.asarray(source)
    idx = np.asarray(indices).astype(np.int64)
    d = node.attrs["dim"] % src.ndim
    if node.op in ("argmax", "argmin"):
        idx = np.expand_dims(idx, d)
    if idx.min(initial=0) < 0 or idx.max(initial=0) >= src.shape[d]:
        return np.full(idx.shape, np.nan)
    if node.op == "topk_indices":
        src = src[tuple(slice(None) if k != d else slice(None) for k in range(src.ndim))]
    return np.take_along_axis(src, idx, axis=d)

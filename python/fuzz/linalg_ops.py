"""MLIR programs at the linalg / linalg_ext level: the ops, their numpy meaning, and their text.

Each ``Op`` picks its operands (existing values, or fresh inputs of the shape it
needs), says its result's shape, dtype and dynamic dims, computes itself in
numpy (in float64 for the reference, in the program's dtypes for the allowance
``judge.py`` grants rounding), and writes itself as MLIR: ``linalg.generic``
bodies of arith/math ops, named linalg ops (matmul, batch_matmul, transpose,
broadcast, softmax, fill), ``tensor`` slices, concats and reshapes, and
``iree_linalg_ext`` scan, sort and scatter, over static and dynamic dims. The
function is ``@main``; a dynamic dim's extent is read with ``tensor.dim`` from
the operand it comes from, as frontends write it. No torch needed: the
planted-bug test runs these in CI.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .program import NP, Node, Program, Value

FLOAT = ("f32", "f16")
INT = ("i32",)
ELEM = {"f32": "f32", "f16": "f16", "i32": "i32", "i1": "i1"}
PAR = '"parallel"'
NEG_INF = {"f32": "0xFF800000", "f16": "0xFC00"}


@dataclass(frozen=True)
class Op:
    name: str
    make: Callable  # (gen, rng) -> (args, attrs) or None: picks operands through gen.pick / gen.fresh
    result: Callable  # (vals, attrs) -> Value (shape, dtype, dynamic, exact)
    compute: Callable  # (arrays, attrs, node) -> array
    emit: Callable  # (emitter, node) -> result SSA name (lines appended to the emitter)


# --------------------------------------------------------------------------
# Elementwise: one linalg.generic, identity maps
# --------------------------------------------------------------------------

UNARY_F = {  # name: (body lines with {a} {t}, numpy, exact)
    "neg": (["%r = arith.negf {a} : {t}"], np.negative, True),
    "abs": (["%r = math.absf {a} : {t}"], np.abs, True),
    "relu": (["%z = arith.constant 0.0 : {t}", "%r = arith.maximumf {a}, %z : {t}"], lambda x: np.maximum(x, 0), True),
    "exp": (["%r = math.exp {a} : {t}"], np.exp, False),
    "tanh": (["%r = math.tanh {a} : {t}"], np.tanh, False),
    "sin": (["%r = math.sin {a} : {t}"], np.sin, False),
    "sqrt_abs": (["%m = math.absf {a} : {t}", "%r = math.sqrt %m : {t}"], lambda x: np.sqrt(np.abs(x)), False),
    "log1p_abs": (["%m = math.absf {a} : {t}", "%r = math.log1p %m : {t}"], lambda x: np.log1p(np.abs(x)), False),
}
BINARY_F = {
    "add": (["%r = arith.addf {a}, {b} : {t}"], np.add, False),
    "sub": (["%r = arith.subf {a}, {b} : {t}"], np.subtract, False),
    "mul": (["%r = arith.mulf {a}, {b} : {t}"], np.multiply, False),
    "div_safe": (  # a / (b*b + 1): never a division by zero
        [
            "%q = arith.mulf {b}, {b} : {t}",
            "%o = arith.constant 1.0 : {t}",
            "%p = arith.addf %q, %o : {t}",
            "%r = arith.divf {a}, %p : {t}",
        ],
        lambda a, b: a / (b * b + 1),
        False,
    ),
    "max": (["%r = arith.maximumf {a}, {b} : {t}"], np.maximum, True),
    "min": (["%r = arith.minimumf {a}, {b} : {t}"], np.minimum, True),
}
BINARY_I = {
    "addi": (["%r = arith.addi {a}, {b} : {t}"], np.add),
    "subi": (["%r = arith.subi {a}, {b} : {t}"], np.subtract),
    "muli": (["%r = arith.muli {a}, {b} : {t}"], np.multiply),
    "maxsi": (["%r = arith.maxsi {a}, {b} : {t}"], np.maximum),
    "minsi": (["%r = arith.minsi {a}, {b} : {t}"], np.minimum),
}
LOGIC = {  # on i32 bitwise, on i1 logical
    "andi": (["%r = arith.andi {a}, {b} : {t}"], np.bitwise_and),
    "ori": (["%r = arith.ori {a}, {b} : {t}"], np.bitwise_or),
    "xori": (["%r = arith.xori {a}, {b} : {t}"], np.bitwise_xor),
}
CASTS = {  # name: (from dtypes, to dtype, body, exact needs an exact operand)
    "truncf": (("f32",), "f16", "%r = arith.truncf {a} : f32 to f16"),
    "extf": (("f16",), "f32", "%r = arith.extf {a} : f16 to f32"),
    "sitofp": (("i32",), "f32", "%r = arith.sitofp {a} : i32 to f32"),
    "uitofp": (("i1",), "f32", "%r = arith.uitofp {a} : i1 to f32"),
    "fptosi": (("f32",), "i32", "%r = arith.fptosi {a} : f32 to i32"),
}


def _elementwise_ops() -> list[Op]:
    ops = []
    for name, (body, fn, exact) in UNARY_F.items():
        ops.append(Op(name, _make_unary(FLOAT), _same(exact), _np1(fn), _emit_elementwise(body)))
    for name, (body, fn, exact) in BINARY_F.items():
        ops.append(Op(name, _make_binary(FLOAT), _same(exact), _np2(fn), _emit_elementwise(body)))
    for name, (body, fn) in BINARY_I.items():
        ops.append(Op(name, _make_binary(INT), _same(True), _np2(fn), _emit_elementwise(body)))
    for name, (body, fn) in LOGIC.items():
        ops.append(Op(name, _make_binary(("i32", "i1")), _same(True), _np2(fn), _emit_elementwise(body)))
    for name, (src, dst, body) in CASTS.items():
        ops.append(
            Op(
                name,
                _make_cast(src, exact_only=name == "fptosi"),
                _cast(dst),
                _np_cast(dst),
                _emit_elementwise([body], out=dst),
            )
        )
    ops.append(
        Op(
            "cmp_gt",
            _make_binary(("f32", "f16", "i32"), exact_only=True),
            _cmp,
            _np2(np.greater),
            _emit_elementwise(["%r = {cmp} {a}, {b} : {t}"], out="i1"),
        )
    )
    ops.append(Op("select", _make_select, _select, lambda xs, at, n: np.where(xs[0], xs[1], xs[2]), _emit_select))
    return ops


def _make_unary(dtypes, exact_only=False):
    def make(gen, rng):
        a = gen.pick(lambda v: v.dtype in dtypes and (v.exact or not exact_only))
        return ([a], {}) if a is not None else None

    return make


def _make_binary(dtypes, exact_only=False):
    def make(gen, rng):
        a = gen.pick(lambda v: v.dtype in dtypes and (v.exact or not exact_only))
        if a is None:
            return None
        va = gen.values[a]
        b = gen.pick(
            lambda v: v.shape == va.shape and v.dtype == va.dtype and (v.exact or not exact_only),
            fresh=(va.shape, va.dtype),
        )
        return [a, b], {}

    return make


def _make_cast(dtypes, exact_only=False):
    def make(gen, rng):
        a = gen.pick(lambda v: v.dtype in dtypes and (v.exact or not exact_only))
        return ([a], {}) if a is not None else None

    return make


def _make_select(gen, rng):
    c = gen.pick(lambda v: v.dtype == "i1")
    if c is None:
        return None
    vc = gen.values[c]
    dtype = str(rng.choice(["f32", "f16", "i32"]))
    a = gen.pick(lambda v: v.shape == vc.shape and v.dtype == dtype, fresh=(vc.shape, dtype))
    b = gen.pick(lambda v: v.shape == vc.shape and v.dtype == dtype, fresh=(vc.shape, dtype))
    return [c, a, b], {}


def _same(exact):
    def result(vals, attrs):
        v = vals[0]
        return Value(v.shape, v.dtype, v.dynamic, exact and all(x.exact for x in vals))

    return result


def _cast(dst):
    def result(vals, attrs):
        v = vals[0]
        return Value(v.shape, dst, v.dynamic, v.exact and dst != "f16")

    return result


def _cmp(vals, attrs):
    v = vals[0]
    return Value(v.shape, "i1", v.dynamic, True)


def _select(vals, attrs):
    v = vals[1]
    return Value(v.shape, v.dtype, vals[0].dynamic, vals[1].exact and vals[2].exact)


def _np1(fn):
    return lambda xs, attrs, node: fn(xs[0])


def _np2(fn):
    return lambda xs, attrs, node: fn(xs[0], xs[1])


def _np_cast(dst):
    def compute(xs, attrs, node):
        x = xs[0]
        if dst == "i32":
            return np.trunc(x).astype(np.int32)
        return x.astype(np.float64 if x.dtype == np.float64 else NP[dst])

    return compute


def _emit_elementwise(body, out=None):
    def emit(e, node):
        args = [e.name(a) for a in node.args]
        vals = [e.values[a] for a in node.args]
        t = ELEM[vals[0].dtype]
        cmp = "arith.cmpf ogt," if t in FLOAT else "arith.cmpi sgt,"
        block = [f"%a{i}" for i in range(len(args))]
        lines = [line.format(a=block[0], b=block[-1], t=t, cmp=cmp) for line in body]
        return e.generic(node, args, lines, out or vals[0].dtype)

    return emit


def _emit_select(e, node):
    t = ELEM[e.values[node.args[1]].dtype]
    return e.generic(node, [e.name(a) for a in node.args], [f"%r = arith.select %a0, %a1, %a2 : {t}"], t)


# --------------------------------------------------------------------------
# Reductions, contractions, data movement
# --------------------------------------------------------------------------


def _rank_at_least(n, dtypes=FLOAT + INT):
    return lambda v: len(v.shape) >= n and v.dtype in dtypes


def _make_reduce(dtypes):
    def make(gen, rng):
        a = gen.pick(_rank_at_least(2, dtypes))
        if a is None:
            return None
        return [a], {"dim": int(rng.integers(0, len(gen.values[a].shape)))}

    return make


def _reduce_result(vals, attrs):
    v, d = vals[0], attrs["dim"]
    keep = [i for i in range(len(v.shape)) if i != d]
    return Value(tuple(v.shape[i] for i in keep), v.dtype, tuple(v.is_dynamic(i) for i in keep), False)


def _reduce_keep_exact(vals, attrs):
    v = _reduce_result(vals, attrs)
    return Value(v.shape, v.dtype, v.dynamic, vals[0].exact)


def _emit_reduce(kind):
    def emit(e, node):
        (a,), d = node.args, node.attrs["dim"]
        v = e.values[a]
        t = ELEM[v.dtype]
        rank = len(v.shape)
        keep = [i for i in range(rank) if i != d]
        init = e.filled(node, [(a, i) for i in keep], _identity(kind, t), t)
        loops = ", ".join(f"d{i}" for i in range(rank))
        maps = [f"affine_map<({loops}) -> ({loops})>", f"affine_map<({loops}) -> ({', '.join(f'd{i}' for i in keep)})>"]
        its = ", ".join('"reduction"' if i == d else '"parallel"' for i in range(rank))
        op = {
            "sum": "arith.addf" if t in FLOAT else "arith.addi",
            "max": "arith.maximumf" if t in FLOAT else "arith.maxsi",
        }
        r = e.fresh()
        e.lines += [
            f"{r} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}} "
            f"ins({e.name(a)} : {e.ty(v)}) outs({init} : {e.ty(node.value)}) {{",
            f"^bb0(%in: {t}, %acc: {t}):",
            f"  %r = {op[kind]} %in, %acc : {t}",
            f"  linalg.yield %r : {t}",
            f"}} -> {e.ty(node.value)}",
        ]
        return r

    return emit


def _identity(kind, t):
    if kind == "sum":
        return "0.0" if t in FLOAT else "0"
    return NEG_INF[t] if t in FLOAT else "-2147483648"


def _make_matmul(batch):
    def make(gen, rng):
        rank = 3 if batch else 2
        a = gen.pick(lambda v: len(v.shape) == rank and v.dtype in FLOAT)
        if a is None:
            return None
        va = gen.values[a]
        n = int(rng.integers(1, 9))
        want = (*va.shape[:-2], va.shape[-1], n)
        b = gen.pick(
            lambda v: v.shape[:-1] == want[:-1] and len(v.shape) == rank and v.dtype == va.dtype, fresh=(want, va.dtype)
        )
        return [a, b], {}

    return make


def _matmul_result(vals, attrs):
    a, b = vals
    shape = (*a.shape[:-1], b.shape[-1])
    dyn = (*[a.is_dynamic(i) for i in range(len(a.shape) - 1)], b.is_dynamic(len(b.shape) - 1))
    return Value(shape, a.dtype, dyn, False)


def _emit_matmul(e, node):
    a, b = node.args
    va, vb = e.values[a], e.values[b]
    rank = len(va.shape)
    t = ELEM[va.dtype]
    init = e.filled(node, [(a, i) for i in range(rank - 1)] + [(b, rank - 1)], "0.0", t)
    r = e.fresh()
    name = "linalg.batch_matmul" if rank == 3 else "linalg.matmul"
    e.lines.append(
        f"{r} = {name} ins({e.name(a)}, {e.name(b)} : {e.ty(va)}, {e.ty(vb)}) outs({init} : {e.ty(node.value)}) -> "
        f"{e.ty(node.value)}"
    )
    return r


def _make_transpose(gen, rng):
    a = gen.pick(_rank_at_least(2, FLOAT + INT + ("i1",)))
    if a is None:
        return None
    perm = [int(x) for x in rng.permutation(len(gen.values[a].shape))]
    return [a], {"perm": perm}


def _transpose_result(vals, attrs):
    v, p = vals[0], attrs["perm"]
    return Value(tuple(v.shape[i] for i in p), v.dtype, tuple(v.is_dynamic(i) for i in p), v.exact)


def _emit_transpose(e, node):
    (a,), p = node.args, node.attrs["perm"]
    init = e.empty(node, [(a, i) for i in p])
    r = e.fresh()
    e.lines.append(
        f"{r} = linalg.transpose ins({e.name(a)} : {e.ty(e.values[a])}) outs({init} : {e.ty(node.value)}) "
        f"permutation = [{', '.join(map(str, p))}]"
    )
    return r


def _make_broadcast(gen, rng):
    a = gen.pick(lambda v: 1 <= len(v.shape) <= 3)
    return ([a], {"n": int(rng.integers(2, 5))}) if a is not None else None


def _broadcast_result(vals, attrs):
    v = vals[0]
    return Value((attrs["n"], *v.shape), v.dtype, (False, *[v.is_dynamic(i) for i in range(len(v.shape))]), v.exact)


def _emit_broadcast(e, node):
    (a,) = node.args
    rank = len(e.values[a].shape)
    init = e.empty(node, [None] + [(a, i) for i in range(rank)])
    r = e.fresh()
    e.lines.append(
        f"{r} = linalg.broadcast ins({e.name(a)} : {e.ty(e.values[a])}) outs({init} : {e.ty(node.value)}) "
        "dimensions = [0]"
    )
    return r


def _make_dim_op(dtypes, min_rank=1):
    def make(gen, rng):
        a = gen.pick(_rank_at_least(min_rank, dtypes))
        if a is None:
            return None
        return [a], {"dim": int(rng.integers(0, len(gen.values[a].shape)))}

    return make


def _softmax_np(xs, attrs, node):
    x = xs[0]
    m = np.max(x, axis=attrs["dim"], keepdims=True)
    ex = np.exp(x - m)
    return ex / np.sum(ex, axis=attrs["dim"], keepdims=True)


def _emit_softmax(e, node):
    (a,) = node.args
    init = e.empty(node, [(a, i) for i in range(len(node.value.shape))])
    r = e.fresh()
    e.lines.append(
        f"{r} = linalg.softmax dimension({node.attrs['dim']}) ins({e.name(a)} : {e.ty(e.values[a])}) "
        f"outs({init} : {e.ty(node.value)}) -> {e.ty(node.value)}"
    )
    return r


def _emit_cumsum(e, node):
    (a,), d = node.args, node.attrs["dim"]
    v = e.values[a]
    t = ELEM[v.dtype]
    rank = len(v.shape)
    keep = [i for i in range(rank) if i != d]
    out = e.empty(node, [(a, i) for i in range(rank)])
    acc_v = Value(tuple(v.shape[i] for i in keep), v.dtype, tuple(v.is_dynamic(i) for i in keep))
    acc = e.filled_value(acc_v, [(a, i) for i in keep], "0.0" if t in FLOAT else "0", t)
    r = e.fresh()
    add = "arith.addf" if t in FLOAT else "arith.addi"
    e.lines += [
        f"{r}:2 = iree_linalg_ext.scan dimension({d}) inclusive(true) ins({e.name(a)} : {e.ty(v)}) "
        f"outs({out}, {acc} : {e.ty(node.value)}, {e.ty(acc_v)}) {{",
        f"^bb0(%x: {t}, %y: {t}):",
        f"  %s = {add} %x, %y : {t}",
        f"  iree_linalg_ext.yield %s : {t}",
        f"}} -> {e.ty(node.value)}, {e.ty(acc_v)}",
    ]
    return f"{r}#0"


def _make_sort(topk):
    def make(gen, rng):
        a = gen.pick(lambda v: len(v.shape) >= 1 and v.dtype in FLOAT + INT and v.exact)
        if a is None:
            return None
        attrs = {"k": int(rng.integers(1, gen.values[a].shape[-1] + 1))} if topk else {}
        return [a], attrs

    return make


def _sort_result(vals, attrs):
    v = vals[0]
    if "k" not in attrs:
        return v
    return Value((*v.shape[:-1], attrs["k"]), v.dtype, (*v.dynamic[:-1], False) if v.dynamic else (), True)


def _sort_np(xs, attrs, node):
    x = -np.sort(-xs[0], axis=-1)  # descending
    return x[..., : attrs["k"]] if "k" in attrs else x


def _emit_sort(e, node):
    (a,) = node.args
    v = e.values[a]
    t = ELEM[v.dtype]
    rank = len(v.shape)
    cmp = "arith.cmpf ogt" if t in FLOAT else "arith.cmpi sgt"
    s = e.fresh()
    e.lines += [
        f"{s} = iree_linalg_ext.sort dimension({rank - 1}) outs({e.name(a)} : {e.ty(v)}) {{",
        f"^bb0(%x: {t}, %y: {t}):",
        f"  %c = {cmp}, %x, %y : {t}",
        "  iree_linalg_ext.yield %c : i1",
        f"}} -> {e.ty(v)}",
    ]
    if "k" not in node.attrs:
        return s
    sizes = [e.size(a, i) for i in range(rank - 1)] + [str(node.attrs["k"])]
    r = e.fresh()
    e.lines.append(
        f"{r} = tensor.extract_slice {s}[{', '.join(['0'] * rank)}] [{', '.join(sizes)}] [{', '.join(['1'] * rank)}] "
        f": {e.ty(v)} to {e.ty(node.value)}"
    )
    return r


def _make_slice(gen, rng):
    a = gen.pick(lambda v: any(s >= 2 for s in v.shape))
    if a is None:
        return None
    v = gen.values[a]
    d = int(rng.choice([i for i, s in enumerate(v.shape) if s >= 2]))
    size = int(rng.integers(1, v.shape[d]))
    return [a], {"dim": d, "offset": int(rng.integers(0, v.shape[d] - size + 1)), "size": size}


def _slice_result(vals, attrs):
    v, d = vals[0], attrs["dim"]
    shape = tuple(attrs["size"] if i == d else s for i, s in enumerate(v.shape))
    dyn = tuple(False if i == d else v.is_dynamic(i) for i in range(len(v.shape)))
    return Value(shape, v.dtype, dyn, v.exact)


def _slice_np(xs, attrs, node):
    x, d = xs[0], attrs["dim"]
    index = [slice(None)] * x.ndim
    index[d] = slice(attrs["offset"], attrs["offset"] + attrs["size"])
    return x[tuple(index)]


def _emit_slice(e, node):
    (a,), d = node.args, node.attrs["dim"]
    v = e.values[a]
    rank = len(v.shape)
    offs = [str(node.attrs["offset"]) if i == d else "0" for i in range(rank)]
    sizes = [str(node.attrs["size"]) if i == d else e.size(a, i) for i in range(rank)]
    r = e.fresh()
    e.lines.append(
        f"{r} = tensor.extract_slice {e.name(a)}[{', '.join(offs)}] [{', '.join(sizes)}] [{', '.join(['1'] * rank)}] "
        f": {e.ty(v)} to {e.ty(node.value)}"
    )
    return r


def _make_concat(gen, rng):
    a = gen.pick(lambda v: len(v.shape) >= 1)
    if a is None:
        return None
    va = gen.values[a]
    d = int(rng.integers(0, len(va.shape)))
    n = int(rng.integers(1, 5))
    want = tuple(n if i == d else s for i, s in enumerate(va.shape))

    def fits(v):
        return (
            len(v.shape) == len(va.shape)
            and v.dtype == va.dtype
            and all(v.shape[i] == va.shape[i] for i in range(len(va.shape)) if i != d)
        )

    b = gen.pick(fits, fresh=(want, va.dtype))
    return [a, b], {"dim": d}


def _concat_result(vals, attrs):
    a, b = vals
    d = attrs["dim"]
    shape = tuple(a.shape[i] + b.shape[i] if i == d else a.shape[i] for i in range(len(a.shape)))
    dyn = tuple(
        (a.is_dynamic(i) or b.is_dynamic(i)) if i == d else (a.is_dynamic(i) and b.is_dynamic(i))
        for i in range(len(a.shape))
    )
    return Value(shape, a.dtype, dyn, a.exact and b.exact)


def _emit_concat(e, node):
    a, b = node.args
    r = e.fresh()
    e.lines.append(
        f"{r} = tensor.concat dim({node.attrs['dim']}) {e.name(a)}, {e.name(b)} : "
        f"({e.ty(e.values[a])}, {e.ty(e.values[b])}) -> {e.ty(node.value)}"
    )
    return r


def _make_collapse(gen, rng):
    a = gen.pick(lambda v: len(v.shape) >= 2)
    if a is None:
        return None
    return [a], {"dim": int(rng.integers(0, len(gen.values[a].shape) - 1))}


def _collapse_result(vals, attrs):
    v, d = vals[0], attrs["dim"]
    shape = (*v.shape[:d], v.shape[d] * v.shape[d + 1], *v.shape[d + 2 :])
    dyn = (
        *[v.is_dynamic(i) for i in range(d)],
        v.is_dynamic(d) or v.is_dynamic(d + 1),
        *[v.is_dynamic(i) for i in range(d + 2, len(v.shape))],
    )
    return Value(shape, v.dtype, dyn, v.exact)


def _groups(rank, d):
    groups, i = [], 0
    while i < rank:
        groups.append([i, i + 1] if i == d else [i])
        i += 2 if i == d else 1
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


def _emit_collapse(e, node):
    (a,), d = node.args, node.attrs["dim"]
    v = e.values[a]
    r = e.fresh()
    e.lines.append(
        f"{r} = tensor.collapse_shape {e.name(a)} {_groups(len(v.shape), d)} : {e.ty(v)} into {e.ty(node.value)}"
    )
    return r


def _make_expand(gen, rng):
    a = gen.pick(lambda v: any(s % 2 == 0 and s >= 4 and not v.is_dynamic(i) for i, s in enumerate(v.shape)))
    if a is None:
        return None
    v = gen.values[a]
    d = int(rng.choice([i for i, s in enumerate(v.shape) if s % 2 == 0 and s >= 4 and not v.is_dynamic(i)]))
    return [a], {"dim": d}


def _expand_result(vals, attrs):
    v, d = vals[0], attrs["dim"]
    shape = (*v.shape[:d], 2, v.shape[d] // 2, *v.shape[d + 1 :])
    dyn = (*[v.is_dynamic(i) for i in range(d)], False, False, *[v.is_dynamic(i) for i in range(d + 1, len(v.shape))])
    return Value(shape, v.dtype, dyn, v.exact)


def _emit_expand(e, node):
    (a,), d = node.args, node.attrs["dim"]
    v = e.values[a]
    out = [e.size(a, i) for i in range(d)] + ["2", str(v.shape[d] // 2)]
    out += [e.size(a, i) for i in range(d + 1, len(v.shape))]
    r = e.fresh()
    e.lines.append(
        f"{r} = tensor.expand_shape {e.name(a)} {_groups(len(v.shape) + 1, d)} output_shape [{', '.join(out)}] "
        f": {e.ty(v)} into {e.ty(node.value)}"
    )
    return r


def _make_gather(gen, rng):
    a = gen.pick(lambda v: len(v.shape) >= 1 and not v.is_dynamic(0))
    if a is None:
        return None
    m = int(rng.integers(1, 9))
    idx = gen.fresh_input(Value((m,), "i32", (bool(rng.random() < 0.4),), True, gen.values[a].shape[0]))
    return [a, idx], {}


def _gather_result(vals, attrs):
    v, i = vals
    return Value(
        (i.shape[0], *v.shape[1:]),
        v.dtype,
        (i.is_dynamic(0), *[v.is_dynamic(k) for k in range(1, len(v.shape))]),
        v.exact,
    )


def _emit_gather(e, node):
    a, idx = node.args
    v, vi = e.values[a], e.values[idx]
    rank = len(v.shape)
    t = ELEM[v.dtype]
    init = e.empty(node, [(idx, 0)] + [(a, i) for i in range(1, rank)])
    loops = ", ".join(f"d{i}" for i in range(rank))
    r = e.fresh()
    rest = [f"%i{k}" for k in range(1, rank)]
    e.lines += [
        f"{r} = linalg.generic {{indexing_maps = [affine_map<({loops}) -> (d0)>, affine_map<({loops}) -> ({loops})>], "
        f"iterator_types = [{', '.join([PAR] * rank)}]}} ins({e.name(idx)} : {e.ty(vi)}) "
        f"outs({init} : {e.ty(node.value)}) {{",
        f"^bb0(%ix: i32, %out: {t}):",
        "  %row = arith.index_cast %ix : i32 to index",
        *[f"  %i{k} = linalg.index {k} : index" for k in range(1, rank)],
        f"  %x = tensor.extract {e.name(a)}[{', '.join(['%row', *rest])}] : {e.ty(v)}",
        f"  linalg.yield %x : {t}",
        f"}} -> {e.ty(node.value)}",
    ]
    return r


def _make_scatter_add(gen, rng):
    a = gen.pick(lambda v: len(v.shape) >= 1 and not v.is_dynamic(0) and v.dtype in ("f32", "i32"))
    if a is None:
        return None
    va = gen.values[a]
    m = int(rng.integers(1, 9))
    idx = gen.fresh_input(Value((m, 1), "i32", (), True, va.shape[0]))
    upd = gen.fresh_input(Value((m, *va.shape[1:]), va.dtype, (False, *va.dynamic[1:]) if va.dynamic else ()))
    return [a, upd, idx], {}


def _scatter_result(vals, attrs):
    v = vals[0]
    return Value(v.shape, v.dtype, v.dynamic, v.exact and vals[1].exact and v.dtype != "f32")


def _scatter_np(xs, attrs, node):
    r = np.array(xs[0], copy=True)
    np.add.at(r, xs[2][:, 0], xs[1])
    return r


def _emit_scatter(e, node):
    a, upd, idx = node.args
    v = e.values[a]
    t = ELEM[v.dtype]
    add = "arith.addf" if t in FLOAT else "arith.addi"
    r = e.fresh()
    e.lines += [
        f"{r} = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) "
        f"ins({e.name(upd)}, {e.name(idx)} : {e.ty(e.values[upd])}, {e.ty(e.values[idx])}) outs({e.name(a)} : {e.ty(v)}) {{",
        f"^bb0(%u: {t}, %o: {t}):",
        f"  %s = {add} %u, %o : {t}",
        f"  iree_linalg_ext.yield %s : {t}",
        f"}} -> {e.ty(v)}",
    ]
    return r


def _make_roll(gen, rng):
    a = gen.pick(lambda v: any(s >= 2 and not v.is_dynamic(i) for i, s in enumerate(v.shape)))
    if a is None:
        return None
    v = gen.values[a]
    d = int(rng.choice([i for i, s in enumerate(v.shape) if s >= 2 and not v.is_dynamic(i)]))
    return [a], {"dim": d, "shift": int(rng.integers(1, v.shape[d]))}


def _emit_roll(e, node):
    (a,), d, c = node.args, node.attrs["dim"], node.attrs["shift"]
    v = e.values[a]
    rank = len(v.shape)
    loops = [f"d{i}" for i in range(rank)]
    src = [f"(d{i} + {c}) mod {v.shape[d]}" if i == d else f"d{i}" for i in range(rank)]
    t = ELEM[v.dtype]
    init = e.empty(node, [(a, i) for i in range(rank)])
    r = e.fresh()
    e.lines += [
        f"{r} = linalg.generic {{indexing_maps = [affine_map<({', '.join(loops)}) -> ({', '.join(src)})>, "
        f"affine_map<({', '.join(loops)}) -> ({', '.join(loops)})>], iterator_types = [{', '.join([PAR] * rank)}]}} "
        f"ins({e.name(a)} : {e.ty(v)}) outs({init} : {e.ty(node.value)}) {{",
        f"^bb0(%in: {t}, %out: {t}):",
        f"  linalg.yield %in : {t}",
        f"}} -> {e.ty(node.value)}",
    ]
    return r


def _same_value(vals, attrs):
    return vals[0]


def _inexact(vals, attrs):
    v = vals[0]
    return Value(v.shape, v.dtype, v.dynamic, False)


OPS: dict[str, Op] = {
    op.name: op
    for op in [
        *_elementwise_ops(),
        Op(
            "reduce_sum",
            _make_reduce(FLOAT + INT),
            _reduce_result,
            lambda xs, at, n: np.sum(xs[0], axis=at["dim"]).astype(xs[0].dtype),
            _emit_reduce("sum"),
        ),
        Op(
            "reduce_max",
            _make_reduce(FLOAT + INT),
            _reduce_keep_exact,
            lambda xs, at, n: np.max(xs[0], axis=at["dim"]),
            _emit_reduce("max"),
        ),
        Op("matmul", _make_matmul(False), _matmul_result, lambda xs, at, n: xs[0] @ xs[1], _emit_matmul),
        Op("batch_matmul", _make_matmul(True), _matmul_result, lambda xs, at, n: xs[0] @ xs[1], _emit_matmul),
        Op(
            "transpose",
            _make_transpose,
            _transpose_result,
            lambda xs, at, n: np.transpose(xs[0], at["perm"]),
            _emit_transpose,
        ),
        Op(
            "broadcast",
            _make_broadcast,
            _broadcast_result,
            lambda xs, at, n: np.broadcast_to(xs[0], (at["n"], *xs[0].shape)).copy(),
            _emit_broadcast,
        ),
        Op("softmax", _make_dim_op(FLOAT), _inexact, _softmax_np, _emit_softmax),
        Op(
            "cumsum",
            _make_dim_op(FLOAT + INT),
            _inexact,
            lambda xs, at, n: np.cumsum(xs[0], axis=at["dim"]).astype(xs[0].dtype),
            _emit_cumsum,
        ),
        Op("sort", _make_sort(False), _sort_result, _sort_np, _emit_sort),
        Op("topk", _make_sort(True), _sort_result, _sort_np, _emit_sort),
        Op("slice", _make_slice, _slice_result, _slice_np, _emit_slice),
        Op("concat", _make_concat, _concat_result, lambda xs, at, n: np.concatenate(xs, axis=at["dim"]), _emit_concat),
        Op(
            "collapse",
            _make_collapse,
            _collapse_result,
            lambda xs, at, n: xs[0].reshape(_collapse_shape(xs[0].shape, at["dim"])),
            _emit_collapse,
        ),
        Op(
            "expand",
            _make_expand,
            _expand_result,
            lambda xs, at, n: xs[0].reshape(_expand_shape(xs[0].shape, at["dim"])),
            _emit_expand,
        ),
        Op("gather", _make_gather, _gather_result, lambda xs, at, n: xs[0][xs[1]], _emit_gather),
        Op("scatter_add", _make_scatter_add, _scatter_result, _scatter_np, _emit_scatter),
        Op("roll", _make_roll, _same_value, lambda xs, at, n: np.roll(xs[0], -at["shift"], axis=at["dim"]), _emit_roll),
    ]
}


def _collapse_shape(shape, d):
    return (*shape[:d], shape[d] * shape[d + 1], *shape[d + 2 :])


def _expand_shape(shape, d):
    return (*shape[:d], 2, shape[d] // 2, *shape[d + 1 :])


# --------------------------------------------------------------------------
# Writing a program as MLIR
# --------------------------------------------------------------------------


class Emitter:
    """Builds ``func.func @main``: SSA names per value, ``tensor.dim`` of dynamic extents read once."""

    def __init__(self, program: Program):
        self.program = program
        self.values = program.values()
        self.names = {i.id: f"%arg{k}" for k, i in enumerate(program.inputs)}
        self.lines: list[str] = []
        self.consts: set[int] = set()
        self.dims: dict[tuple[int, int], str] = {}
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"%{self.count}"

    def name(self, vid: int) -> str:
        return self.names[vid]

    def ty(self, v: Value) -> str:
        return (
            "tensor<"
            + "".join(("?" if v.is_dynamic(i) else str(s)) + "x" for i, s in enumerate(v.shape))
            + f"{ELEM[v.dtype]}>"
        )

    def size(self, vid: int, d: int) -> str:
        """The extent of ``vid``'s dim ``d``: a literal, or the SSA value ``tensor.dim`` gives."""
        v = self.values[vid]
        if not v.is_dynamic(d):
            return str(v.shape[d])
        if (vid, d) not in self.dims:
            self.consts.add(d)
            name = f"%dim{vid}_{d}"
            self.lines.append(f"{name} = tensor.dim {self.name(vid)}, %c{d} : {self.ty(v)}")
            self.dims[(vid, d)] = name
        return self.dims[(vid, d)]

    def empty(self, node: Node, sources) -> str:
        """``tensor.empty`` of the node's type, each dynamic extent read from its source (value, dim)."""
        return self.empty_value(node.value, sources)

    def empty_value(self, v: Value, sources) -> str:
        dyn = [self.size(*sources[i]) for i in range(len(v.shape)) if v.is_dynamic(i)]
        r = self.fresh()
        self.lines.append(f"{r} = tensor.empty({', '.join(dyn)}) : {self.ty(v)}")
        return r

    def filled(self, node: Node, sources, value: str, t: str) -> str:
        return self.filled_value(node.value, sources, value, t)

    def filled_value(self, v: Value, sources, value: str, t: str) -> str:
        e = self.empty_value(v, sources)
        c, r = self.fresh(), self.fresh()
        self.lines += [
            f"{c} = arith.constant {value} : {t}",
            f"{r} = linalg.fill ins({c} : {t}) outs({e} : {self.ty(v)}) -> {self.ty(v)}",
        ]
        return r

    def generic(self, node: Node, args: list[str], body: list[str], out_dtype: str) -> str:
        """An elementwise ``linalg.generic`` over same-shaped ``args`` (block arguments %a0, %a1, ...)."""
        first = node.args[0] if len(node.args) < 3 else node.args[0]
        v = node.value
        rank = len(v.shape)
        init = self.empty(node, [(first, i) for i in range(rank)])
        loops = ", ".join(f"d{i}" for i in range(rank))
        ident = f"affine_map<({loops}) -> ({loops})>"
        types = [self.ty(self.values[a]) for a in node.args]
        ins_elem = [ELEM[self.values[a].dtype] for a in node.args]
        r = self.fresh()
        self.lines += [
            f"{r} = linalg.generic {{indexing_maps = [{', '.join([ident] * (len(args) + 1))}], "
            f"iterator_types = [{', '.join([PAR] * rank)}]}} ins({', '.join(args)} : {', '.join(types)}) "
            f"outs({init} : {self.ty(v)}) {{",
            "^bb0(" + ", ".join(f"%a{i}: {t}" for i, t in enumerate(ins_elem)) + f", %out: {ELEM[out_dtype]}):",
            *[f"  {line}" for line in body],
            f"  linalg.yield %r : {ELEM[out_dtype]}",
            f"}} -> {self.ty(v)}",
        ]
        return r


def to_mlir(program: Program) -> str:
    """The program as ``func.func @main`` (one result per output); params as ``arith.constant``s."""
    e = Emitter(program)
    for i, x in zip(program.inputs, program.input_data()):
        if i.value.param:
            e.names[i.id] = e.fresh()
            raw = np.ascontiguousarray(x, NP[i.value.dtype]).astype(np.dtype(NP[i.value.dtype]).newbyteorder("<"))
            e.lines.append(
                f'{e.names[i.id]} = arith.constant dense<"0x{raw.tobytes().hex().upper()}"> : {e.ty(i.value)}'
            )
    for n in program.nodes:
        e.names[n.id] = OPS[n.op].emit(e, n)
    outs = [e.name(o) for o in program.outputs]
    types = [e.ty(e.values[o]) for o in program.outputs]
    args = ", ".join(f"{e.names[i.id]}: {e.ty(i.value)}" for i in program.inputs if not i.value.param)
    consts = [f"  %c{d} = arith.constant {d} : index" for d in sorted(e.consts)]
    body = consts + [f"  {line}" for line in e.lines]
    return (
        f"func.func @main({args}) -> ({', '.join(types)}) {{\n"
        + "\n".join(body)
        + f"\n  return {', '.join(outs)} : {', '.join(types)}\n}}\n"
    )


def evaluate(program: Program, data: list[np.ndarray], reference: bool) -> dict[int, np.ndarray]:
    """Every value of the program in numpy: in float64 (``reference``) or in the program's own dtypes."""
    vals = {}
    for i, x in zip(program.inputs, data):
        vals[i.id] = _as(x, i.value.dtype, reference)
    for n in program.nodes:
        vals[n.id] = _as(np.asarray(OPS[n.op].compute([vals[a] for a in n.args], n.attrs, n)), n.value.dtype, reference)
    return vals


def _as(x: np.ndarray, dtype: str, reference: bool) -> np.ndarray:
    if dtype in FLOAT:
        return np.asarray(x, np.float64 if reference else NP[dtype])
    return np.asarray(x, NP[dtype])


# --------------------------------------------------------------------------
# The table's interface to the generator
# --------------------------------------------------------------------------

KIND = "linalg"
DTYPES = ("f32", "f32", "f16", "i32")  # of the first inputs; ops bring i1 and fresh inputs of their own


def native(x: np.ndarray, dtype: str) -> np.ndarray:
    return np.asarray(x, NP[dtype])


def run(op: Op, arrays, attrs) -> np.ndarray:
    import warnings

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.asarray(op.compute(arrays, attrs, None))


def result(op: Op, vals, attrs, out) -> Value:
    v = op.result(vals, attrs)
    if tuple(out.shape) != v.shape:
        raise ValueError(f"{op.name}: numpy gives {out.shape}, the op says {v.shape}")
    return v


def sane(out) -> bool:
    from .generator import finite_and_modest

    return finite_and_modest(out)

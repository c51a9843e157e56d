"""Random scans: cumulative sums and products as IREE sees them after its frontends.

A ``Case`` is a function ``@main(%x, %v)`` at input level: ``%x`` a tensor of
rank 1-3 (each dim static or dynamic, dynamic ones sized at run time by
``%x``), ``%v`` a 0-d tensor of the same element type. It scans a source along
one dim with ``iree_linalg_ext.scan`` (``arith.add*`` or ``arith.mul*``,
inclusive as torch.cumsum / cumprod, or exclusive as ONNX CumSum can be) and
returns the scan plus ``%x``. The source is

* ``fill``: ``linalg.fill`` of a constant (torch.ones / torch.full lowered:
  what scan-fill-input-as-generic rewrites when a dim is dynamic);
* ``fill_arg``: ``linalg.fill`` of ``%v``'s value (a splat known at run time);
* ``argument``: ``%x`` itself (read through a binding; no pass changes it).

Values are exact in the element type (small integers and halves, products of
+-1, 2 and 1/2), so ``expected`` (numpy) is exact; integer products wrap as
numpy's do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PASS = "scan-fill-input-as-generic"
DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i64": np.int64}
SOURCES = ("fill", "fill_arg", "argument")


@dataclass(frozen=True)
class Case:
    seed: int
    dtype: str
    shape: tuple[int, ...]  # runtime extents of %x
    dynamic: tuple[bool, ...]  # which dims are dynamic in the types
    dim: int  # the scanned dim
    combiner: str  # add | mul
    inclusive: bool
    source: str  # fill | fill_arg | argument
    value: float  # the fill's constant (fill), %v's value (fill_arg)

    def describe(self) -> str:
        shape = "x".join(("?" if d else "") + str(s) for s, d in zip(self.shape, self.dynamic))
        kind = "inclusive" if self.inclusive else "exclusive"
        return f"{self.combiner} {kind} over dim {self.dim} of {self.source}({self.value}) {shape}x{self.dtype}"

    @property
    def is_float(self) -> bool:
        return self.dtype.startswith("f")


def _values(dtype: str, combiner: str) -> tuple:
    """The values a case's splat and %x take: exact sums and products in ``dtype``."""
    if combiner == "add":
        return (0.5, -1.5, 2.0, 3.0, -4.0) if dtype.startswith("f") else (1, -2, 3, 7)
    if dtype == "f16":
        return (1.0, -1.0)  # powers of 2 overflow f16 within 16 steps
    return (2.0, -1.0, 0.5, 1.0) if dtype == "f32" else (2, 3, -1, -3)  # integers wrap, as numpy's do


def random_case(seed: int) -> Case:
    rng = np.random.default_rng(seed)
    rank = int(rng.integers(1, 4))
    dtype = str(rng.choice(list(DTYPES)))
    combiner = str(rng.choice(["add", "mul"]))
    shape = tuple(int(rng.integers(1, 40)) if k == 0 else int(rng.integers(1, 9)) for k in range(rank))
    shape = tuple(int(s) for s in rng.permutation(shape))
    dynamic = tuple(bool(rng.random() < 0.6) for _ in range(rank))
    dim = int(rng.integers(0, rank))
    source = str(rng.choice(SOURCES, p=[0.5, 0.3, 0.2]))
    value = float(rng.choice(_values(dtype, combiner)))
    return Case(seed, dtype, shape, dynamic, dim, combiner, bool(rng.random() < 0.7), source, value)


def cases(seed: int, n: int) -> list[Case]:
    return [random_case(seed + i) for i in range(n)]


def _type(case: Case, drop: int | None = None) -> str:
    dims = [("?" if d else str(s)) for k, (s, d) in enumerate(zip(case.shape, case.dynamic)) if k != drop]
    return f"tensor<{'x'.join(dims + [case.dtype])}>"


def _const(case: Case, v: float) -> str:
    return f"arith.constant {float(v)!r} : {case.dtype}" if case.is_float else f"arith.constant {int(v)} : {case.dtype}"


def program(case: Case, name: str = "main") -> str:
    """The case as a function ``@name`` (several cases can share a module under different names)."""
    t, acc_t, scalar = _type(case), _type(case, drop=case.dim), f"tensor<{case.dtype}>"
    op = {"add": "arith.addf", "mul": "arith.mulf"}[case.combiner]
    if not case.is_float:
        op = op[:-1] + "i"
    rank = len(case.shape)
    lines = [f"func.func @{name}(%x: {t}, %v: {scalar}) -> {t} {{"]
    dyn = [k for k in range(rank) if case.dynamic[k]]
    for k in dyn:
        lines += [f"  %c{k} = arith.constant {k} : index", f"  %d{k} = tensor.dim %x, %c{k} : {t}"]
    sizes = ", ".join(f"%d{k}" for k in dyn)
    acc_sizes = ", ".join(f"%d{k}" for k in dyn if k != case.dim)
    identity = 0 if case.combiner == "add" else 1
    lines += [
        f"  %e = tensor.empty({sizes}) : {t}",
        f"  %ea = tensor.empty({acc_sizes}) : {acc_t}",
        f"  %id = {_const(case, identity)}",
        f"  %init = linalg.fill ins(%id : {case.dtype}) outs(%e : {t}) -> {t}",
        f"  %acc = linalg.fill ins(%id : {case.dtype}) outs(%ea : {acc_t}) -> {acc_t}",
    ]
    if case.source == "argument":
        src = "%x"
    else:
        if case.source == "fill":
            lines.append(f"  %c = {_const(case, case.value)}")
        else:
            lines.append(f"  %c = tensor.extract %v[] : {scalar}")
        lines.append(f"  %src = linalg.fill ins(%c : {case.dtype}) outs(%e : {t}) -> {t}")
        src = "%src"
    ident = f"affine_map<({', '.join(f'd{k}' for k in range(rank))}) -> ({', '.join(f'd{k}' for k in range(rank))})>"
    parallel = ", ".join(['"parallel"'] * rank)
    add = "arith.addf" if case.is_float else "arith.addi"
    lines += [
        f"  %s:2 = iree_linalg_ext.scan dimension({case.dim}) inclusive({str(case.inclusive).lower()}) "
        f"ins({src} : {t}) outs(%init, %acc : {t}, {acc_t}) {{",
        f"  ^bb0(%a: {case.dtype}, %b: {case.dtype}):",
        f"    %r = {op} %a, %b : {case.dtype}",
        f"    iree_linalg_ext.yield %r : {case.dtype}",
        f"  }} -> {t}, {acc_t}",
        f"  %out = linalg.generic {{indexing_maps = [{ident}, {ident}, {ident}], iterator_types = [{parallel}]}} "
        f"ins(%s#0, %x : {t}, {t}) outs(%e : {t}) {{",
        f"  ^bb0(%p: {case.dtype}, %q: {case.dtype}, %o: {case.dtype}):",
        f"    %y = {add} %p, %q : {case.dtype}",
        f"    linalg.yield %y : {case.dtype}",
        f"  }} -> {t}",
        f"  return %out : {t}",
        "}",
    ]
    return "\n".join(lines) + "\n"


def inputs(case: Case) -> list[np.ndarray]:
    rng = np.random.default_rng(case.seed + 1_000_003)
    dt = DTYPES[case.dtype]
    if case.source == "argument":
        x = rng.choice(np.array(_values(case.dtype, case.combiner), dtype=dt), size=case.shape)
    elif case.is_float:
        x = (rng.integers(-8, 9, case.shape) / 2).astype(dt)
    else:
        x = rng.integers(-50, 50, case.shape).astype(dt)
    return [np.asarray(x, dtype=dt), np.array(case.value, dtype=dt)]


def expected(case: Case, args) -> list[np.ndarray]:
    x, v = args
    dt = x.dtype
    src = x if case.source == "argument" else np.full(x.shape, case.value if case.source == "fill" else v, dt)
    scan = np.cumsum if case.combiner == "add" else np.cumprod
    with np.errstate(over="ignore"):
        out = scan(src, axis=case.dim, dtype=dt)
        if not case.inclusive:
            first = np.full_like(np.take(out, [0], axis=case.dim), 0 if case.combiner == "add" else 1)
            out = np.concatenate([first, np.take(out, range(out.shape[case.dim] - 1), axis=case.dim)], axis=case.dim)
        return [(out + x).astype(dt)]


def rewritten(case: Case) -> bool:
    """Whether the pass rewrites the case: a fill source with a dynamic dim."""
    return case.source != "argument" and any(case.dynamic)


def stock_fails(case: Case) -> bool:
    """Whether stock IREE sizes the fill's temporary by a dynamic dim's upper bound: a fill scanned over a
    dynamic dim (over a static one beside dynamic dims the temporary is a tile's rows; it may fit)."""
    return case.source != "argument" and case.dynamic[case.dim]

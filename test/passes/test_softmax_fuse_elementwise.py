"""softmax-fuse-elementwise, proven by numbers and compared with IREE's own decomposition.

Each program is rewritten with ``run_pipeline``; the original and the
rewritten program are compiled by IREE for the CPU and run on the same
inputs, and both must equal a numpy reference computed here in float64 (at
the tolerance of the precision the program computes in), and each other.
The rewritten IR is checked for what the pass promises: no linalg.softmax
left and no materialized intermediate (a full-size tensor that one generic
writes into a ``tensor.empty`` and another reads).

* Fixed programs: softmax times a tensor; softmax + bias + truncf to f16;
  softmax over dimension 0 of a 3-D tensor; dynamic dims with a producer
  and a truncf; a group-norm written as explicit generics (f16 in, extf,
  mean, centred variance, scale and shift, truncf); a consumer reading the
  softmax transposed (merged through composed maps).
* A randomized differential (fixed seed, 12 functions, each compiled on its own): rank
  1-4, random dimension, some dims dynamic, f32/f16/bf16 computation,
  optional producer, and a random chain of elementwise consumers
  (multiply, broadcast bias, constant scale, tanh, casts).
* A randomized differential of normalizations written as generics (fixed
  seed, 24 functions in one module): standardizations (mean, centring,
  variance, rsqrt) and softmaxes spelled out, reductions over any proper
  subset of dims (some looping kept-dims-first through a permutation),
  producers (extf, scale, broadcast bias, a ``linalg.index`` position),
  consumer chains, f16 truncation, and second results that keep a value
  alive; numbers equal numpy and stock IREE, never more generics or
  materialized intermediates, none where nothing full-size escapes.
* Against IREE's ``iree-codegen-decompose-softmax{use-fusion=true}`` on
  the same inputs: never more generics or materialized intermediates, fewer
  where IREE's pass leaves something (a producer kept for a ``tensor.dim``; a
  normalization written as generics, which it does not touch), and equal
  numbers.

IREE 3.13's llvm-cpu backend cannot link some f16 softmaxes ("undefined
symbol: fmaxf", from f16 ``maxnumf`` reductions); the rewritten programs
(``maximumf``) link. Where stock IREE fails so, the rewritten program is
checked against numpy only.
"""

from __future__ import annotations

import os
import random

import ml_dtypes
import numpy as np
import pytest
from opt_py import OptPyError, run_pipeline
from opt_py.execution import e2e

PASS = "softmax-fuse-elementwise"
IREE_DECOMPOSE = "iree-codegen-decompose-softmax{use-fusion=true}"
CPU = e2e.TARGETS["cpu"]

# (rtol, atol) against the float64 reference, by the precision computed in.
REF_TOL = {"f32": (1e-5, 1e-6), "f16": (2e-2, 5e-3), "bf16": (5e-2, 3e-2)}
NP = {"f32": np.float32, "f16": np.float16}


def ref_tol(precision, out_dtype):
    """Tolerance against the reference: the computation's precision or the output's, the looser."""
    (r1, a1), (r2, a2) = REF_TOL[precision], e2e.tolerances(out_dtype)
    return max(r1, r2), max(a1, a2)


# --------------------------------------------------------------------------
# Writing programs
# --------------------------------------------------------------------------


def ttype(shape, elem) -> str:
    dims = "x".join("?" if d is None else str(d) for d in shape)
    return f"tensor<{dims}x{elem}>" if shape else f"tensor<{elem}>"


def amap(loops: int, dims) -> str:
    return f"affine_map<({', '.join(f'd{i}' for i in range(loops))}) -> ({', '.join(f'd{d}' for d in dims)})>"


def generic(res, ins, init, init_type, out_elem, loops, body, iterators=None) -> str:
    """``ins``: (ssa, type, element, dims); ``body`` uses %a0.. and %o and defines %y."""
    iterators = iterators or ["parallel"] * loops
    maps = [amap(loops, dims) for _, _, _, dims in ins]
    out_dims = [d for d, it in enumerate(iterators) if it == "parallel"]
    maps.append(amap(loops, out_dims))
    args = ", ".join([f"%a{i}: {e}" for i, (_, _, e, _) in enumerate(ins)] + [f"%o: {out_elem}"])
    body_text = "\n".join(f"    {line}" for line in body)
    its = ", ".join(f'"{i}"' for i in iterators)
    return (
        f"  {res} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = "
        f"[{its}]}} "
        f"ins({', '.join(s for s, _, _, _ in ins)} : {', '.join(t for _, t, _, _ in ins)}) "
        f"outs({init} : {init_type}) {{\n  ^bb0({args}):\n{body_text}\n    linalg.yield %y : {out_elem}\n"
        f"  }} -> {init_type}\n"
    )


def softmax(res, x, t, dim, init) -> str:
    return f"  {res} = linalg.softmax dimension({dim}) ins({x} : {t}) outs({init} : {t}) -> {t}\n"


def empties(shape, src, src_type) -> tuple[str, dict]:
    """tensor.dim of ``src`` for each dynamic dim; returns (text, {dim: ssa})."""
    text, sizes = "", {}
    for k, d in enumerate(shape):
        if d is None:
            text += f"  %i{k} = arith.constant {k} : index\n  %d{k} = tensor.dim {src}, %i{k} : {src_type}\n"
            sizes[k] = f"%d{k}"
    return text, sizes


def empty(res, shape, elem, sizes) -> str:
    dyn = ", ".join(sizes[k] for k, d in enumerate(shape) if d is None)
    return f"  {res} = tensor.empty({dyn}) : {ttype(shape, elem)}\n"


# --------------------------------------------------------------------------
# Reading programs
# --------------------------------------------------------------------------

LINALG_READERS = ("linalg.generic", "linalg.softmax", "linalg.reduce", "linalg.matmul")


def structure(text: str) -> dict:
    """Per function: generics, softmaxes, materialized intermediates.

    A materialized intermediate is a result of a linalg op whose init is a
    ``tensor.empty`` (a fresh tensor) that another linalg op reads whole: a
    generic through a permutation map (not a statistic broadcast over rows),
    or any other linalg op.
    """
    from iree.compiler import ir

    def reads_whole(use) -> bool:
        reader = use.owner.operation
        if reader.name != "linalg.generic":
            return reader.name in LINALG_READERS
        m = ir.AffineMapAttr(ir.ArrayAttr(reader.attributes["indexing_maps"])[use.operand_number]).value
        return m.is_permutation

    out = {}
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        for f in module.body.operations:
            counts = {"generics": 0, "softmax": 0, "materialized": 0}
            for op in f.regions[0].blocks[0].operations:
                op = op.operation
                if op.name == "linalg.generic":
                    counts["generics"] += 1
                if op.name == "linalg.softmax":
                    counts["softmax"] += 1
                if op.name in ("linalg.generic", "linalg.softmax") and op.results:
                    init = op.operands[len(op.operands) - 1]
                    fresh = not isinstance(init.owner, ir.Block) and init.owner.operation.name == "tensor.empty"
                    if fresh and any(reads_whole(u) for u in op.results[0].uses):
                        counts["materialized"] += 1
            out[f.attributes["sym_name"].value] = counts
    return out


# --------------------------------------------------------------------------
# Compiling and running
# --------------------------------------------------------------------------


def compile_text(text: str, tmp_path, name: str) -> bytes:
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    return e2e.compile_program(str(path), CPU)


def run(vmfb, function, inputs):
    return e2e.run_runtime(vmfb, CPU, function, inputs)


def assert_close(got, want, rtol, atol, what):
    got, want = np.asarray(got).astype(np.float64), np.asarray(want).astype(np.float64)
    assert got.shape == want.shape, f"{what}: shape {got.shape} vs {want.shape}"
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol)
    assert not bad.any(), (
        f"{what}: {bad.sum()}/{bad.size} differ, max abs {np.max(np.abs(got - want)):.3g} (rtol {rtol}, atol {atol})"
    )


def np_softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def check_program(text, inputs, reference, precision, tmp_path, name, out_dtype):
    """Rewrite; compile original and rewritten; both equal the reference and each other."""
    rewritten = run_pipeline(text, PASS)
    s = structure(rewritten)["main"]
    assert s["softmax"] == 0 and s["materialized"] == 0, f"{name}: {s}\n{rewritten}"
    stock = run(compile_text(text, tmp_path, name + "_stock"), "main", inputs)[0]
    ours = run(compile_text(rewritten, tmp_path, name + "_ours"), "main", inputs)[0]
    assert ours.dtype == stock.dtype == np.dtype(out_dtype)
    rtol, atol = ref_tol(precision, out_dtype)
    assert_close(stock, reference, rtol, atol, f"{name}: stock IREE vs numpy")
    assert_close(ours, reference, rtol, atol, f"{name}: rewritten vs numpy")
    rtol, atol = e2e.tolerances(ours.dtype)
    assert_close(ours, stock, rtol, atol, f"{name}: rewritten vs stock IREE")
    return rewritten


# --------------------------------------------------------------------------
# Fixed programs
# --------------------------------------------------------------------------


def prog_softmax_mul():
    t = ttype([4, 33], "f32")
    text = (
        f"func.func @main(%x: {t}, %w: {t}) -> {t} {{\n"
        + empty("%e", [4, 33], "f32", {})
        + softmax("%s", "%x", t, 1, "%e")
        + generic(
            "%m",
            [("%s", t, "f32", (0, 1)), ("%w", t, "f32", (0, 1))],
            "%e",
            t,
            "f32",
            2,
            ["%y = arith.mulf %a0, %a1 : f32"],
        )
        + f"  return %m : {t}\n}}\n"
    )
    rng = np.random.default_rng(1)
    x, w = (rng.standard_normal((4, 33)).astype(np.float32) * 3 for _ in range(2))
    ref = np_softmax(x.astype(np.float64), 1) * w
    return text, [x, w], ref, "f32", np.float32


def prog_softmax_bias_truncf():
    t, t16, tb = ttype([5, 16], "f32"), ttype([5, 16], "f16"), ttype([16], "f32")
    text = (
        f"func.func @main(%x: {t}, %b: {tb}) -> {t16} {{\n"
        + empty("%e", [5, 16], "f32", {})
        + empty("%e16", [5, 16], "f16", {})
        + softmax("%s", "%x", t, 1, "%e")
        + generic(
            "%a",
            [("%s", t, "f32", (0, 1)), ("%b", tb, "f32", (1,))],
            "%e",
            t,
            "f32",
            2,
            ["%y = arith.addf %a0, %a1 : f32"],
        )
        + generic("%t", [("%a", t, "f32", (0, 1))], "%e16", t16, "f16", 2, ["%y = arith.truncf %a0 : f32 to f16"])
        + f"  return %t : {t16}\n}}\n"
    )
    rng = np.random.default_rng(2)
    x, b = rng.standard_normal((5, 16)).astype(np.float32), rng.standard_normal(16).astype(np.float32)
    ref = (np_softmax(x.astype(np.float64), 1) + b).astype(np.float16)
    return text, [x, b], ref, "f16", np.float16


def prog_dim0_3d():
    t, ty = ttype([6, 5, 7], "f32"), ttype([5, 7], "f32")
    text = (
        f"func.func @main(%x: {t}, %v: {ty}) -> {t} {{\n"
        + empty("%e", [6, 5, 7], "f32", {})
        + softmax("%s", "%x", t, 0, "%e")
        + generic(
            "%m",
            [("%s", t, "f32", (0, 1, 2)), ("%v", ty, "f32", (1, 2))],
            "%e",
            t,
            "f32",
            3,
            ["%y = arith.mulf %a0, %a1 : f32"],
        )
        + f"  return %m : {t}\n}}\n"
    )
    rng = np.random.default_rng(3)
    x, v = rng.standard_normal((6, 5, 7)).astype(np.float32), rng.standard_normal((5, 7)).astype(np.float32)
    ref = np_softmax(x.astype(np.float64), 0) * v
    return text, [x, v], ref, "f32", np.float32


def prog_dynamic():
    shape = [None, None]
    t, t16 = ttype(shape, "f32"), ttype(shape, "f16")
    dims, sizes = empties(shape, "%x", t)
    text = (
        f"func.func @main(%x: {t}) -> {t16} {{\n  %half = arith.constant 0.5 : f32\n"
        + dims
        + empty("%e", shape, "f32", sizes)
        + empty("%e16", shape, "f16", sizes)
        + generic("%p", [("%x", t, "f32", (0, 1))], "%e", t, "f32", 2, ["%y = arith.mulf %a0, %half : f32"])
        + softmax("%s", "%p", t, 1, "%e")
        + generic("%t", [("%s", t, "f32", (0, 1))], "%e16", t16, "f16", 2, ["%y = arith.truncf %a0 : f32 to f16"])
        + f"  return %t : {t16}\n}}\n"
    )
    x = np.random.default_rng(4).standard_normal((5, 9)).astype(np.float32) * 4
    ref = np_softmax(x.astype(np.float64) * 0.5, 1).astype(np.float16)
    return text, [x], ref, "f16", np.float16


def prog_group_norm(groups=4, n=64):
    """f16 in, extf, mean, centred variance, (x - mean) * rstd * gamma + beta, truncf."""
    t16, t, ts, tg = (ttype([groups, n], "f16"), ttype([groups, n], "f32"), ttype([groups], "f32"), ttype([n], "f32"))
    row, ident = (0,), (0, 1)
    text = (
        f"func.func @main(%x16: {t16}, %g: {tg}, %b: {tg}) -> {t16} {{\n"
        f"  %zero = arith.constant 0.0 : f32\n  %n = arith.constant {float(n)} : f32\n"
        f"  %eps = arith.constant 1.0e-5 : f32\n"
        + empty("%e1", [groups], "f32", {})
        + empty("%e2", [groups, n], "f32", {})
        + empty("%e3", [groups, n], "f16", {})
        + f"  %z = linalg.fill ins(%zero : f32) outs(%e1 : {ts}) -> {ts}\n"
        + generic("%x", [("%x16", t16, "f16", ident)], "%e2", t, "f32", 2, ["%y = arith.extf %a0 : f16 to f32"])
        + generic(
            "%sum",
            [("%x", t, "f32", ident)],
            "%z",
            ts,
            "f32",
            2,
            ["%y = arith.addf %a0, %o : f32"],
            ["parallel", "reduction"],
        )
        + generic("%mean", [("%sum", ts, "f32", (0,))], "%e1", ts, "f32", 1, ["%y = arith.divf %a0, %n : f32"])
        + generic(
            "%cen",
            [("%x", t, "f32", ident), ("%mean", ts, "f32", row)],
            "%e2",
            t,
            "f32",
            2,
            ["%y = arith.subf %a0, %a1 : f32"],
        )
        + generic("%sq", [("%cen", t, "f32", ident)], "%e2", t, "f32", 2, ["%y = arith.mulf %a0, %a0 : f32"])
        + generic(
            "%vs",
            [("%sq", t, "f32", ident)],
            "%z",
            ts,
            "f32",
            2,
            ["%y = arith.addf %a0, %o : f32"],
            ["parallel", "reduction"],
        )
        + generic(
            "%rstd",
            [("%vs", ts, "f32", (0,))],
            "%e1",
            ts,
            "f32",
            1,
            ["%v = arith.divf %a0, %n : f32", "%p = arith.addf %v, %eps : f32", "%y = math.rsqrt %p : f32"],
        )
        + generic(
            "%norm",
            [("%cen", t, "f32", ident), ("%rstd", ts, "f32", row)],
            "%e2",
            t,
            "f32",
            2,
            ["%y = arith.mulf %a0, %a1 : f32"],
        )
        + generic(
            "%aff",
            [("%norm", t, "f32", ident), ("%g", tg, "f32", (1,)), ("%b", tg, "f32", (1,))],
            "%e2",
            t,
            "f32",
            2,
            ["%m = arith.mulf %a0, %a1 : f32", "%y = arith.addf %m, %a2 : f32"],
        )
        + generic("%out", [("%aff", t, "f32", ident)], "%e3", t16, "f16", 2, ["%y = arith.truncf %a0 : f32 to f16"])
        + f"  return %out : {t16}\n}}\n"
    )
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((groups, n)) * 2 + 1).astype(np.float16)
    g, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    xf = x.astype(np.float64)
    mean = xf.mean(1, keepdims=True)
    var = ((xf - mean) ** 2).mean(1, keepdims=True)
    ref = ((xf - mean) / np.sqrt(var + 1e-5) * g + b).astype(np.float16)
    return text, [x, g, b], ref, "f16", np.float16


def prog_transposed_consumer():
    """A consumer reading the softmax transposed (s[j, i] * w[i, j]): merged through composed maps."""
    t = ttype([8, 8], "f32")
    text = (
        f"func.func @main(%x: {t}, %w: {t}) -> {t} {{\n"
        + empty("%e", [8, 8], "f32", {})
        + softmax("%s", "%x", t, 1, "%e")
        + generic(
            "%m",
            [("%s", t, "f32", (1, 0)), ("%w", t, "f32", (0, 1))],
            "%e",
            t,
            "f32",
            2,
            ["%y = arith.mulf %a0, %a1 : f32"],
        )
        + f"  return %m : {t}\n}}\n"
    )
    rng = np.random.default_rng(6)
    x, w = (rng.standard_normal((8, 8)).astype(np.float32) for _ in range(2))
    ref = np_softmax(x.astype(np.float64), 1).T * w
    return text, [x, w], ref, "f32", np.float32


def prog_index_read_twice():
    """A producer that is its row index plus a scalar, read twice by one
    reduction, once transposed: r[i] = sum_j w[i, j] * (10 * (i + c) + j + c).
    Both reads have the same operands (the 0-d ``c``), so only the
    ``linalg.index`` renumbering tells them apart."""
    t, tr, t0 = ttype([6, 6], "f32"), ttype([6], "f32"), ttype([], "f32")
    text = (
        f"func.func @main(%w: {t}, %c: {t0}) -> {tr} {{\n  %z = arith.constant 0.0 : f32\n"
        "  %ten = arith.constant 10.0 : f32\n"
        + empty("%e", [6, 6], "f32", {})
        + empty("%e1", [6], "f32", {})
        + f"  %acc = linalg.fill ins(%z : f32) outs(%e1 : {tr}) -> {tr}\n"
        + generic(
            "%p",
            [("%c", t0, "f32", ())],
            "%e",
            t,
            "f32",
            2,
            [
                "%i = linalg.index 0 : index",
                "%ii = arith.index_cast %i : index to i32",
                "%f = arith.sitofp %ii : i32 to f32",
                "%y = arith.addf %f, %a0 : f32",
            ],
        )
        + generic(
            "%r",
            [("%p", t, "f32", (0, 1)), ("%p", t, "f32", (1, 0)), ("%w", t, "f32", (0, 1))],
            "%acc",
            tr,
            "f32",
            2,
            [
                "%m = arith.mulf %a0, %ten : f32",
                "%s = arith.addf %m, %a1 : f32",
                "%t = arith.mulf %a2, %s : f32",
                "%y = arith.addf %o, %t : f32",
            ],
            ["parallel", "reduction"],
        )
        + f"  return %r : {tr}\n}}\n"
    )
    rng = np.random.default_rng(7)
    w, c = rng.standard_normal((6, 6)).astype(np.float32), np.array(0.25, dtype=np.float32)
    i, j = np.meshgrid(np.arange(6), np.arange(6), indexing="ij")
    ref = (w.astype(np.float64) * (10 * (i + 0.25) + j + 0.25)).sum(axis=1)
    return text, [w, c], ref, "f32", np.float32


PROGRAMS = {
    "index_read_twice": prog_index_read_twice,
    "softmax_mul": prog_softmax_mul,
    "softmax_bias_truncf": prog_softmax_bias_truncf,
    "dim0_3d": prog_dim0_3d,
    "dynamic": prog_dynamic,
    "group_norm": prog_group_norm,
    "transposed_consumer": prog_transposed_consumer,
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program(name, tmp_path):
    text, inputs, ref, precision, out_dtype = PROGRAMS[name]()
    rewritten = check_program(text, inputs, ref, precision, tmp_path, name, out_dtype)
    if name == "group_norm":
        # Everything full-size is recomputed or merged: two reductions, two
        # statistics generics and the final one, from ten.
        assert structure(text)["main"]["generics"] == 10
        assert structure(rewritten)["main"]["generics"] == 5


# --------------------------------------------------------------------------
# Randomized differential
# --------------------------------------------------------------------------


def random_case(rng: random.Random, index: int):
    """One function @f{index}: (text, inputs, reference, precision, output dtype)."""
    rank = rng.randint(1, 4)
    shape = [rng.randint(1, 9) for _ in range(rank)]
    dim = rng.randrange(rank)
    shape[dim] = rng.randint(2, 17)
    dyn = [rng.random() < 0.3 for _ in range(rank)]
    tshape = [None if d else s for s, d in zip(shape, dyn)]
    prec = rng.choice(["f32", "f32", "f16", "bf16"])
    io = "f16" if prec == "f16" else "f32"  # inputs and outputs; bf16 is cast inside
    ident = tuple(range(rank))
    T = prec
    t_io, t_c = ttype(tshape, io), ttype(tshape, T)
    nprng = np.random.default_rng(1000 + index)

    def rounded(a):  # what the program computes on: the input rounded to T
        if T == "bf16":
            return a.astype(ml_dtypes.bfloat16).astype(np.float64)
        return a.astype(np.float64)

    x = (nprng.standard_normal(shape) * 2).astype(NP[io])
    args, inputs = [f"%x: {t_io}"], [x]
    dims, sizes = empties(tshape, "%x", t_io)
    body = f"  %two = arith.constant 2.0 : {T}\n" + dims + empty("%ec", tshape, T, sizes)
    cur = "%x"
    ref = rounded(x)
    # Producer: cast to the computation type (bf16), and maybe an exact scale.
    producer = rng.choice(["none", "scale"])
    if io != T or producer == "scale":
        lines, v = [], "%a0"
        if io != T:
            lines.append(f"%t = arith.truncf %a0 : {io} to {T}")
            v = "%t"
        if producer == "scale":
            lines.append(f"%y = arith.mulf {v}, %two : {T}")
            ref = ref * 2
        else:
            lines[-1] = lines[-1].replace("%t =", "%y =")
        body += generic("%p", [(cur, t_io, io, ident)], "%ec", t_c, T, rank, lines)
        cur = "%p"
    body += softmax("%s", cur, t_c, dim, "%ec")
    ref = np_softmax(ref, dim)
    cur = "%s"
    chain = [rng.choice(["mul", "bias", "scale", "tanh"]) for _ in range(rng.randint(0, 3))]
    for k, kind in enumerate(chain):
        res = f"%k{k}"
        if kind in ("mul", "bias"):
            bdims = ident if kind == "mul" else tuple(sorted(rng.sample(range(rank), rng.randint(0, rank))))
            bshape = [shape[d] for d in bdims]
            btype = ttype([tshape[d] for d in bdims], io)
            w = nprng.standard_normal(bshape).astype(NP[io])
            args.append(f"%w{k}: {btype}")
            inputs.append(w)
            wv = rounded(w).reshape([shape[d] if d in bdims else 1 for d in range(rank)])
            lines = [f"%v = arith.truncf %a1 : {io} to {T}"] if io != T else []
            wa = "%v" if io != T else "%a1"
            op = "mulf" if kind == "mul" else "addf"
            lines.append(f"%y = arith.{op} %a0, {wa} : {T}")
            ref = ref * wv if kind == "mul" else ref + wv
            body += generic(res, [(cur, t_c, T, ident), (f"%w{k}", btype, io, bdims)], "%ec", t_c, T, rank, lines)
        elif kind == "scale":
            body += generic(res, [(cur, t_c, T, ident)], "%ec", t_c, T, rank, [f"%y = arith.mulf %a0, %two : {T}"])
            ref = ref * 2
        else:
            body += generic(res, [(cur, t_c, T, ident)], "%ec", t_c, T, rank, [f"%y = math.tanh %a0 : {T}"])
            ref = np.tanh(ref)
        cur = res
    # Back to the output type: extf from bf16; for f32 sometimes truncf to f16.
    out = io
    if T == "bf16" or (T == "f32" and rng.random() < 0.4):
        out = "f16" if T == "f32" else "f32"
        op = "truncf" if T == "f32" else "extf"
        body += empty("%eo", tshape, out, sizes)
        t_out = ttype(tshape, out)
        body += generic("%r", [(cur, t_c, T, ident)], "%eo", t_out, out, rank, [f"%y = arith.{op} %a0 : {T} to {out}"])
        cur = "%r"
        ref = ref.astype(NP[out])
    t_out = ttype(tshape, out)
    text = f"func.func @f{index}({', '.join(args)}) -> {t_out} {{\n{body}  return {cur} : {t_out}\n}}\n"
    return text, inputs, ref, prec, NP[out]


# the whole sample with --runslow; a third of it in the default run (CI's time)
CASES = 12 if os.environ.get("OPT_PY_RUNSLOW") == "1" else 8


@pytest.fixture(scope="module")
def random_module():
    rng = random.Random(20240611)
    return [random_case(rng, i) for i in range(CASES)]


def test_random_differential(random_module, tmp_path):
    precisions, stock_link_failures = set(), []
    for i, (src, inputs, ref, prec, out_dtype) in enumerate(random_module):
        name = f"f{i}"
        rewritten = run_pipeline(src, PASS)
        s = structure(rewritten)[name]
        assert s["softmax"] == 0 and s["materialized"] == 0, f"{name}: {s}\n{src}"
        assert s["generics"] == 3, f"{name}: producer and consumers not all fused: {s}\n{src}"
        ours = run(compile_text(rewritten, tmp_path, name + "_ours"), name, inputs)[0]
        assert ours.dtype == np.dtype(out_dtype)
        rtol, atol = ref_tol(prec, out_dtype)
        assert_close(ours, ref, rtol, atol, f"{name} rewritten vs numpy\n{src}")
        precisions.add(prec)
        try:
            stock_vmfb = compile_text(src, tmp_path, name + "_stock")
        except OptPyError as e:
            # IREE 3.13 llvm-cpu: some f16 softmaxes link against an undefined fmaxf.
            assert prec == "f16" and "failed to link executable" in str(e), f"{name}: {e}"
            stock_link_failures.append(name)
            continue
        stock = run(stock_vmfb, name, inputs)[0]
        assert_close(stock, ref, rtol, atol, f"{name} stock vs numpy\n{src}")
        # Both compute in ``prec``; they may round differently by an ulp or two of it.
        computed = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}[prec]
        r1, a1 = e2e.tolerances(computed)
        r2, a2 = e2e.tolerances(out_dtype)
        assert_close(ours, stock, max(r1, r2), max(a1, a2), f"{name} rewritten vs stock\n{src}")
    assert precisions == {"f32", "f16", "bf16"}  # the seed covers every precision
    assert len(stock_link_failures) <= 3, stock_link_failures  # most cases are compared with stock


def test_random_cases_cover_the_space(random_module):
    texts = [c[0] for c in random_module]
    assert any("?" in t for t in texts)
    assert any("dimension(0)" in t for t in texts) and any("tensor<1x" in t or "x1x" in t for t in texts)
    chains = {sum(f"%k{k} = " in t for k in range(3)) for t in texts}
    assert chains == {0, 1, 2, 3}  # softmax alone, and chains of every length
    assert any("math.tanh" in t for t in texts) and any("arith.truncf" in t for t in texts)


# --------------------------------------------------------------------------
# Against IREE's decompose-softmax{use-fusion=true}
# --------------------------------------------------------------------------


def test_against_iree_decomposition(tmp_path):
    """Never more generics or materialized intermediates than IREE's pass; the same numbers.

    IREE 3.13's pass already merges elementwise consumers and recomputes a
    softmax's producer (it keeps the producer for a ``tensor.dim`` of it);
    it does nothing to normalizations written as generics, nor to a
    producer of a plain reduction.
    """
    fewer = set()
    for name in sorted(PROGRAMS):
        text, inputs, ref, precision, out_dtype = PROGRAMS[name]()
        ours_text = run_pipeline(text, PASS)
        iree_text = run_pipeline(text, IREE_DECOMPOSE)
        ours, theirs = structure(ours_text)["main"], structure(iree_text)["main"]
        assert theirs["softmax"] == 0, f"{name}: IREE's pass did not decompose\n{iree_text}"
        assert ours["generics"] <= theirs["generics"], f"{name}: {ours} vs IREE {theirs}"
        assert ours["materialized"] <= theirs["materialized"], f"{name}: {ours} vs IREE {theirs}"
        if (ours["generics"], ours["materialized"]) < (theirs["generics"], theirs["materialized"]):
            fewer.add(name)
        got_ours = run(compile_text(ours_text, tmp_path, name + "_ours"), "main", inputs)[0]
        got_iree = run(compile_text(iree_text, tmp_path, name + "_iree"), "main", inputs)[0]
        rtol, atol = e2e.tolerances(got_ours.dtype)
        assert_close(got_ours, got_iree, rtol, atol, f"{name}: ours vs IREE's decomposition")
        assert_close(got_iree, ref, *ref_tol(precision, out_dtype), f"{name}: IREE's decomposition vs numpy")
    assert fewer == {"dynamic", "group_norm", "index_read_twice"}  # the others: the same counts


# --------------------------------------------------------------------------
# The issue's setting: aggressive fusion, a 32x262144 reduction, GPUs
# --------------------------------------------------------------------------

AGGRESSIVE = "--iree-dispatch-creation-enable-aggressive-fusion"
BOTH_PASSES = (f"global-optimization:{PASS}", "executable-sources:forall-reuse-shared-outs")


def big_softmax_mul(rows=32, cols=262144):
    t = ttype([rows, cols], "f32")
    return (
        f"func.func @main(%x: {t}, %w: {t}) -> {t} {{\n"
        + empty("%e", [rows, cols], "f32", {})
        + softmax("%s", "%x", t, 1, "%e")
        + generic(
            "%m",
            [("%s", t, "f32", (0, 1)), ("%w", t, "f32", (0, 1))],
            "%e",
            t,
            "f32",
            2,
            ["%y = arith.mulf %a0, %a1 : f32"],
        )
        + f"  return %m : {t}\n}}\n"
    )


@pytest.mark.parametrize("target", ["rocm", "cuda"])
@pytest.mark.parametrize("program", ["softmax_mul", "group_norm"])
def test_issue_programs_fit_gpu_workgroup_memory(program, target, tmp_path):
    """softmax x w and a group-norm over 32x262144, aggressive fusion, both
    issue-5 passes injected: compiles for gfx942 / sm_80 (no GPU needed) with
    workgroup memory under the limit. (Stock 3.13 also fits on these; the
    1 MiB allocation of the report does not reproduce in this release.)"""
    text = big_softmax_mul() if program == "softmax_mul" else prog_group_norm(32, 262144)[0]
    path = tmp_path / f"{program}.mlir"
    path.write_text(text)
    used = e2e.workgroup_memory(str(path), e2e.TARGETS[target], inject=BOTH_PASSES, extra_flags=[AGGRESSIVE])
    assert used <= e2e.WORKGROUP_MEMORY_LIMIT, used


@pytest.mark.parametrize("target", ["cpu", "cuda", "rocm"])
@pytest.mark.parametrize("program", ["softmax_mul", "group_norm"])
def test_issue_programs_match_numpy(program, target, tmp_path):
    """The same 32x262144 programs, aggressive fusion, both issue-5 passes
    injected, run where the device is present (the CPU always): stock IREE's
    numbers at the output's tolerance, and numpy's at the precision's. An f32
    sum over 262,144 terms is off by up to ~5e-4 relative in stock IREE as
    with the passes (measured: row sums of the softmax 1.0004-1.0005), so
    the softmax is held to 2e-3 against float64 numpy."""
    ok, why = e2e.device_available(e2e.TARGETS[target])
    if not ok:
        pytest.skip(f"{target}: {why}")
    if program == "softmax_mul":
        text = big_softmax_mul()
        rng = np.random.default_rng(11)
        x, w = (rng.standard_normal((32, 262144)).astype(np.float32) * 3 for _ in range(2))
        inputs, ref, tol = [x, w], np_softmax(x.astype(np.float64), 1) * w, (2e-3, 1e-6)
    else:
        text, inputs, ref, precision, out_dtype = prog_group_norm(32, 262144)
        tol = ref_tol(precision, out_dtype)
    path = tmp_path / f"{program}.mlir"
    path.write_text(text)
    tgt = e2e.TARGETS[target]
    ours = e2e.run_runtime(
        e2e.compile_program(str(path), tgt, inject=BOTH_PASSES, extra_flags=[AGGRESSIVE]), tgt, "main", inputs
    )[0]
    stock = e2e.run_runtime(e2e.compile_program(str(path), tgt, extra_flags=[AGGRESSIVE]), tgt, "main", inputs)[0]
    assert_close(ours, stock, *e2e.tolerances(ours.dtype), f"{program} on {target}: with the passes vs stock")
    assert_close(ours, ref, *tol, f"{program} on {target}: with the passes vs numpy")


@pytest.mark.parametrize("program, same", [("group_norm", True), ("softmax_mul", False)])
def test_cpu_code_against_stock(program, same, tmp_path):
    """The 32x262144 programs under aggressive fusion, compiled for llvm-cpu
    with and without the pass. The group-norm lowers to the very instructions
    stock IREE emits: IREE's own fusion inside the one dispatch recomputes
    what the pass recomputes, so its runtime is stock's (README, issue-5
    figures). softmax x w lowers to different code, which shows that the
    comparison can tell two compilations apart."""
    text = big_softmax_mul() if program == "softmax_mul" else prog_group_norm(32, 262144)[0]
    path = tmp_path / f"{program}.mlir"
    path.write_text(text)
    stock, ours = (
        e2e.machine_code(str(path), CPU, inject=inject, extra_flags=[AGGRESSIVE])
        for inject in ((), (f"global-optimization:{PASS}",))
    )
    assert len(stock) > 100 and any(i.startswith("v") for i in stock)  # vector instructions were read
    assert (stock == ours) is same


# --------------------------------------------------------------------------
# Randomized differential: normalizations written as generics
# --------------------------------------------------------------------------


def random_norm_case(rng: random.Random, index: int):
    """One function @g{index}, a normalization written as generics:
    (text, inputs, [reference per result], output dtype, whether a full-size
    intermediate is also returned).

    Rank 2-3; the reduction over a random proper subset of the dims (static;
    the kept dims may be dynamic); f32 computation on f32 or f16 input.
    Producer: extf, a scale, a broadcast bias, or none. Then either a
    standardization (mean, ``x - mean``, optionally the variance and
    ``* rsqrt(var + eps)``, the square in its own generic or in the reduction)
    or a softmax spelled out (max, ``exp(x - max)``, sum, divide), a consumer
    chain, maybe a truncf to f16, and sometimes a second result: a statistic
    (one more use of a small value) or the centred tensor (a full-size value
    with a use the pass must keep).
    """
    rank = rng.randint(2, 3)
    shape = [rng.randint(2, 9) for _ in range(rank)]
    red = sorted(rng.sample(range(rank), rng.randint(1, rank - 1)))
    keep = tuple(d for d in range(rank) if d not in red)
    tshape = [None if (d in keep and rng.random() < 0.3) else s for d, s in enumerate(shape)]
    io = rng.choice(["f32", "f16"])
    ident = tuple(range(rank))
    t_io, t = ttype(tshape, io), ttype(tshape, "f32")
    sshape = [tshape[d] for d in keep]
    ts = ttype(sshape, "f32")
    n = int(np.prod([shape[d] for d in red]))
    iters = ["reduction" if d in red else "parallel" for d in range(rank)]
    nprng = np.random.default_rng(2000 + index)
    axes = tuple(red)

    x = (nprng.standard_normal(shape) * 2 + 1).astype(NP[io])
    args, inputs = [f"%x: {t_io}"], [x]
    dims, sizes = empties(tshape, "%x", t_io)
    ssizes = {k: sizes[d] for k, d in enumerate(keep) if d in sizes}
    body = (
        f"  %zero = arith.constant 0.0 : f32\n  %ninf = arith.constant 0xFF800000 : f32\n"
        f"  %n = arith.constant {float(n)} : f32\n  %eps = arith.constant 1.0e-5 : f32\n"
        f"  %two = arith.constant 2.0 : f32\n"
        + dims
        + empty("%e", tshape, "f32", sizes)
        + empty("%es", sshape, "f32", ssizes)
        + f"  %z = linalg.fill ins(%zero : f32) outs(%es : {ts}) -> {ts}\n"
        + f"  %zi = linalg.fill ins(%ninf : f32) outs(%es : {ts}) -> {ts}\n"
    )
    ref = x.astype(np.float64)

    def par(res, ins, lines):
        return generic(res, ins, "%e", t, "f32", rank, lines)

    # Reductions loop either in the tensor's dim order, or over the kept dims
    # first (reading the tensor through a permutation, as IREE writes a
    # reduction over a leading dim), which recomputed producers must follow.
    if rng.random() < 0.5:
        order = list(keep) + red
        rdims, riters = tuple(order.index(j) for j in range(rank)), ["parallel"] * len(keep) + ["reduction"] * len(red)
    else:
        rdims, riters = ident, iters

    def reduce(res, src, init, lines):
        return generic(res, [(src, t, "f32", rdims)], init, ts, "f32", rank, lines, riters)

    def stat(res, src, lines):
        return generic(res, [(src, ts, "f32", tuple(range(len(keep))))], "%es", ts, "f32", len(keep), lines)

    # Producer.
    producer = rng.choice(["none", "scale", "bias", "position"]) if io == "f32" else "extf"
    cur = "%x"
    if producer == "extf":
        body += generic("%p", [("%x", t_io, io, ident)], "%e", t, "f32", rank, ["%y = arith.extf %a0 : f16 to f32"])
        cur = "%p"
    elif producer == "scale":
        body += par("%p", [("%x", t, "f32", ident)], ["%y = arith.mulf %a0, %two : f32"])
        cur, ref = "%p", ref * 2
    elif producer == "position":  # x + (index along dim k): a body with linalg.index
        k = rng.randrange(rank)
        body += par(
            "%p",
            [("%x", t, "f32", ident)],
            [
                f"%i = linalg.index {k} : index",
                "%ii = arith.index_cast %i : index to i32",
                "%fi = arith.sitofp %ii : i32 to f32",
                "%y = arith.addf %a0, %fi : f32",
            ],
        )
        cur, ref = "%p", ref + np.arange(shape[k]).reshape([shape[k] if d == k else 1 for d in range(rank)])
    elif producer == "bias":
        bdims = tuple(sorted(rng.sample(range(rank), rng.randint(1, rank))))
        btype = ttype([tshape[d] for d in bdims], "f32")
        b = nprng.standard_normal([shape[d] for d in bdims]).astype(np.float32)
        args.append(f"%b: {btype}")
        inputs.append(b)
        body += par("%p", [("%x", t, "f32", ident), ("%b", btype, "f32", bdims)], ["%y = arith.addf %a0, %a1 : f32"])
        cur, ref = "%p", ref + b.astype(np.float64).reshape([shape[d] if d in bdims else 1 for d in range(rank)])

    kind = rng.choice(["standardize", "standardize", "softmax"])
    row = keep
    if kind == "standardize":
        body += reduce("%s1", cur, "%z", ["%y = arith.addf %a0, %o : f32"])
        body += stat("%m1", "%s1", ["%y = arith.divf %a0, %n : f32"])
        body += par("%c", [(cur, t, "f32", ident), ("%m1", ts, "f32", row)], ["%y = arith.subf %a0, %a1 : f32"])
        mean = ref.mean(axis=axes, keepdims=True)
        centred = ref - mean
        ref, cur = centred, "%c"
        statistic, stat_ref = "%m1", mean
        if rng.random() < 0.7:
            if rng.random() < 0.5:
                body += par("%sq", [("%c", t, "f32", ident)], ["%y = arith.mulf %a0, %a0 : f32"])
                body += reduce("%v", "%sq", "%z", ["%y = arith.addf %a0, %o : f32"])
            else:
                body += reduce("%v", "%c", "%z", ["%q = arith.mulf %a0, %a0 : f32", "%y = arith.addf %q, %o : f32"])
            body += stat(
                "%r",
                "%v",
                ["%w = arith.divf %a0, %n : f32", "%p2 = arith.addf %w, %eps : f32", "%y = math.rsqrt %p2 : f32"],
            )
            body += par("%f", [("%c", t, "f32", ident), ("%r", ts, "f32", row)], ["%y = arith.mulf %a0, %a1 : f32"])
            ref, cur = centred / np.sqrt((centred**2).mean(axis=axes, keepdims=True) + 1e-5), "%f"
    else:
        body += reduce("%m1", cur, "%zi", ["%y = arith.maximumf %a0, %o : f32"])
        body += par(
            "%c",
            [(cur, t, "f32", ident), ("%m1", ts, "f32", row)],
            ["%d = arith.subf %a0, %a1 : f32", "%y = math.exp %d : f32"],
        )
        body += reduce("%s2", "%c", "%z", ["%y = arith.addf %a0, %o : f32"])
        body += par("%f", [("%c", t, "f32", ident), ("%s2", ts, "f32", row)], ["%y = arith.divf %a0, %a1 : f32"])
        mx = ref.max(axis=axes, keepdims=True)
        centred = np.exp(ref - mx)
        statistic, stat_ref = "%m1", mx
        ref, cur = centred / centred.sum(axis=axes, keepdims=True), "%f"

    for k in range(rng.randint(0, 2)):
        op = rng.choice(["mul", "bias", "tanh"])
        if op == "tanh":
            body += par(f"%k{k}", [(cur, t, "f32", ident)], ["%y = math.tanh %a0 : f32"])
            ref = np.tanh(ref)
        else:
            wdims = ident if op == "mul" else tuple(sorted(rng.sample(range(rank), rng.randint(1, rank))))
            wtype = ttype([tshape[d] for d in wdims], "f32")
            w = nprng.standard_normal([shape[d] for d in wdims]).astype(np.float32)
            args.append(f"%w{k}: {wtype}")
            inputs.append(w)
            wv = w.astype(np.float64).reshape([shape[d] if d in wdims else 1 for d in range(rank)])
            body += par(
                f"%k{k}",
                [(cur, t, "f32", ident), (f"%w{k}", wtype, "f32", wdims)],
                [f"%y = arith.{'mulf' if op == 'mul' else 'addf'} %a0, %a1 : f32"],
            )
            ref = ref * wv if op == "mul" else ref + wv
        cur = f"%k{k}"
    out = "f32"
    if rng.random() < 0.4:
        out = "f16"
        body += empty("%eo", tshape, "f16", sizes)
        body += generic(
            "%o16",
            [(cur, t, "f32", ident)],
            "%eo",
            ttype(tshape, "f16"),
            "f16",
            rank,
            ["%y = arith.truncf %a0 : f32 to f16"],
        )
        cur = "%o16"
    results, types, refs = [cur], [ttype(tshape, out)], [ref]
    extra = rng.choice(["none", "none", "statistic", "centred"])
    if extra == "statistic":
        results.append(statistic)
        types.append(ts)
        refs.append(stat_ref.reshape([shape[d] for d in keep]))
    elif extra == "centred":
        results.append("%c")
        types.append(t)
        refs.append(centred)
    text = (
        f"func.func @g{index}({', '.join(args)}) -> ({', '.join(types)}) {{\n{body}"
        f"  return {', '.join(results)} : {', '.join(types)}\n}}\n"
    )
    return text, inputs, refs, NP[out], extra == "centred"


NORM_CASES = 24 if os.environ.get("OPT_PY_RUNSLOW") == "1" else 8


@pytest.fixture(scope="module")
def random_norm_module():
    rng = random.Random(20261122)
    return [random_norm_case(rng, i) for i in range(NORM_CASES)]


def test_random_normalization_differential(random_norm_module, tmp_path):
    """Whatever the pass does to a normalization written as generics, the
    numbers stay numpy's and stock IREE's; it never adds a generic or a
    materialized intermediate, and leaves none where no full-size value
    escapes the function."""
    text = "\n".join(c[0] for c in random_norm_module)
    rewritten = run_pipeline(text, PASS)
    before, after = structure(text), structure(rewritten)
    stock_vmfb, ours_vmfb = (compile_text(t, tmp_path, n) for t, n in ((text, "norm_stock"), (rewritten, "norm_ours")))
    fused = 0
    for i, (src, inputs, refs, out_dtype, escapes) in enumerate(random_norm_module):
        name = f"g{i}"
        b, a = before[name], after[name]
        assert a["generics"] <= b["generics"] and a["materialized"] <= b["materialized"], f"{name}: {b} -> {a}\n{src}"
        if not escapes:
            assert a["materialized"] == 0, f"{name}: {a}\n{src}"
        fused += a["generics"] < b["generics"]
        stock, ours = run(stock_vmfb, name, inputs), run(ours_vmfb, name, inputs)
        for k, (s, o, ref) in enumerate(zip(stock, ours, refs)):
            dtype = out_dtype if k == 0 else np.float32
            assert o.dtype == s.dtype == np.dtype(dtype)
            rtol, atol = ref_tol("f32", dtype)
            assert_close(s, ref, rtol, atol, f"{name} result {k}: stock vs numpy\n{src}")
            assert_close(o, ref, rtol, atol, f"{name} result {k}: rewritten vs numpy\n{src}")
            assert_close(o, s, *e2e.tolerances(o.dtype), f"{name} result {k}: rewritten vs stock\n{src}")
    assert fused >= NORM_CASES // 2  # the pass does something to most of them


def test_random_normalizations_cover_the_space(random_norm_module):
    texts = [c[0] for c in random_norm_module]
    assert any("?" in t for t in texts) and any("xf16>" in t.splitlines()[0] for t in texts)
    assert any("math.exp" in t for t in texts) and any("math.rsqrt" in t for t in texts)
    assert any(c[4] for c in random_norm_module)  # a centred tensor escapes
    assert any("linalg.index" in t for t in texts)

    def transposed(text):  # a map whose results permute all its dims, not in order
        import re

        for loops, results in re.findall(r"affine_map<\(([^)]*)\) -> \(([^)]*)\)>", text):
            if sorted(results.split(", ")) == loops.split(", ") != results.split(", "):
                return True
        return False

    assert any(transposed(t) for t in texts)  # a reduction reading through a permutation
    # reductions over the last dim alone, and over others (a leading or middle dim, two dims)
    assert any('"parallel", "reduction"]' in t for t in texts)
    assert any('"reduction", "parallel"' in t or '"reduction", "reduction"' in t for t in texts)

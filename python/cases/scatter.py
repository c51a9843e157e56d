"""Random scatter programs: one_hot, index_put and index_add as IREE sees them.

A ``Case`` is a function at input level whose destinations all have the
shape of its first argument ``%like`` (some dims dynamic, as
``torch.zeros_like`` over a dynamic token count gives). Each destination is

* ``zeros``: a ``linalg.generic`` broadcasting a 0-d constant into a
  ``tensor.empty`` (what torch-mlir makes of ``zeros_like``; over a dynamic
  shape IREE turns it into a dispatch that consumes no tensor: the bug);
* ``fill``: ``linalg.fill`` of a ``tensor.empty`` (IREE makes a splat);
* ``like``: the argument itself; ``plus1``: ``like + 1`` (a dispatch that
  consumes a tensor);
* ``chain``: the result of an earlier scatter;
* ``same``: a destination value an earlier scatter already wrote into.

and each scatter is ``iree_linalg_ext.scatter`` of one of three kinds:
``one_hot`` (full-depth indices, one per row, yield the update),
``index_put`` (full-depth unique indices, yield the update) or ``index_add``
(depth-1 row indices with duplicates, add-combined). The function returns
some of the scatter results and, sometimes, a destination itself (a read of
the value the scatters write in place, ``%like`` included). ``expected`` is
the same in numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PASS = "clone-splat-dispatch-per-tied-use"
DTYPES = {"f32": np.float32, "i32": np.int32}
FILLS = (0.0, 1.0, -2.0)


@dataclass(frozen=True)
class Scatter:
    kind: str  # one_hot, index_put, index_add
    dest: str  # zeros, fill, like, plus1, chain, same
    fill: float  # for zeros/fill
    ref: int  # for chain/same: which earlier scatter
    n_static: int | None  # number of updates when static (None: dynamic, from the updates argument)


@dataclass(frozen=True)
class Case:
    seed: int
    dtype: str
    shape: tuple[int, ...]  # runtime extents of %like
    dynamic: tuple[bool, ...]
    scatters: tuple[Scatter, ...]
    returns: tuple[str, ...]  # "s<i>" (scatter i's result) or "d<i>" (scatter i's destination)

    def describe(self) -> str:
        shape = "x".join(("?" if d else "") + str(s) for s, d in zip(self.shape, self.dynamic))
        sc = ", ".join(
            f"{s.kind}<-{s.dest}{'' if s.dest not in ('chain', 'same') else s.ref}"
            f"{'(' + str(s.fill) + ')' if s.dest in ('zeros', 'fill') else ''}"
            f"{'' if s.n_static is None else '/n' + str(s.n_static)}"
            for s in self.scatters
        )
        return f"seed={self.seed} {self.dtype} {shape} [{sc}] -> {','.join(self.returns)}"


def random_case(seed: int) -> Case:
    rng = np.random.default_rng(seed)
    dtype = str(rng.choice(list(DTYPES)))
    rank = int(rng.integers(1, 4))
    shape = tuple(int(rng.integers(1, 6)) for _ in range(rank))
    dynamic = tuple(bool(rng.random() < 0.6) for _ in range(rank))
    scatters = []
    for i in range(int(rng.integers(1, 4))):
        kinds = ["one_hot", "index_put", "index_add"] if rank >= 2 else ["index_put", "index_add"]
        kind = str(rng.choice(kinds))
        dests = ["zeros"] * 4 + ["fill", "like", "plus1"] + (["chain", "same"] * 2 if i else [])
        dest = str(rng.choice(dests))
        scatters.append(
            Scatter(
                kind,
                dest,
                float(rng.choice(FILLS)),
                int(rng.integers(0, i)) if i else 0,
                None if rng.random() < 0.5 else int(rng.integers(1, 4)),
            )
        )
    returns = [f"s{i}" for i in range(len(scatters)) if rng.random() < 0.8] or [f"s{len(scatters) - 1}"]
    if rng.random() < 0.3:
        # A destination returned beside the scatter that writes it in place,
        # %like itself included (stock IREE returns the argument with the
        # writes in it: docs/passes/copy-shared-tied-operand.md).
        returns.append(f"d{int(rng.integers(0, len(scatters)))}")
    rng.shuffle(returns)
    return Case(seed, dtype, shape, dynamic, tuple(scatters), tuple(returns))


def is_argument(case: Case, i: int) -> bool:
    """Whether scatter i writes into ``%like`` itself."""
    s = case.scatters[i]
    return s.dest == "like" or (s.dest == "same" and is_argument(case, s.ref))


def returns_written_argument(case: Case) -> bool:
    """Whether the case returns ``%like`` beside a scatter into it."""
    return any(r[0] == "d" and is_argument(case, int(r[1:])) for r in case.returns)


def cases(seed: int, n: int) -> list[Case]:
    """``n`` cases, the i-th from seed ``seed + i``."""
    return [random_case(seed + i) for i in range(n)]


# --------------------------------------------------------------------------
# Shapes of updates and indices
# --------------------------------------------------------------------------


def _depth(case: Case, s: Scatter) -> int:
    return 1 if s.kind == "index_add" else len(case.shape)


def n_updates(case: Case, s: Scatter) -> int:
    """Runtime number of updates: one_hot has one per row; a set scatter at
    most as many as there are destination elements (its indices are unique)."""
    if s.kind == "one_hot":
        return case.shape[0]
    n = s.n_static if s.n_static is not None else 3 + case.seed % 3
    return min(n, int(np.prod(case.shape))) if s.kind == "index_put" else n


def _n_is_static(case: Case, s: Scatter) -> bool:
    return s.kind != "one_hot" and s.n_static is not None


def _n_dim(case: Case, s: Scatter) -> str:
    if s.kind == "one_hot":
        return "?" if case.dynamic[0] else str(case.shape[0])
    return str(n_updates(case, s)) if _n_is_static(case, s) else "?"


# --------------------------------------------------------------------------
# The program
# --------------------------------------------------------------------------


def _ty(dims, elem) -> str:
    return "tensor<" + "".join(f"{d}x" for d in dims) + elem + ">"


def program(case: Case) -> str:
    elem = case.dtype
    rank = len(case.shape)
    like_dims = ["?" if d else str(s) for s, d in zip(case.shape, case.dynamic)]
    like_ty = _ty(like_dims, elem)
    args = [f"%like: {like_ty}"]
    body = ["  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index", "  %c2 = arith.constant 2 : index"]
    dyn = [f"%d{k}" for k in range(rank) if case.dynamic[k]]
    for k in range(rank):
        if case.dynamic[k]:
            body.append(f"  %d{k} = tensor.dim %like, %c{k} : {like_ty}")
    empty_args = ", ".join(dyn)
    par = ", ".join(['"parallel"'] * rank)
    dests, results = [], []
    one = "1.0" if elem == "f32" else "1"

    def const(v):
        return f"{v:.1f}" if elem == "f32" else str(int(v))

    idx = iter(range(10_000))
    for i, s in enumerate(case.scatters):
        depth = _depth(case, s)
        ndim = _n_dim(case, s)
        upd_ty = _ty([ndim, *like_dims[depth:]], elem)
        ind_ty = _ty([ndim, depth], "i32")
        args += [f"%u{i}: {upd_ty}", f"%i{i}: {ind_ty}"]
        if s.dest == "zeros":
            k = next(idx)
            body += [
                f"  %z{k} = arith.constant dense<{const(s.fill)}> : tensor<{elem}>",
                f"  %e{k} = tensor.empty({empty_args}) : {like_ty}",
                f"  %b{k} = linalg.generic {{indexing_maps = [affine_map<({', '.join(f'd{j}' for j in range(rank))}) -> ()>, "
                f"affine_map<({', '.join(f'd{j}' for j in range(rank))}) -> ({', '.join(f'd{j}' for j in range(rank))})>], "
                f"iterator_types = [{par}]}} ins(%z{k} : tensor<{elem}>) outs(%e{k} : {like_ty}) {{",
                f"  ^bb0(%in: {elem}, %out: {elem}):",
                f"    linalg.yield %in : {elem}",
                f"  }} -> {like_ty}",
            ]
            dest = f"%b{k}"
        elif s.dest == "fill":
            k = next(idx)
            body += [
                f"  %f{k} = arith.constant {const(s.fill)} : {elem}",
                f"  %e{k} = tensor.empty({empty_args}) : {like_ty}",
                f"  %b{k} = linalg.fill ins(%f{k} : {elem}) outs(%e{k} : {like_ty}) -> {like_ty}",
            ]
            dest = f"%b{k}"
        elif s.dest == "like":
            dest = "%like"
        elif s.dest == "plus1":
            k = next(idx)
            ids = ", ".join(f"d{j}" for j in range(rank))
            add = "arith.addf" if elem == "f32" else "arith.addi"
            body += [
                f"  %o{k} = arith.constant {one} : {elem}",
                f"  %e{k} = tensor.empty({empty_args}) : {like_ty}",
                f"  %b{k} = linalg.generic {{indexing_maps = [affine_map<({ids}) -> ({ids})>, affine_map<({ids}) -> ({ids})>], "
                f"iterator_types = [{par}]}} ins(%like : {like_ty}) outs(%e{k} : {like_ty}) {{",
                f"  ^bb0(%in: {elem}, %out: {elem}):",
                f"    %p = {add} %in, %o{k} : {elem}",
                f"    linalg.yield %p : {elem}",
                f"  }} -> {like_ty}",
            ]
            dest = f"%b{k}"
        elif s.dest == "chain":
            dest = results[s.ref]
        else:  # same
            dest = dests[s.ref]
        dests.append(dest)
        combine = ("    %c = arith.addf %a, %b : " if elem == "f32" else "    %c = arith.addi %a, %b : ") + elem
        yielded = "%c" if s.kind == "index_add" else "%a"
        unique = "false" if s.kind == "index_add" else "true"
        body += [
            f"  %s{i} = iree_linalg_ext.scatter dimension_map = [{', '.join(str(j) for j in range(depth))}] "
            f"unique_indices({unique}) ins(%u{i}, %i{i} : {upd_ty}, {ind_ty}) outs({dest} : {like_ty}) {{",
            f"  ^bb0(%a: {elem}, %b: {elem}):",
            *([combine] if s.kind == "index_add" else []),
            f"    iree_linalg_ext.yield {yielded} : {elem}",
            f"  }} -> {like_ty}",
        ]
        results.append(f"%s{i}")
    rets = [results[int(r[1:])] if r[0] == "s" else dests[int(r[1:])] for r in case.returns]
    sig = ", ".join(args)
    rtys = ", ".join([like_ty] * len(rets))
    return f"func.func @main({sig}) -> ({rtys}) {{\n" + "\n".join(body) + f"\n  return {', '.join(rets)} : {rtys}\n}}\n"


# --------------------------------------------------------------------------
# Inputs and the numpy reference
# --------------------------------------------------------------------------


def inputs(case: Case) -> list[np.ndarray]:
    rng = np.random.default_rng(case.seed + 1_000_003)
    dt = DTYPES[case.dtype]
    shape = case.shape

    def values(dims):
        if dt == np.float32:
            return rng.integers(-8, 9, dims).astype(dt) / 2  # exact in f32: sums compare bit for bit
        return rng.integers(-50, 50, dims).astype(dt)

    out = [values(shape)]
    for s in case.scatters:
        n = n_updates(case, s)
        depth = _depth(case, s)
        if s.kind == "one_hot":
            ind = np.stack([np.arange(n), rng.integers(0, shape[1], n)], 1)
            if len(shape) == 3:
                ind = np.concatenate([ind, rng.integers(0, shape[2], (n, 1))], 1)
        elif s.kind == "index_put":
            flat = rng.choice(int(np.prod(shape)), size=n, replace=False)
            ind = np.stack(np.unravel_index(flat, shape), 1)
        else:  # index_add: rows, duplicates allowed
            ind = rng.integers(0, shape[0], (n, 1))
        out += [values((n, *shape[depth:])), ind.astype(np.int32).reshape(n, depth)]
    return out


def expected(case: Case, args) -> list[np.ndarray]:
    like = args[0]
    dests, results = [], []
    for i, s in enumerate(case.scatters):
        upd, ind = args[1 + 2 * i], args[2 + 2 * i]
        if s.dest in ("zeros", "fill"):
            d = np.full(like.shape, s.fill, like.dtype)
        elif s.dest == "like":
            d = like
        elif s.dest == "plus1":
            d = like + like.dtype.type(1)
        elif s.dest == "chain":
            d = results[s.ref]
        else:
            d = dests[s.ref]
        dests.append(d)
        r = d.copy()
        if s.kind == "index_add":
            np.add.at(r, ind[:, 0], upd)
        else:
            r[tuple(ind.T)] = upd
        results.append(r)
    return [results[int(x[1:])] if x[0] == "s" else dests[int(x[1:])] for x in case.returns]


def run(case: Case, with_pass: bool | str, target_name: str = "cpu") -> str:
    """'ok', 'wrong' (numbers differ from numpy), or 'error: ...' (did not compile or run).

    ``with_pass``: inject clone-splat-dispatch-per-tied-use after the flow phase (True, or the
    pipeline text to inject there), or ``"fixes"``: every opt-py fix (``opt-py compile --fixes``)."""
    import os
    import tempfile

    from ..errors import OptPyError
    from ..execution import e2e
    from ..iree import fixes as fx

    target = e2e.TARGETS[target_name]
    if with_pass == "fixes":
        inject, inject_codegen = fx.specs("all", target.compile_flags)
    else:
        inject = [f"flow:{with_pass if isinstance(with_pass, str) else PASS}"] if with_pass else []
        inject_codegen = []
    args = inputs(case)
    want = expected(case, args)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.mlir")
        with open(path, "w") as f:
            f.write(program(case))
        try:
            vmfb = e2e.compile_program(path, target, inject=inject, inject_codegen=inject_codegen)
            got = e2e.run_cli(vmfb, target, "main", args, len(want), timeout=60)
        except OptPyError as e:
            return "error: " + str(e).strip().splitlines()[-1][:200]
    same = len(got) == len(want) and all(g.shape == w.shape and np.array_equal(g, w) for g, w in zip(got, want))
    return "ok" if same else "wrong"


def copies(case: Case) -> int:
    """How many in-place uses the pass gives a copy, on the case's flow-level IR."""
    import os
    import re
    import tempfile

    from ..execution import e2e
    from ..iree.phases import compile_with_injections
    from ..run.api import run_pipeline

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.mlir")
        with open(path, "w") as f:
            f.write(program(case))
        res = compile_with_injections(
            path, list(e2e.TARGETS["cpu"].compile_flags), [], compile_to="flow", output_ir=True
        )
        text = run_pipeline(res.output.decode(), PASS)
    return len(re.findall(r"flow\.dispatch @\w+_tied_use_\d+::", text))

"""Top-k as PyTorch lowers it: sort the values with an iota of indices, keep k.

``program(v)`` writes the MLIR for a variant; ``check(v, x, outputs)``
compares results with numpy in a way that holds whatever order a strict
comparator leaves ties in: values exactly, and indices by what they point at
(and that each row's indices are distinct).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import numpy as np

_NP = {"f32": np.float32, "f16": np.float16, "i32": np.int32}


@dataclass(frozen=True)
class Variant:
    outputs: str  # "indices", "values" or "both"
    k: int
    width: int
    dtype: str  # f32, f16, i32
    batch: int | None  # None: dynamic batch
    order: str  # "desc" or "asc"

    @property
    def name(self) -> str:
        b = "dyn" if self.batch is None else str(self.batch)
        return f"{self.outputs}_k{self.k}_w{self.width}_{self.dtype}_b{b}_{self.order}"


def program(v: Variant | Case) -> str:
    if isinstance(v, Case):
        text = program(v.variant)
        return text if v.strict else re.sub(r"cmp([fi]) (o|s)(gt|lt)", lambda m: f"cmp{m[1]} {m[2]}{m[3][0]}e", text)
    b = "?" if v.batch is None else str(v.batch)
    xt = f"tensor<{b}x{v.width}x{v.dtype}>"
    it = f"tensor<{b}x{v.width}xi32>"
    kv, ki = f"tensor<{b}x{v.k}x{v.dtype}>", f"tensor<{b}x{v.k}xi32>"
    if v.dtype.startswith("f"):
        cmp = f"arith.cmpf {'ogt' if v.order == 'desc' else 'olt'}, %a, %b : {v.dtype}"
    else:
        cmp = f"arith.cmpi {'sgt' if v.order == 'desc' else 'slt'}, %a, %b : {v.dtype}"
    dyn = v.batch is None
    lines = []
    if dyn:
        lines += ["  %c0 = arith.constant 0 : index", f"  %n = tensor.dim %x, %c0 : {xt}"]
    size0 = "%n" if dyn else str(v.batch)
    lines += [
        f"  %e = tensor.empty({'%n' if dyn else ''}) : {it}",
        "  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], "
        f'iterator_types = ["parallel", "parallel"]}} outs(%e : {it}) {{',
        "  ^bb0(%out: i32):",
        "    %i = linalg.index 1 : index",
        "    %c = arith.index_cast %i : index to i32",
        "    linalg.yield %c : i32",
        f"  }} -> {it}",
        f"  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : {xt}, {it}) {{",
        f"  ^bb0(%a: {v.dtype}, %b: {v.dtype}, %p: i32, %q: i32):",
        f"    %r = {cmp}",
        "    iree_linalg_ext.yield %r : i1",
        f"  }} -> {xt}, {it}",
    ]
    results, types = [], []
    if v.outputs in ("values", "both"):
        lines.append(f"  %kv = tensor.extract_slice %s#0[0, 0] [{size0}, {v.k}] [1, 1] : {xt} to {kv}")
        results.append("%kv")
        types.append(kv)
    if v.outputs in ("indices", "both"):
        lines.append(f"  %ki = tensor.extract_slice %s#1[0, 0] [{size0}, {v.k}] [1, 1] : {it} to {ki}")
        results.append("%ki")
        types.append(ki)
    lines.append(f"  return {', '.join(results)} : {', '.join(types)}")
    return f"func.func @topk(%x: {xt}) -> ({', '.join(types)}) {{\n" + "\n".join(lines) + "\n}\n"


def make_input(v: Variant, rng, batch_for_dynamic: int = 3) -> np.ndarray:
    rows = v.batch if v.batch is not None else batch_for_dynamic
    if v.dtype == "i32":
        return rng.integers(-1000, 1000, (rows, v.width)).astype(np.int32)
    return rng.standard_normal((rows, v.width)).astype(_NP[v.dtype])


def check(v: Variant, x: np.ndarray, outputs: list) -> list[str]:
    """Problems with ``outputs`` for input ``x``; [] when they are a correct top-k."""
    ordered = np.sort(x, axis=1)
    want = (ordered[:, ::-1] if v.order == "desc" else ordered)[:, : v.k]
    problems = []
    outs = list(outputs)
    if v.outputs in ("values", "both"):
        got = np.asarray(outs.pop(0))
        if not np.array_equal(got, want):
            problems.append(f"{v.name}: values differ from numpy")
    if v.outputs in ("indices", "both"):
        idx = np.asarray(outs.pop(0)).astype(np.int64)
        if idx.shape != want.shape or idx.min() < 0 or idx.max() >= v.width:
            return problems + [f"{v.name}: indices out of range or of shape {idx.shape}"]
        if not np.array_equal(np.take_along_axis(x, idx, axis=1), want):
            problems.append(f"{v.name}: indices do not point at the top-k values")
        if any(len(set(row)) != len(row) for row in idx.tolist()):
            problems.append(f"{v.name}: repeated indices in a row")
    return problems


def matrix() -> list[Variant]:
    """The full matrix: outputs x widths x dtypes x batch x order, k from 1 to the width."""
    out = []
    for outputs, width, dtype, batch, order in itertools.product(
        ("indices", "values", "both"), (8, 64, 1024), ("f32", "f16", "i32"), (4, None), ("desc", "asc")
    ):
        for k in sorted({1, width // 2, width}):
            out.append(Variant(outputs, k, width, dtype, batch, order))
    return out


# --------------------------------------------------------------------------
# Random cases for bundles (opt-py bundle --generator topk=N): exact references
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    variant: Variant
    rows: int  # the input's batch (the variant's, or a random one for a dynamic batch)
    seed: int
    strict: bool  # the matrix's ogt/olt comparator; else the oge/ole (sge/sle) that torch exports


def random_case(seed: int) -> Case:
    """A variant of the matrix's shape family: k small (2k < width, k <= 64) 60% of the time, the width
    15%, else between (every form of both rules: argmax, rounds, chunks on 1024-wide rows, rank); a batch
    of 1 to 5 rows when it is dynamic (1: IREE drops the unit dim); mostly torch's exported comparator
    (the strict one is left to the sort unless ties are allowed)."""
    rng = np.random.default_rng(seed)
    outputs = ("indices", "values", "both")[rng.integers(3)]
    width = (8, 64, 1024)[rng.integers(3)]
    dtype = ("f32", "f16", "i32")[rng.integers(3)]
    batch = (4, None)[rng.integers(2)]
    order = ("desc", "asc")[rng.integers(2)]
    small = min(64, (width - 1) // 2)
    pick = rng.random()
    k = (
        int(rng.integers(1, small + 1))
        if pick < 0.6
        else width
        if pick < 0.75
        else int(rng.integers(small + 1, width + 1))
    )
    rows = batch if batch is not None else int(rng.integers(1, 6))
    return Case(Variant(outputs, k, width, dtype, batch, order), rows, seed, bool(rng.random() < 0.2))


def inputs(case: Case) -> list[np.ndarray]:
    """Distinct values in every row (a permutation), so the top-k's indices are unique whatever the
    comparator does with ties; every value is exact in f16 (|x| <= 512 in steps of 1/2 or 1)."""
    v = case.variant
    rng = np.random.default_rng(case.seed + 1)
    perm = np.stack([rng.permutation(v.width) for _ in range(case.rows)]) - v.width // 2
    if v.dtype == "i32":
        return [(perm * 7).astype(np.int32)]
    scale = 0.5 if v.dtype == "f32" else 1.0
    return [(perm * scale).astype(_NP[v.dtype])]


def expected(case: Case, args) -> list[np.ndarray]:
    """numpy's top-k of the distinct inputs: values and i32 indices, in the variant's outputs."""
    v, x = case.variant, args[0]
    idx = np.argsort(-x.astype(np.float64) if v.order == "desc" else x, axis=1, kind="stable")[:, : v.k]
    out = []
    if v.outputs in ("values", "both"):
        out.append(np.take_along_axis(x, idx, axis=1))
    if v.outputs in ("indices", "both"):
        out.append(idx.astype(np.int32))
    return out

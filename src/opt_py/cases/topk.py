"""Top-k as PyTorch lowers it: sort the values with an iota of indices, keep k.

``program(v)`` writes the MLIR for a variant; ``check(v, x, outputs)``
compares results with numpy in a way that holds whatever order a strict
comparator leaves ties in: values exactly, and indices by what they point at
(and that each row's indices are distinct).
"""

from __future__ import annotations

import itertools
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


def program(v: Variant) -> str:
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
        f"iterator_types = [\"parallel\", \"parallel\"]}} outs(%e : {it}) {{",
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

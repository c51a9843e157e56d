"""Is a compiled program's output right? Against the float64 reference, with an allowance that is earned.

Integers and booleans must be equal. A float output ``c`` is compared with the
reference ``r`` (the program computed in float64) element by element, and may
differ by

    |c - r| <= 8 * |n - r| + 16 * eps(dtype) * (|r| + scale)

where ``n`` is the program computed by the same reference implementation in
the program's own dtypes and ``scale`` the output's largest |r| (at least 1).
The first term is what rounding in that dtype already cost on these very
numbers (conditioning, long sums, cancellation): a compiler that fuses,
reorders a reduction or keeps an f16 intermediate in f32 lands within a small
multiple of it. The second is a floor of a few ulps for where ``n`` happens to
be exact. float64 is held to float32's eps: IREE demotes f64 to f32 by default.
Indices of a sort, top-k or arg-max are compared by what they point at, so
ties may come back in either order. Non-finite values must match where both
references agree on them; where only one does, the element is precision's
business and is not judged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .program import Program

EPS = {"f64": 2.0**-23, "f32": 2.0**-23, "f16": 2.0**-10, "bf16": 2.0**-7}
ROUNDING_FACTOR = 8.0
ULPS = 16.0


@dataclass
class Verdict:
    right: bool
    measure: str = ""  # where and by how much the first wrong output is off
    wrong_outputs: tuple[int, ...] = ()  # positions in program.outputs


def judge(program: Program, got: list, reference: dict, native: dict, index_view=None) -> Verdict:
    """Compare the compiled program's outputs ``got`` with the reference values (by value id).

    ``index_view(node, source, indices)``: the values ``indices`` (a sort's or arg-max's output) point at.
    """
    if len(got) != len(program.outputs):
        return Verdict(
            False, f"{len(got)} outputs, expected {len(program.outputs)}", tuple(range(len(program.outputs)))
        )
    nodes = {n.id: n for n in program.nodes}
    values = program.values()
    wrong, first = [], ""
    for k, (vid, c) in enumerate(zip(program.outputs, got)):
        v = values[vid]
        c = np.asarray(c)
        r, n = np.asarray(reference[vid]), np.asarray(native[vid])
        if c.shape != r.shape:
            why = f"output {k}: shape {c.shape}, expected {r.shape}"
        elif v.sink and vid in nodes and index_view is not None:
            node = nodes[vid]
            src = reference[node.args[0]]
            why = _exact(
                k, index_view(node, src, c), index_view(node, src, r.astype(c.dtype)), "the values its indices select"
            )
        elif v.dtype in EPS:
            why = _close(k, c.astype(np.float64), r.astype(np.float64), n.astype(np.float64), EPS[v.dtype])
        else:
            why = _exact(k, c, r, "")
        if why:
            wrong.append(k)
            first = first or why
    return Verdict(not wrong, first, tuple(wrong))


def _exact(k: int, c, r, what: str) -> str:
    c, r = np.asarray(c), np.asarray(r)
    if c.shape != r.shape:
        return f"output {k}: shape {c.shape}, expected {r.shape}"
    bad = c.astype(np.float64) != r.astype(np.float64)
    if not bad.any():
        return ""
    at = tuple(int(i) for i in np.argwhere(bad)[0])
    what = f" ({what})" if what else ""
    return f"output {k}{what}: {int(bad.sum())}/{bad.size} elements differ, first at {list(at)}: {c[at]} vs {r[at]}"


def _close(k: int, c, r, n, eps: float) -> str:
    finite_r, finite_n = np.isfinite(r), np.isfinite(n)
    judged = finite_r == finite_n  # where the two references disagree on finiteness, precision decides
    scale = max(1.0, float(np.max(np.abs(np.where(finite_r, r, 0.0)))) if r.size else 1.0)
    with np.errstate(all="ignore"):
        err = np.abs(c - r)
        allowed = ROUNDING_FACTOR * np.abs(n - r) + ULPS * eps * (np.abs(r) + scale)
        ok_finite = finite_r & np.isfinite(c) & (err <= allowed)
        same_nonfinite = ~finite_r & ((np.isnan(r) & np.isnan(c)) | (np.isinf(r) & (c == r)))
    bad = judged & ~(ok_finite | same_nonfinite)
    if not bad.any():
        return ""
    at = tuple(int(i) for i in np.argwhere(bad)[0])
    worst = (
        float(np.nanmax(np.where(bad & np.isfinite(err), err, 0.0))) if np.isfinite(err[bad]).any() else float("nan")
    )
    return (
        f"output {k}: {int(bad.sum())}/{bad.size} elements off, max abs error {worst:.3g} "
        f"(scale {scale:.3g}), first at {list(at)}: {c[at]:.6g} vs {r[at]:.6g} (allowed {allowed[at]:.3g})"
    )

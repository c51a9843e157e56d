"""torch-multinomial-inverse-cdf's figures: torch.multinomial with replacement, stock IREE against ``--fixes``.

Each form (1-D and 2-D weights, static and dynamic sizes, draws a row) is compiled for llvm-cpu by stock
iree-compile 3.13 and by ``opt-py compile --fixes``, then called once a repetition in the worker's child
process (stock's host loops may fault), stock and ``--fixes`` interleaved; the time is the median call,
the verdict that of the test's check (``opt_py.bench.multinomial.draws_wrong``: in range, no category of weight 0,
chi-square within df + 8 sqrt(2 df) per row). Rows are one-hot where the form says
so, so a wrong draw is any draw off the hot category.

    python tools/bench_multinomial.py [--reps R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# (name, weights' shape, one-hot rows, dynamic sizes, draws a row)
FORMS = [
    ("row", (100,), False, True, 4096),
    ("row", (100,), False, True, 65536),
    ("row", (100,), False, False, 65536),
    ("rows", (10, 100), False, True, 65536),
    ("rows", (5, 9), True, False, 4096),
    ("rows", (1, 9), True, False, 4096),
]


def program(name, shape, dynamic, n) -> str:
    sizes = ",".join("?" if dynamic else str(s) for s in shape)
    rows = ",".join(["?" if dynamic else str(s) for s in shape[:-1]] + [str(n)])
    pt, rt = f"!torch.vtensor<[{sizes}],f32>", f"!torch.vtensor<[{rows}],si64>"
    return (
        f"func.func @{name}(%p: {pt}) -> {rt} {{\n  %n = torch.constant.int {n}\n  %t = torch.constant.bool true\n"
        f"  %none = torch.constant.none\n  %r = torch.aten.multinomial %p, %n, %t, %none : {pt}, !torch.int, "
        f"!torch.bool, !torch.none -> {rt}\n  return %r : {rt}\n}}\n"
    )


def weights(shape, one_hot: bool) -> np.ndarray:
    if not one_hot:
        return np.random.default_rng(0).uniform(0.05, 3.0, shape).astype(np.float32)
    w = np.zeros(shape, np.float32)
    w[np.arange(shape[0]), (3 * np.arange(shape[0]) + 1) % shape[1]] = 1.0
    return w


def main() -> int:
    from opt_py.bench.multinomial import draws_wrong
    from opt_py.execution import e2e, worker

    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    cpu = e2e.TARGETS["cpu"]
    print(f"command: python tools/bench_multinomial.py --reps {args.reps}\n")
    print("| weights | draws a row | stock | `--fixes` |")
    print("| --- | ---: | --- | --- |")
    tmp = Path(tempfile.mkdtemp(prefix="bench_multinomial_"))
    for name, shape, one_hot, dynamic, n in FORMS:
        path = tmp / f"{name}.mlir"
        path.write_text(program(name, shape, dynamic, n))
        w = weights(shape, one_hot)
        modules, cells, times = {}, {}, {"stock": [], "fixes": []}
        for variant, fixes in (("stock", None), ("fixes", "all")):
            result = e2e.compile_result(str(path), cpu, fixes=fixes)
            if result.ok:
                modules[variant] = result.output
            else:
                cells[variant] = "compile fails: " + result.messages[0].split("error: ")[-1][:60]
        for _ in range(args.reps):
            for variant, vmfb in modules.items():
                if variant in cells:
                    continue
                t0 = time.perf_counter()
                out = worker.run(worker.Request(vmfb, cpu.device, name, [w], calls=1), timeout=600)
                times[variant].append(time.perf_counter() - t0)
                if out.fault or out.error:
                    cells[variant] = f"fails at run time: {(out.fault or out.error)[:60]}"
                elif why := draws_wrong(w, out.calls[0]["results"][0], n):
                    cells[variant] = f"wrong: {why}"
        for variant in modules:
            cells.setdefault(variant, f"right, {statistics.median(times[variant]) * 1e3:.1f} ms")
        kind = f"{'one-hot ' if one_hot else ''}{'x'.join(map(str, shape))} f32, {'dynamic' if dynamic else 'static'}"
        print(f"| {kind} | {n} | {cells['stock']} | {cells['fixes']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

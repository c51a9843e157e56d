"""Issue-6 figures for sort-drop-unused-results.

1. Speed: on a module of 2,000 functions, each holding a sort with an unused
   result, the Python pass vs C++ canonicalize (which drops the same results),
   pipeline time only, medians of interleaved runs.
2. Reach: how many top-k variants (python/cases/topk.py's matrix: indices/values/
   both, k from 1 to the width, widths 8..1024, f32/f16/i32, static/dynamic
   batch, ascending/descending) compile for cuda sm_80 and rocm gfx942 with
   stock IREE and with the pass injected at executable-sources.

    python tools/bench_topk.py [--reps N] [--sample N]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
from collections import Counter

from opt_py.bench.timing import pipeline_medians

SORT_FUNC = """
func.func @f{i}(%v: tensor<64xf32>, %k: tensor<64xi32>) -> tensor<64xf32> {{
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%v, %k : tensor<64xf32>, tensor<64xi32>) {{
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  }} -> tensor<64xf32>, tensor<64xi32>
  return %s#0 : tensor<64xf32>
}}
"""


def speed(reps: int, n: int = 2000):
    from iree.compiler import ir

    text = "".join(SORT_FUNC.format(i=i) for i in range(n))
    pipelines = {
        "C++ canonicalize": "builtin.module(func.func(canonicalize))",
        "sort-drop-unused-results": "builtin.module(func.func(sort-drop-unused-results))",
    }

    def check(name, module):
        assert "outs(%arg0 : tensor<64xf32>)" in str(module)  # the result was dropped

    return pipeline_medians(text, pipelines, reps, check, context=ir.Context())


def _compile_one(job):
    from opt_py.cases import topk
    from opt_py.execution import e2e

    variant, target_name, with_pass = job
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "p.mlir")
        with open(path, "w") as f:
            f.write(topk.program(variant))
        try:
            e2e.compile_program(
                path,
                e2e.TARGETS[target_name],
                inject=("executable-sources:sort-drop-unused-results",) if with_pass else (),
            )
            return job, True
        except Exception:  # noqa: BLE001 - a compile failure is what we count
            return job, False


def reach(sample: int | None):
    from opt_py.cases import topk

    variants = topk.matrix()
    if sample:
        variants = variants[:: max(1, len(variants) // sample)]
    jobs = [(v, t, p) for v in variants for t in ("cuda", "rocm") for p in (False, True)]
    ok = Counter()
    failing = []
    # spawn, not fork: the parent holds MLIR contexts and thread pools already.
    with multiprocessing.get_context("spawn").Pool(2, maxtasksperchild=20) as pool:
        for (v, t, p), good in pool.imap_unordered(_compile_one, jobs):
            ok[(t, p)] += good
            if p and not good:
                failing.append((t, v.name))
    return len(variants), ok, failing


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--sample", type=int, default=None, help="compile only about this many variants")
    args = ap.parse_args()
    cmd = "python tools/bench_topk.py" + (f" --sample {args.sample}" if args.sample else "")
    print(f"command: {cmd}\n")
    s = speed(args.reps)
    base = s["C++ canonicalize"]
    print("| 2,000 functions, each a sort with an unused result | median | vs canonicalize |")
    print("| --- | ---: | ---: |")
    for name, t in s.items():
        print(f"| {name} | {t * 1000:.1f} ms | {t / base:.2f}x |")
    n, ok, failing = reach(args.sample)
    print(f"\n| top-k variants compiling (of {n}) | stock iree-compile 3.13 | with sort-drop-unused-results |")
    print("| --- | ---: | ---: |")
    for t, label in (("cuda", "cuda sm_80"), ("rocm", "rocm gfx942")):
        print(f"| {label} | {ok[(t, False)]} | {ok[(t, True)]} |")
    for t, name in failing[:20]:
        print(f"still failing with the pass: {t} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Issue-7 figures for gather-to-load.

1. Speed: a module of 10,000 contiguous gathers (half zero-based, which
   upstream canonicalize folds; half step + broadcast, which only opt-py
   folds): `gather-to-load,canonicalize` vs `canonicalize` alone, pipeline
   time only, medians of interleaved runs.
2. Runtime: the embedding read of test/passes/test_gather_to_load.py at a larger size
   (a 4096x256 table, 2048 rows of 64), compiled for llvm-cpu with and without
   the passes injected after bufferization, run through iree.runtime.

    python tools/bench_gather.py [--reps N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np
from opt_py.bench.timing import pipeline_medians, register_floor_pass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def gathers_module(n: int) -> str:
    body = []
    for i in range(n):
        if i % 2:
            body.append(
                f"  %b{i} = vector.broadcast %k{i % 7} : index to vector<8xindex>\n"
                f"  %x{i} = arith.addi %s, %b{i} : vector<8xindex>\n"
            )
            idx = f"%x{i}"
        else:
            idx = "%s"
        body.append(
            f"  %g{i} = vector.gather %base[%j] [{idx}], %m, %p : memref<4096xf32>, vector<8xindex>, "
            f"vector<8xi1>, vector<8xf32> into vector<8xf32>\n"
            f"  vector.store %g{i}, %out[%j] : memref<4096xf32>, vector<8xf32>\n"
        )
    ks = ", ".join(f"%k{i}: index" for i in range(7))
    return (
        f"func.func @f(%base: memref<4096xf32>, %out: memref<4096xf32>, %j: index, {ks}) {{\n"
        "  %s = vector.step : vector<8xindex>\n  %m = arith.constant dense<true> : vector<8xi1>\n"
        "  %p = arith.constant dense<0.0> : vector<8xf32>\n" + "".join(body) + "  return\n}\n"
    )


def speed(reps: int):
    from iree.compiler import ir

    text = gathers_module(10_000)
    floor = register_floor_pass("vector.gather", "bench-floor-gather")
    pipelines = {
        "canonicalize": "builtin.module(func.func(canonicalize))",
        "gather-to-load,canonicalize": "builtin.module(func.func(gather-to-load,canonicalize))",
        "floor: one trivial Python rewrite per gather, canonicalize": f"builtin.module(func.func({floor},canonicalize))",
    }
    left = {}

    def check(name, module):
        left[name] = str(module).count("vector.gather")

    return pipeline_medians(text, pipelines, reps, check, context=ir.Context()), left


PROGRAM = """
func.func @read(%table: tensor<4096x256xf32>, %rows: tensor<2048xi32>, %cols: tensor<2048xi32>) -> tensor<2048x64xf32> {
  %e = tensor.empty() : tensor<2048x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%rows, %cols : tensor<2048xi32>, tensor<2048xi32>) outs(%e : tensor<2048x64xf32>) {
  ^bb0(%rw: i32, %cl: i32, %o: f32):
    %row = arith.index_cast %rw : i32 to index
    %c0 = arith.index_cast %cl : i32 to index
    %j = linalg.index 1 : index
    %col = arith.addi %c0, %j : index
    %v = tensor.extract %table[%row, %col] : tensor<4096x256xf32>
    linalg.yield %v : f32
  } -> tensor<2048x64xf32>
  return %r : tensor<2048x64xf32>
}
"""


def runtime(reps: int):
    import iree.runtime as rt
    from opt_py.execution import e2e

    target = e2e.TARGETS["cpu"]
    rng = np.random.default_rng(0)
    table = rng.standard_normal((4096, 256)).astype(np.float32)
    rows = rng.integers(0, 4096, 2048).astype(np.int32)
    cols = rng.integers(0, 256 - 64, 2048).astype(np.int32)
    want = table[rows[:, None], cols[:, None] + np.arange(64)]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "read.mlir")
        with open(path, "w") as f:
            f.write(PROGRAM)
        builds = {
            "stock IREE": e2e.compile_program(path, target),
            "with gather-to-load": e2e.compile_program(
                path,
                target,
                inject_codegen=(
                    "after:iree-codegen-iree-comprehensive-bufferize:gather-to-load,fold-subview-into-gather",
                ),
            ),
        }
    for name, vmfb in builds.items():
        config = rt.Config(target.device)
        ctx = rt.SystemContext(config=config)
        ctx.add_vm_module(rt.VmModule.copy_buffer(config.vm_instance, vmfb))
        fn = ctx.modules.module["read"]
        dev = [rt.asdevicearray(config.device, a) for a in (table, rows, cols)]
        got = np.asarray(fn(*dev))
        assert np.array_equal(got, want), name
        ts = []
        for _ in range(reps):
            t = time.perf_counter()
            fn(*dev)
            ts.append(time.perf_counter() - t)
        out[name] = statistics.median(ts)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()
    print("command: python tools/bench_gather.py\n")
    s, left = speed(args.reps)
    base = s["canonicalize"]
    print("| 10,000 contiguous gathers (half zero-based) | median | vs canonicalize | gathers left |")
    print("| --- | ---: | ---: | ---: |")
    for name, t in s.items():
        print(f"| {name} | {t * 1000:.1f} ms | {t / base:.2f}x | {left[name]} |")
    r = runtime(max(50, args.reps * 20))
    base = r["stock IREE"]
    print("\n| embedding read, 2048 rows of 64 from 4096x256, llvm-cpu | median | vs stock |")
    print("| --- | ---: | ---: |")
    for name, t in r.items():
        print(f"| {name} | {t * 1e6:.0f} us | {t / base:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

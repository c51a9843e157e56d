"""Top-k speed on CPU: sort-slice-to-topk vs stock IREE's sort path vs torch.topk.

The program is what torch.topk(x, k, dim=-1).indices exports to (a sort with
`oge` over the values and an i64 iota, indices sliced), x of 37 x width f32.
IREE is timed with iree-benchmark-module (min over repetitions of the mean
per call) on local-sync (one thread, no scheduling) and local-task (thread
pool); a one-dispatch elementwise module of the same shape gives the
runtime's floor. torch is timed with torch.utils.benchmark (2 threads).
Stock IREE's bubble sort is O(width^2) per row: at width 32768 one call would
take minutes, so it is run only with --stock-wide.

    python tools/bench_topk_speed.py [--stock-wide] [--widths 64,1024,32768] [--ks 1,4,64]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

from opt_py.cases import topk
from opt_py.iree import e2e

B = 37


def program(width, k):
    v = topk.Variant("indices", k, width, "f32", B, "desc")
    return topk.program(v).replace("cmpf ogt", "cmpf oge").replace("xi32>", "xi64>") \
        .replace(": i32", ": i64").replace("to i32", "to i64")


def trivial(width):
    return (f"func.func @topk(%x: tensor<{B}x{width}xf32>) -> tensor<{B}x{width}xf32> {{\n"
            f"  %r = arith.negf %x : tensor<{B}x{width}xf32>\n  return %r : tensor<{B}x{width}xf32>\n}}\n")


def bench(vmfb, width, device, reps=5, min_time="0.1s"):
    with tempfile.NamedTemporaryFile(suffix=".vmfb") as f:
        f.write(vmfb)
        f.flush()
        out = subprocess.run(
            ["nice", "-n", "10", e2e._runtime_tool("iree-benchmark-module"), f"--module={f.name}",
             f"--device={device}", "--function=topk", f"--input={B}x{width}xf32",
             f"--benchmark_min_time={min_time}", f"--benchmark_repetitions={reps}"],
            capture_output=True, text=True, check=True).stdout
    times = []
    for line in out.splitlines():
        m = re.match(r"BM_\S+\s+([\d.]+) (ns|us|ms|s)\b", line)
        if m and not re.search(r"_(mean|median|stddev|cv)\b", line.split()[0]):
            times.append(float(m.group(1)) * {"ns": 1e-3, "us": 1, "ms": 1e3, "s": 1e6}[m.group(2)])
    return min(times)


def torch_us(width, k):
    import torch
    import torch.utils.benchmark as tb

    torch.set_num_threads(2)
    x = torch.randn(B, width)
    t = tb.Timer("torch.topk(x, k, dim=-1).indices", globals=dict(torch=torch, x=x, k=k))
    return t.blocked_autorange(min_run_time=0.3).median * 1e6


def compile_text(text, inject):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "p.mlir")
        open(p, "w").write(text)
        return e2e.compile_program(p, e2e.TARGETS["cpu"], inject=inject)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stock-wide", action="store_true", help="also time stock IREE's sort at width 32768")
    ap.add_argument("--widths", default="64,1024,32768")
    ap.add_argument("--ks", default="1,4,64")
    a = ap.parse_args()
    fmt = "{:>6} {:>3} | {:>9} {:>9} | {:>9} {:>9} | {:>9} {:>9} | {:>8} | {:>9}"
    print(f"x: {B} x width f32, indices of torch.topk(x, k, dim=-1); times in us (min of 5 x mean)")
    print(fmt.format("width", "k", "topk-sync", "topk-task", "sort-sync", "sort-task",
                     "floor-syn", "floor-tsk", "torch", "vs torch"))
    for width in map(int, a.widths.split(",")):
        floor = compile_text(trivial(width), ())
        fs, ft = bench(floor, width, "local-sync"), bench(floor, width, "local-task")
        for k in map(int, a.ks.split(",")):
            if k > width:
                continue
            text = program(width, k)
            new = compile_text(text, ("global-optimization:sort-slice-to-topk",))
            ns, nt = bench(new, width, "local-sync"), bench(new, width, "local-task")
            if width <= 1024 or a.stock_wide:
                stock = compile_text(text, ())
                quick = dict(reps=1, min_time="1x") if width > 64 else {}
                ss, st = bench(stock, width, "local-sync", **quick), bench(stock, width, "local-task", **quick)
                ss, st = f"{ss:.1f}", f"{st:.1f}"
            else:
                ss = st = "skipped"
            t = torch_us(width, k)
            print(fmt.format(width, k, f"{ns:.1f}", f"{nt:.1f}", ss, st, f"{fs:.1f}", f"{ft:.1f}",
                             f"{t:.1f}", f"{ns / t:.1f}x"), flush=True)


if __name__ == "__main__":
    main()

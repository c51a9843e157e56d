"""Top-k speed on CPU, what tools/bench_topk_speed.py and tools/bench_topk_ab.py share: the program
torch.topk(x, k, dim=-1).indices exports to (a sort with ``oge`` over the values and an i64 iota, indices
sliced), x of ``B`` x width f32; its time per call under iree-benchmark-module, and torch.topk's.
"""

import os
import re
import subprocess
import tempfile

from opt_py.cases import topk
from opt_py.execution import e2e

B = 37


def program(width, k):
    v = topk.Variant("indices", k, width, "f32", B, "desc")
    return (
        topk.program(v)
        .replace("cmpf ogt", "cmpf oge")
        .replace("xi32>", "xi64>")
        .replace(": i32", ": i64")
        .replace("to i32", "to i64")
    )


def trivial(width):
    return (
        f"func.func @topk(%x: tensor<{B}x{width}xf32>) -> tensor<{B}x{width}xf32> {{\n"
        f"  %r = arith.negf %x : tensor<{B}x{width}xf32>\n  return %r : tensor<{B}x{width}xf32>\n}}\n"
    )


def bench(vmfb, width, device, reps=5, min_time="0.1s"):
    """min over ``reps`` repetitions of iree-benchmark-module's mean time per call, in us."""
    with tempfile.NamedTemporaryFile(suffix=".vmfb") as f:
        f.write(vmfb)
        f.flush()
        out = subprocess.run(
            [
                "nice",
                "-n",
                "10",
                e2e.runtime_tool("iree-benchmark-module"),
                f"--module={f.name}",
                f"--device={device}",
                "--function=topk",
                f"--input={B}x{width}xf32",
                f"--benchmark_min_time={min_time}",
                f"--benchmark_repetitions={reps}",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
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

"""Issue-3 figures: the cost of injecting Python passes into IREE compilation.

Compiles one program with >= 100 dispatches (for llvm-cpu) three ways, side
by side, interleaved, several times:

  iree-compile                      plain
  opt-py compile --inject ...       a no-op Python pass at executable-sources
  iree-compile --iree-hal-preprocess-executables-with="opt-py --pipeline=..."

The no-op pass is a real pattern pass (rooted on an op that never occurs) run
on every dispatch function. Prints medians and ratios, and the dispatch count
read back from the compiled IR.

    python tools/bench_compile.py [--reps N] [--dispatches N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NOOP_PASS = """
from dataclasses import dataclass
from opt_py import PatternPass, pattern

@pattern("tensor.collapse_shape")
def never_matches(op, rewriter):
    return False

@dataclass(frozen=True)
class BenchNoop(PatternPass):
    name = "bench-noop"
    anchor = "func.func"
    summary = "A pattern pass whose root op never occurs"
    def patterns(self):
        return [never_matches]
"""


def program(n: int) -> str:
    # Each function's dispatch multiplies by its own constant, so no two
    # executables are identical and none are deduplicated or fused.
    funcs = []
    for i in range(n):
        funcs.append(
            f"func.func @f{i}(%a: tensor<64xf32>) -> tensor<64xf32> {{\n"
            f"  %c = arith.constant dense<{i + 1}.5> : tensor<64xf32>\n"
            f"  %0 = arith.mulf %a, %c : tensor<64xf32>\n"
            f"  return %0 : tensor<64xf32>\n}}\n"
        )
    return "\n".join(funcs)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--dispatches", type=int, default=120)
    args = ap.parse_args()

    from iree.compiler.tools.binaries import find_tool

    bindir = Path(sys.executable).parent
    iree_compile = find_tool("iree-compile")
    flags = [
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
        "--iree-llvmcpu-target-cpu=generic",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        src = tmp / "prog.mlir"
        src.write_text(program(args.dispatches))
        plugin = tmp / "bench_noop.py"
        plugin.write_text(NOOP_PASS)
        # Tool mode needs a bare command name on PATH that loads the plugin:
        # a tiny wrapper script.
        wrapper = tmp / "opt-py-bench-noop"
        wrapper.write_text(f"#!/bin/sh\nexec {bindir / 'opt-py'} --load-pass-plugin={plugin} --pipeline=bench-noop\n")
        wrapper.chmod(0o755)
        env = dict(os.environ, PATH=f"{tmp}{os.pathsep}{bindir}{os.pathsep}{os.environ.get('PATH', '')}")

        variants = {
            "iree-compile": [iree_compile, str(src), "-o", str(tmp / "a.vmfb"), *flags],
            "opt-py compile (no-op Python pass at executable-sources)": [
                str(bindir / "opt-py"),
                "compile",
                str(src),
                "-o",
                str(tmp / "b.vmfb"),
                f"--load-pass-plugin={plugin}",
                "--inject",
                "executable-sources:bench-noop",
                *flags,
            ],
            "tool mode (--iree-hal-preprocess-executables-with)": [
                iree_compile,
                str(src),
                "-o",
                str(tmp / "c.vmfb"),
                *flags,
                "--iree-hal-preprocess-executables-with=opt-py-bench-noop",
            ],
        }
        # Count dispatches once, from the IR at executable-sources.
        ir_out = tmp / "sources.mlir"
        subprocess.run(
            [iree_compile, str(src), "-o", str(ir_out), "--compile-to=executable-sources", *flags], check=True, env=env
        )
        n_exec = ir_out.read_text().count("hal.executable private")

        times: dict[str, list[float]] = {k: [] for k in variants}
        for _ in range(args.reps):
            for name, cmd in variants.items():
                t = time.perf_counter()
                subprocess.run(cmd, check=True, env=env, capture_output=True)
                times[name].append(time.perf_counter() - t)

    base = statistics.median(times["iree-compile"])
    print(f"program: {args.dispatches} functions -> {n_exec} hal.executables (dispatches), llvm-cpu")
    print(f"command: python tools/bench_compile.py --reps {args.reps} --dispatches {args.dispatches}\n")
    print("| variant | median wall time (s) | vs iree-compile |")
    print("| --- | ---: | ---: |")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"| {name} | {m:.2f} | {m / base:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

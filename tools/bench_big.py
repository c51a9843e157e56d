"""Big inputs, side by side: an empty pipeline over a 10-50 MB module, opt-py against native iree-opt.

    python tools/bench_big.py [--mb 50] [--reps 3] [--baseline PYTHONPATH]

Writes a module of many small functions (about ``--mb`` MB), then runs
``iree-opt`` (native) and ``opt-py`` (cold: OPT_PY_NO_SERVER=1) on it with
an empty pipeline, interleaved, output to a file. Reported: median wall time,
user and system time, and peak RSS (``wait4``'s ru_maxrss of the child).
``--baseline`` adds ``opt-py`` from another checkout (its PYTHONPATH), in
the same rounds; every opt-py output is checked to equal the first one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

FUNCTION = """func.func @f{i}(%a: tensor<4x{n}xf32>, %b: tensor<4x{n}xf32>, %s: index) -> (tensor<4x{n}xf32>, index) {{
  %c1 = arith.constant 1 : index
  %0 = arith.addf %a, %b : tensor<4x{n}xf32>
  %1 = arith.mulf %0, %a : tensor<4x{n}xf32>
  %2 = arith.addi %s, %c1 : index
  %3 = arith.muli %2, %s : index
  return %1, %3 : tensor<4x{n}xf32>, index
}}
"""


def write_module(path: str, mb: float) -> int:
    target, n, size = int(mb * 1e6), 0, 0
    with open(path, "w") as f:
        f.write("module {\n")
        while size < target:
            text = FUNCTION.format(i=n, n=n % 97 + 1)
            f.write(text)
            size += len(text)
            n += 1
        f.write("}\n")
    return n


def measure(cmd, env) -> tuple[float, float, float, int]:
    """(wall s, user s, sys s, peak RSS KiB) of one run."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, ru = os.wait4(proc.pid, 0)
    took = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd} failed: {err.decode()[-2000:]}")
    return took, ru.ru_utime, ru.ru_stime, ru.ru_maxrss


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=50)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--baseline", default=None, metavar="PYTHONPATH", help="also opt-py from another checkout")
    args = ap.parse_args()
    from iree.compiler.tools.binaries import find_tool

    with tempfile.TemporaryDirectory(prefix="opt-py-big-") as work:
        src = os.path.join(work, "big.mlir")
        n = write_module(src, args.mb)
        print(f"module: {os.path.getsize(src) / 1e6:.1f} MB, {n} functions")
        env = dict(os.environ, OPT_PY_NO_SERVER="1")
        out = os.path.join(work, "out.mlir")
        cmds = {
            "iree-opt (native)": ([find_tool("iree-opt"), src, "-o", out], env),
            "opt-py": (["opt-py", src, "-o", out], env),
        }
        if args.baseline:
            cmds["opt-py (baseline)"] = (["opt-py", src, "-o", out], dict(env, PYTHONPATH=args.baseline))
        runs = {k: [] for k in cmds}
        first = None
        for _ in range(args.reps):
            for name, (cmd, cmd_env) in cmds.items():
                runs[name].append(measure(cmd, cmd_env))
                if name != "iree-opt (native)":
                    with open(out, "rb") as f:
                        got = f.read()
                    if first is None:
                        first = got
                    elif got != first:
                        raise SystemExit(f"{name} wrote different output")
                    del got
        base = {i: statistics.median(r[i] for r in runs["iree-opt (native)"]) for i in range(4)}
        print(f"{'command':<20} {'wall s':>8} {'user s':>8} {'sys s':>8} {'peak MiB':>9} {'x wall':>7} {'x peak':>7}")
        for name, rs in runs.items():
            m = {i: statistics.median(r[i] for r in rs) for i in range(4)}
            print(
                f"{name:<20} {m[0]:>8.2f} {m[1]:>8.2f} {m[2]:>8.2f} {m[3] / 1024:>9.0f} "
                f"{m[0] / base[0]:>7.2f} {m[3] / base[3]:>7.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

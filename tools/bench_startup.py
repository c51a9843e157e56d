"""Start-up, side by side in one run: native iree-opt, Python, opt-py cold and warm.

    python tools/bench_startup.py [--reps 15] [--baseline PYTHONPATH] [--lit]

Each round runs every command once, in turn (interleaved, so load on the
machine hits all of them alike); the figures are medians of wall time. The
file is one function through ``canonicalize``. ``opt-py warm`` is the second
and later runs with the warm server up (its own temporary
``XDG_RUNTIME_DIR``); ``opt-py cold`` sets ``OPT_PY_NO_SERVER=1``.
``--baseline`` adds a cold ``opt-py`` from another checkout (its PYTHONPATH).
``--lit`` adds the wall time of the lit suite, interleaved: cold with PyPI's
``filecheck`` (as before LLVM's FileCheck checked it), cold, and warm.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

from benchlib import wall

ONE_FUNCTION = """func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  return %0 : i32
}
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--baseline", default=None, metavar="PYTHONPATH", help="a cold opt-py from another checkout")
    ap.add_argument("--lit", action="store_true", help="also time the lit suite cold and warm")
    ap.add_argument("--lit-reps", type=int, default=3)
    args = ap.parse_args()

    from iree.compiler.tools.binaries import find_tool

    work = tempfile.mkdtemp(prefix="opt-py-bench-")
    runtime = os.path.join(work, "run")
    os.mkdir(runtime, 0o700)
    src = os.path.join(work, "one.mlir")
    with open(src, "w") as f:
        f.write(ONE_FUNCTION)
    opt_py = shutil.which("opt-py") or "opt-py"
    base = dict(os.environ)
    cold = dict(base, OPT_PY_NO_SERVER="1")
    warm = dict(base, XDG_RUNTIME_DIR=runtime, OPT_PY_SERVER_IDLE="120")
    warm.pop("OPT_PY_NO_SERVER", None)
    py = sys.executable
    cmds = {
        "iree-opt (native)": ([find_tool("iree-opt"), "--pass-pipeline=builtin.module(canonicalize)", src], base),
        "python -S -c pass": ([py, "-S", "-c", "pass"], base),
        "python -I -c pass": ([py, "-I", "-c", "pass"], base),
        "python -c pass": ([py, "-c", "pass"], base),
        'python -c "import iree.compiler.ir"': ([py, "-c", "import iree.compiler.ir"], base),
        "opt-py cold": ([opt_py, "-p", "canonicalize", src], cold),
        "opt-py warm": ([opt_py, "-p", "canonicalize", src], warm),
    }
    if args.baseline:
        cmds["opt-py cold, baseline checkout"] = (
            [opt_py, "-p", "canonicalize", src],
            dict(cold, PYTHONPATH=args.baseline),
        )
    try:
        wall(*cmds["opt-py warm"])  # starts the server
        time.sleep(3)
        times = {k: [] for k in cmds}
        for _ in range(args.reps + 1):
            for name, (cmd, env) in cmds.items():
                times[name].append(wall(cmd, env))
        native = statistics.median(times["iree-opt (native)"][1:])
        print(f"{'command':<40} {'median ms':>10} {'x native':>9}")
        for name, ts in times.items():
            m = statistics.median(ts[1:])
            print(f"{name:<40} {m * 1e3:>10.1f} {m / native:>9.2f}")
        if args.lit:
            lit_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test", "lit")
            lit = [py, "-c", "import sys; from lit.main import main; sys.exit(main())", "-q", lit_dir]
            # "before": how the suite ran when issue 17 was filed (cold, PyPI's filecheck on every RUN line)
            lit_env = {
                "cold, PyPI filecheck (before)": dict(cold, OPT_PY_FILECHECK="filecheck"),
                "cold": cold,
                "warm": warm,
            }
            wall(lit, warm)  # a server for lit's environment
            time.sleep(3)
            lt = {k: [] for k in lit_env}
            for _ in range(args.lit_reps):
                for k, env in lit_env.items():
                    lt[k].append(wall(lit, env))
            for k, ts in lt.items():
                print(f"{'lit suite ' + k:<40} {statistics.median(ts) * 1e3:>10.1f}")
    finally:
        _stop_servers(runtime)
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _stop_servers(runtime: str) -> None:
    """The servers this benchmark started exit once their socket is gone."""
    d = os.path.join(runtime, "opt-py")
    for name in os.listdir(d) if os.path.isdir(d) else []:
        os.unlink(os.path.join(d, name))


if __name__ == "__main__":
    sys.exit(main())

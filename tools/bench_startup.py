"""Start-up, side by side in one run: native iree-opt, Python, opt-py cold and warm.

    python tools/bench_startup.py [--reps 15] [--baseline PYTHONPATH] [--lit] [--first]

Each round runs every command once, in turn (interleaved, so load on the
machine hits all of them alike); the figures are medians of wall time, and
the last line the median of the warm/native ratios within each round. The
file is one function through ``builtin.module(canonicalize)``. ``opt-py
warm`` is the second and later runs with the warm server up (its own
temporary ``XDG_RUNTIME_DIR``); ``opt-py cold`` sets ``OPT_PY_NO_SERVER=1``.
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

from opt_py.bench.timing import wall

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
    ap.add_argument(
        "--first",
        action="store_true",
        help="give this benchmark's processes and its warm server the CPU first on a loaded machine "
        "(their scheduling groups at nice -19, /proc/PID/autogroup; needs root)",
    )
    args = ap.parse_args()
    before = _first("self") if args.first else None
    work = tempfile.mkdtemp(prefix="opt-py-bench-")
    runtime = os.path.join(work, "run")
    os.mkdir(runtime, 0o700)
    src = os.path.join(work, "one.mlir")
    with open(src, "w") as f:
        f.write(ONE_FUNCTION)
    cold, warm = _environments(runtime)
    try:
        cmds = _commands(src, cold, warm, args.baseline)
        _report(_rounds(cmds, args.reps, runtime if args.first else None))
        if args.lit:
            _lit(cold, warm, args.lit_reps)
    finally:
        _stop_servers(runtime)
        shutil.rmtree(work, ignore_errors=True)
        if before is not None:
            _first("self", before)  # the caller's session gets its own priority back
    return 0


def _environments(runtime: str) -> tuple[dict, dict]:
    """(cold, warm): the server off, or on with its own runtime directory."""
    base = dict(os.environ)
    cold = dict(base, OPT_PY_NO_SERVER="1")
    warm = dict(base, XDG_RUNTIME_DIR=runtime, OPT_PY_SERVER_IDLE="120")
    warm.pop("OPT_PY_NO_SERVER", None)
    return cold, warm


def _commands(src: str, cold: dict, warm: dict, baseline: str | None) -> dict:
    from iree.compiler.tools.binaries import find_tool

    opt_py = shutil.which("opt-py") or "opt-py"
    base = dict(os.environ)
    py = sys.executable
    cmds = {
        "iree-opt (native)": ([find_tool("iree-opt"), "--pass-pipeline=builtin.module(canonicalize)", src], base),
        "python -S -c pass": ([py, "-S", "-c", "pass"], base),
        "python -I -c pass": ([py, "-I", "-c", "pass"], base),
        "python -c pass": ([py, "-c", "pass"], base),
        'python -c "import iree.compiler.ir"': ([py, "-c", "import iree.compiler.ir"], base),
        "opt-py cold": ([opt_py, "-p", "builtin.module(canonicalize)", src], cold),
        "opt-py warm": ([opt_py, "-p", "builtin.module(canonicalize)", src], warm),
    }
    if baseline:
        cmds["opt-py cold, baseline checkout"] = (
            [opt_py, "-p", "builtin.module(canonicalize)", src],
            dict(cold, PYTHONPATH=baseline),
        )
    return cmds


def _rounds(cmds: dict, reps: int, first_runtime: str | None = None) -> dict[str, list[float]]:
    """Each command once per round, in turn; the first round (warm-up) dropped."""
    wall(*cmds["opt-py warm"])  # starts the server
    time.sleep(3)
    if first_runtime is not None:
        for pid in _servers_of(first_runtime):
            _first(pid)
    times = {k: [] for k in cmds}
    for _ in range(reps + 1):
        for name, (cmd, env) in cmds.items():
            times[name].append(wall(cmd, env))
    return {k: v[1:] for k, v in times.items()}


def _report(times: dict[str, list[float]]) -> None:
    native = statistics.median(times["iree-opt (native)"])
    print(f"{'command':<40} {'median ms':>10} {'x native':>9}")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"{name:<40} {m * 1e3:>10.1f} {m / native:>9.2f}")
    ratios = [w / n for w, n in zip(times["opt-py warm"], times["iree-opt (native)"])]
    print(f"{'opt-py warm / native, same round':<40} {'':>10} {statistics.median(ratios):>9.2f}")


def _lit(cold: dict, warm: dict, reps: int) -> None:
    lit_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test", "lit")
    lit = [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())", "-q", lit_dir]
    # "before": how the suite ran when issue 17 was filed (cold, PyPI's filecheck on every RUN line)
    lit_env = {"cold, PyPI filecheck (before)": dict(cold, OPT_PY_FILECHECK="filecheck"), "cold": cold, "warm": warm}
    wall(lit, warm)  # a server for lit's environment
    time.sleep(3)
    lt = {k: [] for k in lit_env}
    for _ in range(reps):
        for k, env in lit_env.items():
            lt[k].append(wall(lit, env))
    for k, ts in lt.items():
        print(f"{'lit suite ' + k:<40} {statistics.median(ts) * 1e3:>10.1f}")


def _first(pid, nice: int = -19) -> int:
    """The scheduling group of ``pid`` (its session) at ``nice``; returns the one it had."""
    with open(f"/proc/{pid}/autogroup") as f:
        before = int(f.read().split()[-1])
    with open(f"/proc/{pid}/autogroup", "w") as f:
        f.write(str(nice))
    return before


def _servers_of(runtime: str) -> list[int]:
    """The warm servers serving in ``runtime`` (their own sessions: their own groups)."""
    pids = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if any(b"opt_py.tool.server" in a for a in argv) and any(a.startswith(runtime.encode()) for a in argv):
            pids.append(int(entry))
    return pids


def _stop_servers(runtime: str) -> None:
    """The servers this benchmark started exit once their socket is gone."""
    d = os.path.join(runtime, "opt-py")
    for name in os.listdir(d) if os.path.isdir(d) else []:
        os.unlink(os.path.join(d, name))


if __name__ == "__main__":
    sys.exit(main())

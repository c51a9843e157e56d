#!/usr/bin/env python3
"""Benchmark opt-py's core overheads against plain C++ MLIR, side by side.

Three measurements, variants interleaved, medians (time.perf_counter):

1. startup   ``opt-py`` vs ``iree-opt`` (the console script beside this
             Python; the native binary it execs is timed for reference),
             ``builtin.module(canonicalize)`` on a one-function file.
2. pattern   a Python PatternPass whose ``arith.addi`` pattern is called on
             each of N ops and never matches, vs C++ ``canonicalize`` on the
             same module, in process (only ``run_pipeline`` is timed); pattern
             calls are counted and all N ops must survive.
3. no-root   a Python pass rooted on ``tensor.collapse_shape`` (absent)
             appended to ``canonicalize,cse``, vs ``canonicalize,cse`` alone.

Run:  python tools/bench_core.py [--quick] [--ops N] [--profile] [--check]

Each measurement has a goal (the report's ``goal`` column); ``--check`` makes
a missed goal exit 1. ``--quick``: few repetitions; ``--profile``: where the
Python time of measurement 2 goes (cProfile).
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import opt_py
from opt_py import PatternPass, pattern

# --------------------------------------------------------------------------
# The Python passes under test
# --------------------------------------------------------------------------

PATTERN_CALLS = [0]


@pattern("arith.addi")
def bench_addi_never(op, rewriter):
    PATTERN_CALLS[0] += 1
    return False


@dataclass(frozen=True)
class BenchAddiNever(PatternPass):
    name = "bench-core-addi-never"
    anchor = "func.func"
    summary = "bench_core: a pattern on every arith.addi that never matches"

    def patterns(self):
        return [bench_addi_never]


@pattern("tensor.collapse_shape")
def bench_collapse_never(op, rewriter):
    PATTERN_CALLS[0] += 1
    return False


@dataclass(frozen=True)
class BenchCollapseNever(PatternPass):
    name = "bench-core-collapse-never"
    anchor = "func.func"
    summary = "bench_core: a pattern rooted on an op the module does not hold"

    def patterns(self):
        return [bench_collapse_never]


# --------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------

SMALL_MLIR = """\
func.func @f(%a: i32, %b: i32) -> i32 {
  %c = arith.addi %a, %b : i32
  return %c : i32
}
"""


def big_module(n_ops: int, n_funcs: int) -> str:
    """``n_funcs`` functions holding ``n_ops`` arith.addi in total.

    Each function is one dependence chain over its two arguments, ending in
    the return: no operand is constant (nothing folds), no op is dead
    (nothing is erased), no two ops are alike (nothing for CSE) and no
    canonicalization pattern of addi applies, so canonicalize visits every op
    and keeps it.
    """
    out = []
    per = [n_ops // n_funcs + (1 if i < n_ops % n_funcs else 0) for i in range(n_funcs)]
    for f, count in enumerate(per):
        out.append(f"func.func @chain{f}(%a: i32, %b: i32) -> i32 {{")
        out.append("  %v0 = arith.addi %a, %b : i32")
        for i in range(1, count):
            rhs = "%a" if i % 2 else "%b"
            out.append(f"  %v{i} = arith.addi %v{i - 1}, {rhs} : i32")
        out.append(f"  return %v{count - 1} : i32")
        out.append("}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def median_ms(xs):
    return statistics.median(xs) * 1e3


def fmt_ms(x):
    return f"{x:.1f} ms" if x >= 10 else f"{x:.2f} ms"


def tool_path(name: str) -> str:
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if not found:
        sys.exit(f"bench_core: cannot find '{name}' beside {sys.executable} or on PATH")
    return found


def native_iree_opt() -> str | None:
    try:
        from iree.compiler.tools.binaries import find_tool

        return find_tool("iree-opt")
    except Exception:  # noqa: BLE001 - reference row only
        return None


def count_ops(module, name: str) -> int:
    n = 0
    for f in module.body.operations:
        for region in f.operation.regions:
            for block in region.blocks:
                for op in block.operations:
                    n += op.operation.name == name
    return n


# --------------------------------------------------------------------------
# 1. Startup
# --------------------------------------------------------------------------


def bench_startup(tmp: Path, reps: int):
    small = tmp / "one_func.mlir"
    small.write_text(SMALL_MLIR)
    pipe = "builtin.module(canonicalize)"
    cmds = {
        "opt-py": [tool_path("opt-py"), f"--pipeline={pipe}", str(small)],
        "iree-opt": [tool_path("iree-opt"), f"--pass-pipeline={pipe}", str(small)],
    }
    native = native_iree_opt()
    if native:
        cmds["iree-opt (native binary)"] = [native, f"--pass-pipeline={pipe}", str(small)]

    # Sanity (and warm the page cache): same output, success.
    outputs = {}
    for label, cmd in cmds.items():
        r = subprocess.run(cmd, capture_output=True)
        if r.returncode != 0:
            sys.exit(f"bench_core: {label} failed ({r.returncode}): {r.stderr.decode()}")
        outputs[label] = r.stdout.rstrip()  # iree-opt ends with a blank line, opt-py does not
    if len(set(outputs.values())) != 1:
        sys.exit(f"bench_core: startup commands disagree on output: {outputs}")

    times = {label: [] for label in cmds}
    for _ in range(reps):
        for label, cmd in cmds.items():
            t0 = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
            times[label].append(time.perf_counter() - t0)
    return cmds, {k: median_ms(v) for k, v in times.items()}


# --------------------------------------------------------------------------
# 2. and 3. In-process pipelines
# --------------------------------------------------------------------------


def timed_runs(ctx, text: str, variants: dict, reps: int, warmup: int = 1):
    """{label: [seconds]} for each pipeline, interleaved; parse time excluded.

    A variant is a pipeline, or (pipeline, OptOptions).
    """
    from iree.compiler import ir

    times = {label: [] for label in variants}
    calls = {label: [] for label in variants}
    for rep in range(warmup + reps):
        for label, variant in variants.items():
            pipe, options = variant if isinstance(variant, tuple) else (variant, None)
            with ctx:
                module = ir.Module.parse(text)
            PATTERN_CALLS[0] = 0
            t0 = time.perf_counter()
            opt_py.run_pipeline(module, pipe, options=options)
            dt = time.perf_counter() - t0
            if rep >= warmup:
                times[label].append(dt)
                calls[label].append(PATTERN_CALLS[0])
            del module
    return times, calls


def check_survives(ctx, text: str, pipe: str, n_ops: int):
    """Run ``pipe`` once and insist that every arith.addi is still there."""
    from iree.compiler import ir

    with ctx:
        module = ir.Module.parse(text)
    opt_py.run_pipeline(module, pipe)
    left = count_ops(module, "arith.addi")
    if left != n_ops:
        sys.exit(f"bench_core: '{pipe}' left {left} of {n_ops} arith.addi: the module does not measure what it should")
    return str(module)


def profile_pattern_pass(ctx, text: str, pipe: str, top: int = 25):
    import cProfile
    import io
    import pstats

    from iree.compiler import ir

    with ctx:
        module = ir.Module.parse(text)
    prof = cProfile.Profile()
    prof.enable()
    opt_py.run_pipeline(module, pipe)
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(top)
    return buf.getvalue()


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------


def main(argv=None) -> int:
    args = _parse_args(argv)
    startup_reps = args.startup_reps or (3 if args.quick else 15)
    pattern_reps = args.pattern_reps or (2 if args.quick else 7)
    noroot_reps = args.noroot_reps or (5 if args.quick else 61)
    t_begin = time.perf_counter()
    from iree.compiler import ir

    opt_py.register_pass(BenchAddiNever)
    opt_py.register_pass(BenchCollapseNever)
    _print_header(args, startup_reps, pattern_reps, noroot_reps)
    with tempfile.TemporaryDirectory(prefix="bench_core.") as tmp:
        cmds, rows, notes, ok_all = _measure_startup(Path(tmp), startup_reps)
        text = big_module(args.ops, args.funcs)
        ctx = ir.Context()
        for measure, reps in ((_measure_pattern, pattern_reps), (_measure_no_root, noroot_reps)):
            more_rows, more_notes, ok = measure(ctx, text, args.ops, reps)
            rows, notes, ok_all = rows + more_rows, notes + more_notes, ok_all and ok
        profile = None
        if args.profile:
            profile = profile_pattern_pass(ctx, text, f"builtin.module(func.func({BenchAddiNever.name}))")
    _print_report(rows, notes, cmds, profile)
    print(f"\nTotal benchmark time: {time.perf_counter() - t_begin:.1f} s")
    if not ok_all:
        print("\nAt least one goal was NOT met (see the 'met' column).")
    return 1 if (args.check and not ok_all) else 0


def _parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="few repetitions (CI smoke)")
    ap.add_argument("--ops", type=int, default=20000, help="arith.addi ops in the big module (default 20000)")
    ap.add_argument("--funcs", type=int, default=1, help="functions the ops are spread over (default 1)")
    ap.add_argument("--startup-reps", type=int, help="startup runs per command (default 15, quick 3)")
    ap.add_argument("--pattern-reps", type=int, help="runs per variant for measurement 2 (default 7, quick 2)")
    ap.add_argument("--noroot-reps", type=int, help="runs per variant for measurement 3 (default 61, quick 5)")
    ap.add_argument("--profile", action="store_true", help="cProfile one run of the pattern pass of measurement 2")
    ap.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    return ap.parse_args(argv)


def _print_header(args, startup_reps: int, pattern_reps: int, noroot_reps: int) -> None:
    from importlib.metadata import version

    print("# opt-py core benchmark\n")
    print("Command: `" + shlex.join([sys.executable] + sys.argv) + "`\n")
    try:
        iree_version = version("iree-base-compiler")
    except Exception:  # noqa: BLE001 - the header's version is informative only
        iree_version = "?"
    print(
        f"Python {platform.python_version()}, iree-base-compiler {iree_version}, "
        f"{platform.machine()} {os.cpu_count()} CPUs; {args.ops} arith.addi in {args.funcs} func(s); "
        f"reps: startup {startup_reps}, pattern {pattern_reps}, no-root {noroot_reps} (medians, interleaved)\n"
    )


def _measure_startup(tmp: Path, reps: int):
    """1. startup: (commands, rows, notes, goal met)."""
    cmds, st = bench_startup(tmp, reps)
    ratio = st["opt-py"] / st["iree-opt"]
    ok = ratio <= 1.2
    rows = [("1. startup", "`iree-opt` (console script)", st["iree-opt"], "1.00x", "", None)]
    notes = []
    native = st.get("iree-opt (native binary)")
    if native is not None:
        rows.append(
            ("1. startup", "iree-opt native binary (reference)", native, f"{native / st['iree-opt']:.2f}x", "", None)
        )
        notes.append(
            f"startup: `iree-opt` here is {cmds['iree-opt'][0]}, a Python console script that execs the "
            f"native binary; opt-py is {st['opt-py'] / native:.1f}x the native binary."
        )
    rows.append(("1. startup", "`opt-py`", st["opt-py"], f"{ratio:.2f}x", "<= 1.2x vs `iree-opt`", ok))
    return cmds, rows, notes, ok


def _measure_pattern(ctx, text: str, n_ops: int, reps: int):
    """2. a Python pattern called on every op vs C++ canonicalize: (rows, notes, goal met)."""
    canon = "builtin.module(func.func(canonicalize))"
    py_addi = f"builtin.module(func.func({BenchAddiNever.name}))"
    check_survives(ctx, text, canon, n_ops)
    check_survives(ctx, text, py_addi, n_ops)
    times, calls = timed_runs(ctx, text, {"canonicalize": canon, "python": py_addi}, reps)
    bad_calls = [c for c in calls["python"] if c != n_ops]
    if bad_calls:
        sys.exit(f"bench_core: the pattern was called {bad_calls} times, not {n_ops}")
    c_ms, p_ms = median_ms(times["canonicalize"]), median_ms(times["python"])
    ratio = p_ms / c_ms
    ok = ratio <= 2.0
    name = "2. pattern on every op"
    rows = [
        (name, f"C++ `canonicalize` ({canon})", c_ms, "1.00x", "", None),
        (name, f"Python never-matching `arith.addi` pattern ({py_addi})", p_ms, f"{ratio:.2f}x", "<= 2x", ok),
    ]
    notes = [
        f"pattern: the Python pattern was called {calls['python'][0]} times per run "
        f"(= {n_ops} ops), {p_ms * 1e3 / n_ops:.2f} us per op all told; "
        f"all {n_ops} arith.addi survive both pipelines."
    ]
    return rows, notes, ok


def _measure_no_root(ctx, text: str, n_ops: int, reps: int):
    """3. a Python pass whose root op never occurs, added to canonicalize,cse: (rows, notes, goal met)."""
    from opt_py import OptOptions

    base = "builtin.module(func.func(canonicalize,cse))"
    plus = f"builtin.module(func.func(canonicalize,cse,{BenchCollapseNever.name}))"
    alone = f"builtin.module(func.func({BenchCollapseNever.name}))"
    if check_survives(ctx, text, base, n_ops) != check_survives(ctx, text, plus, n_ops):
        sys.exit("bench_core: adding the no-root pass changed the output")
    no_verify = OptOptions(verify_each=False)
    variants = {"base": base, "plus": plus, "alone": alone, "base-nv": (base, no_verify), "plus-nv": (plus, no_verify)}
    times, calls = timed_runs(ctx, text, variants, reps)
    if any(sum(v) for v in calls.values()):
        sys.exit("bench_core: the tensor.collapse_shape pattern was called, but the module has none")
    b_ms, q_ms, a_ms, bn_ms, qn_ms = (median_ms(times[k]) for k in ("base", "plus", "alone", "base-nv", "plus-nv"))
    added = (q_ms - b_ms) / b_ms * 100
    paired = statistics.median(p - b for p, b in zip(times["plus"], times["base"])) * 1e3
    ok = added <= 5.0
    name = "3. pass with absent root"
    rows = [
        (name, f"`canonicalize,cse` ({base})", b_ms, "+0.0%", "", None),
        (
            name,
            f"`canonicalize,cse` + Python pass on tensor.collapse_shape ({plus})",
            q_ms,
            f"{added:+.1f}%",
            "<= +5%",
            ok,
        ),
        (name, f"the Python pass alone (reference; {alone})", a_ms, f"{a_ms / b_ms * 100:.1f}% of base", "", None),
        (name, "`canonicalize,cse`, verifier off (reference; --verify-each=false)", bn_ms, "", "", None),
        (
            name,
            "`canonicalize,cse` + the Python pass, verifier off (reference)",
            qn_ms,
            f"{(qn_ms - bn_ms) / bn_ms * 100:+.1f}% vs verifier-off base",
            "",
            None,
        ),
    ]
    notes = [
        f"no-root: median of paired differences (plus - base, same repetition) is "
        f"{paired:+.2f} ms ({paired / b_ms * 100:+.1f}% of base); the pattern was never called."
    ]
    return rows, notes, ok


def _print_report(rows, notes, cmds, profile) -> None:
    print("| measurement | variant | median | ratio | goal | met |")
    print("|---|---|---:|---:|---|---|")
    for meas, variant, ms, ratio_text, goal, ok in rows:
        met = "" if ok is None else ("yes" if ok else "**NO**")
        print(f"| {meas} | {variant} | {fmt_ms(ms)} | {ratio_text} | {goal} | {met} |")
    print()
    for n in notes:
        print(f"- {n}")
    print("\nStartup commands:")
    for label, cmd in cmds.items():
        print(f"- {label}: `{shlex.join(cmd)}`")
    if profile:
        print("\n## cProfile of one run of measurement 2's Python pass (sorted by own time)\n")
        print("```")
        print(profile.rstrip())
        print("```")


if __name__ == "__main__":
    sys.exit(main())

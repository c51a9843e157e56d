"""Issue-5 figures for softmax-fuse-elementwise, under aggressive fusion.

Each program is compiled with ``--iree-dispatch-creation-enable-aggressive-fusion``
two ways: stock IREE, and with the pass injected after global optimization
(``--inject global-optimization:softmax-fuse-elementwise``: there
``linalg.softmax`` is still whole, checked below, and dispatch creation has
not run yet). Reported per program:

* dispatches: ``flow.dispatch`` ops after the flow phase;
* CPU runtime (llvm-cpu, host): ``iree-benchmark-module`` medians, stock and
  rewritten runs interleaved, the median of the rounds;
* GPU compiles for rocm gfx942 and cuda sm_80 (no GPU needed): whether it
  compiles, and the largest workgroup (shared) memory any dispatch allocates
  (``addr_space = 3`` globals of the lowered executables), or IREE's error.

    python tools/bench_softmax.py [--rounds N] [--reps N] [--only NAME]

The command it stands for, per variant:

    opt-py compile P.mlir -o P.vmfb --iree-dispatch-creation-enable-aggressive-fusion \\
        [--inject global-optimization:softmax-fuse-elementwise] TARGET FLAGS
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

AGGRESSIVE = "--iree-dispatch-creation-enable-aggressive-fusion"
INJECT = "global-optimization:softmax-fuse-elementwise"
# report labels -> the e2e harness's targets (and their compile flags)
TARGETS = {"cpu": "cpu", "gfx942": "rocm", "sm_80": "cuda"}

ID = "affine_map<(d0, d1) -> (d0, d1)>"
ROW = "affine_map<(d0, d1) -> (d0)>"
COL = "affine_map<(d0, d1) -> (d1)>"
VEC = "affine_map<(d0) -> (d0)>"


def _generic(res, ins, init, init_type, out_elem, maps, iterators, body):
    args = ", ".join([f"%a{i}: {e}" for i, (_, _, e) in enumerate(ins)] + [f"%o: {out_elem}"])
    its = ", ".join(f'"{i}"' for i in iterators)
    lines = "\n".join(f"    {b}" for b in body)
    return (f"  {res} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}} "
            f"ins({', '.join(v for v, _, _ in ins)} : {', '.join(t for _, t, _ in ins)}) "
            f"outs({init} : {init_type}) {{\n  ^bb0({args}):\n{lines}\n    linalg.yield %y : {out_elem}\n"
            f"  }} -> {init_type}\n")


def softmax_mul(rows: int, cols: int) -> str:
    t = f"tensor<{rows}x{cols}xf32>"
    return (f"func.func @main(%x: {t}, %w: {t}) -> {t} {{\n  %e = tensor.empty() : {t}\n"
            f"  %s = linalg.softmax dimension(1) ins(%x : {t}) outs(%e : {t}) -> {t}\n"
            + _generic("%m", [("%s", t, "f32"), ("%w", t, "f32")], "%e", t, "f32", [ID, ID, ID],
                       ["parallel", "parallel"], ["%y = arith.mulf %a0, %a1 : f32"])
            + f"  return %m : {t}\n}}\n")


def group_norm(groups: int, n: int) -> str:
    """f16 in, extf, mean, centred variance, (x - mean) * rstd * gamma + beta, truncf to f16."""
    t16, t, ts, tg = (f"tensor<{groups}x{n}xf16>", f"tensor<{groups}x{n}xf32>", f"tensor<{groups}xf32>",
                      f"tensor<{n}xf32>")
    red = ["parallel", "reduction"]
    par = ["parallel", "parallel"]
    return (
        f"func.func @main(%x16: {t16}, %g: {tg}, %b: {tg}) -> {t16} {{\n"
        f"  %zero = arith.constant 0.0 : f32\n  %n = arith.constant {float(n)} : f32\n"
        f"  %eps = arith.constant 1.0e-5 : f32\n  %e1 = tensor.empty() : {ts}\n"
        f"  %e2 = tensor.empty() : {t}\n  %e3 = tensor.empty() : {t16}\n"
        f"  %z = linalg.fill ins(%zero : f32) outs(%e1 : {ts}) -> {ts}\n"
        + _generic("%x", [("%x16", t16, "f16")], "%e2", t, "f32", [ID, ID], par, ["%y = arith.extf %a0 : f16 to f32"])
        + _generic("%sum", [("%x", t, "f32")], "%z", ts, "f32", [ID, ROW], red, ["%y = arith.addf %a0, %o : f32"])
        + _generic("%mean", [("%sum", ts, "f32")], "%e1", ts, "f32", [VEC, VEC], ["parallel"],
                   ["%y = arith.divf %a0, %n : f32"])
        + _generic("%cen", [("%x", t, "f32"), ("%mean", ts, "f32")], "%e2", t, "f32", [ID, ROW, ID], par,
                   ["%y = arith.subf %a0, %a1 : f32"])
        + _generic("%sq", [("%cen", t, "f32")], "%e2", t, "f32", [ID, ID], par, ["%y = arith.mulf %a0, %a0 : f32"])
        + _generic("%vs", [("%sq", t, "f32")], "%z", ts, "f32", [ID, ROW], red, ["%y = arith.addf %a0, %o : f32"])
        + _generic("%rstd", [("%vs", ts, "f32")], "%e1", ts, "f32", [VEC, VEC], ["parallel"],
                   ["%v = arith.divf %a0, %n : f32", "%p = arith.addf %v, %eps : f32", "%y = math.rsqrt %p : f32"])
        + _generic("%norm", [("%cen", t, "f32"), ("%rstd", ts, "f32")], "%e2", t, "f32", [ID, ROW, ID], par,
                   ["%y = arith.mulf %a0, %a1 : f32"])
        + _generic("%aff", [("%norm", t, "f32"), ("%g", tg, "f32"), ("%b", tg, "f32")], "%e2", t, "f32",
                   [ID, COL, COL, ID], par, ["%m = arith.mulf %a0, %a1 : f32", "%y = arith.addf %m, %a2 : f32"])
        + _generic("%out", [("%aff", t, "f32")], "%e3", t16, "f16", [ID, ID], par,
                   ["%y = arith.truncf %a0 : f32 to f16"])
        + f"  return %out : {t16}\n}}\n")


# name -> (program, iree-benchmark-module inputs, has a linalg.softmax)
PROGRAMS = {
    "softmax x w, 4096x1024 f32": (softmax_mul(4096, 1024), ["4096x1024xf32=0.5", "4096x1024xf32=2"], True),
    "softmax x w, 32x262144 f32": (softmax_mul(32, 262144), ["32x262144xf32=0.5", "32x262144xf32=2"], True),
    "group-norm + affine, 32x262144 f16": (group_norm(32, 262144),
                                            ["32x262144xf16=0.5", "262144xf32=2", "262144xf32=1"], False),
}


def compile_(path, target, with_pass, compile_to=None):
    from opt_py import e2e
    from opt_py.iree_compile import Injection, compile_with_injections

    flags = [AGGRESSIVE, *e2e.TARGETS[TARGETS[target]].compile_flags]
    inject = [Injection.parse(INJECT)] if with_pass else []
    return compile_with_injections(path, flags, inject, compile_to=compile_to)


def dispatches(path, with_pass) -> int:
    r = compile_(path, "cpu", with_pass, compile_to="flow")
    assert r.ok, r.messages
    return len(re.findall(r"flow\.dispatch @", r.output.decode()))


def softmax_survives(path) -> bool:
    r = compile_(path, "cpu", False, compile_to="global-optimization")
    assert r.ok, r.messages
    return "linalg.softmax" in r.output.decode()


def gpu(path, target, with_pass) -> str:
    from opt_py import e2e

    flags = [AGGRESSIVE]
    r = compile_(path, target, with_pass)
    if not r.ok:
        msg = next((m for m in r.messages if "shared memory" in m), None) or next(
            (m for m in r.messages if "error" in m), "failed")
        m = re.search(r"uses (\d+) bytes of shared memory; exceeded the limit of (\d+)", msg)
        if m:
            return f"fails: {int(m.group(1)):,} B shared > {int(m.group(2)):,}"
        return "fails: " + msg.splitlines()[0][:80]
    used = e2e.workgroup_memory(path, e2e.TARGETS[TARGETS[target]], inject=[INJECT] if with_pass else [],
                                extra_flags=flags)
    return f"ok, {used:,} B shared"


def cpu_runtime(vmfbs: dict, inputs, rounds: int, reps: int) -> dict:
    tool = os.path.join(os.path.dirname(sys.executable), "iree-benchmark-module")
    times = {k: [] for k in vmfbs}
    for _ in range(rounds):
        for name, vmfb in vmfbs.items():
            args = [tool, f"--module={vmfb}", "--device=local-task", "--function=main",
                    f"--benchmark_repetitions={reps}", "--benchmark_format=json"]
            args += [f"--input={i}" for i in inputs]
            out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
            data = json.loads(out)
            med = [b for b in data["benchmarks"] if b.get("aggregate_name") == "median"][0]
            scale = {"ms": 1.0, "us": 1e-3, "ns": 1e-6}[med["time_unit"]]
            times[name].append(med["real_time"] * scale)
    return {k: statistics.median(v) for k, v in times.items()}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3, help="interleaved benchmark rounds")
    p.add_argument("--reps", type=int, default=5, help="iree-benchmark-module repetitions per round")
    p.add_argument("--only", default=None, help="run only programs whose name contains this")
    args = p.parse_args(argv)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, (text, inputs, has_softmax)) in enumerate(PROGRAMS.items()):
            if args.only and args.only not in name:
                continue
            path = os.path.join(tmp, f"p{i}.mlir")
            with open(path, "w") as f:
                f.write(text)
            print(f"[{name}]", file=sys.stderr, flush=True)
            if has_softmax:
                assert softmax_survives(path), "linalg.softmax is gone before the injection point"
            d = {v: dispatches(path, v) for v in (False, True)}
            vmfbs = {}
            for v in (False, True):
                r = compile_(path, "cpu", v)
                assert r.ok, r.messages
                vmfbs[v] = os.path.join(tmp, f"p{i}_{int(v)}.vmfb")
                with open(vmfbs[v], "wb") as f:
                    f.write(r.output)
            t = cpu_runtime(vmfbs, inputs, args.rounds, args.reps)
            g = {(tg, v): gpu(path, tg, v) for tg in ("gfx942", "sm_80") for v in (False, True)}
            rows.append((name, d, t, g))

    print("| program (aggressive fusion) | dispatches stock | with pass | CPU stock | CPU with pass | ratio "
          "| gfx942 stock | gfx942 with pass | sm_80 stock | sm_80 with pass |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |")
    for name, d, t, g in rows:
        print(f"| {name} | {d[False]} | {d[True]} | {t[False]:.2f} ms | {t[True]:.2f} ms | "
              f"{t[True] / t[False]:.2f}x | {g['gfx942', False]} | {g['gfx942', True]} | "
              f"{g['sm_80', False]} | {g['sm_80', True]} |")
    print()
    print(f"command: opt-py compile P.mlir -o P.vmfb {AGGRESSIVE} [--inject {INJECT}] <target flags>; "
          f"CPU: iree-benchmark-module --device=local-task, median of {args.rounds} interleaved rounds of "
          f"{args.reps} repetitions")
    return 0


if __name__ == "__main__":
    sys.exit(main())

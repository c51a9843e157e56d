"""Issue-5 figures for softmax-fuse-elementwise, under aggressive fusion.

Each program is compiled with ``--iree-dispatch-creation-enable-aggressive-fusion``
two ways: stock IREE, and with the pass injected after global optimization
(``--inject global-optimization:softmax-fuse-elementwise``: there
``linalg.softmax`` is still whole, checked below, and dispatch creation has
not run yet). Reported per program:

* dispatches: ``flow.dispatch`` ops after the flow phase;
* CPU code: whether the two compilations lower to the same x86 instructions
  (``e2e.machine_code``); where they do, their runtimes differ by noise only;
* runtime on each device present (llvm-cpu on the host always; CUDA where the
  runtime finds a GPU): ``iree-benchmark-module`` medians, stock and
  rewritten runs interleaved, the median of the rounds, and the range of the
  per-round ratios;
* bandwidth: the program's compulsory traffic (each input read once, the
  output written once) over its time, as a fraction of what a
  device-to-device copy of the output's size achieves in the same rounds
  (``hal.device.queue.copy``, from an ``iree.abi.output`` function);
* GPU compiles for rocm gfx942 and cuda sm_80 (no GPU needed): whether it
  compiles, and the largest workgroup (shared) memory any dispatch allocates
  (``e2e.workgroup_memory``), or IREE's error.

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
    return (
        f"  {res} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}} "
        f"ins({', '.join(v for v, _, _ in ins)} : {', '.join(t for _, t, _ in ins)}) "
        f"outs({init} : {init_type}) {{\n  ^bb0({args}):\n{lines}\n    linalg.yield %y : {out_elem}\n"
        f"  }} -> {init_type}\n"
    )


def softmax_mul(rows: int, cols: int) -> str:
    t = f"tensor<{rows}x{cols}xf32>"
    return (
        f"func.func @main(%x: {t}, %w: {t}) -> {t} {{\n  %e = tensor.empty() : {t}\n"
        f"  %s = linalg.softmax dimension(1) ins(%x : {t}) outs(%e : {t}) -> {t}\n"
        + _generic(
            "%m",
            [("%s", t, "f32"), ("%w", t, "f32")],
            "%e",
            t,
            "f32",
            [ID, ID, ID],
            ["parallel", "parallel"],
            ["%y = arith.mulf %a0, %a1 : f32"],
        )
        + f"  return %m : {t}\n}}\n"
    )


def group_norm(groups: int, n: int) -> str:
    """f16 in, extf, mean, centred variance, (x - mean) * rstd * gamma + beta, truncf to f16."""
    t16, t, ts, tg = (
        f"tensor<{groups}x{n}xf16>",
        f"tensor<{groups}x{n}xf32>",
        f"tensor<{groups}xf32>",
        f"tensor<{n}xf32>",
    )
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
        + _generic(
            "%mean",
            [("%sum", ts, "f32")],
            "%e1",
            ts,
            "f32",
            [VEC, VEC],
            ["parallel"],
            ["%y = arith.divf %a0, %n : f32"],
        )
        + _generic(
            "%cen",
            [("%x", t, "f32"), ("%mean", ts, "f32")],
            "%e2",
            t,
            "f32",
            [ID, ROW, ID],
            par,
            ["%y = arith.subf %a0, %a1 : f32"],
        )
        + _generic("%sq", [("%cen", t, "f32")], "%e2", t, "f32", [ID, ID], par, ["%y = arith.mulf %a0, %a0 : f32"])
        + _generic("%vs", [("%sq", t, "f32")], "%z", ts, "f32", [ID, ROW], red, ["%y = arith.addf %a0, %o : f32"])
        + _generic(
            "%rstd",
            [("%vs", ts, "f32")],
            "%e1",
            ts,
            "f32",
            [VEC, VEC],
            ["parallel"],
            ["%v = arith.divf %a0, %n : f32", "%p = arith.addf %v, %eps : f32", "%y = math.rsqrt %p : f32"],
        )
        + _generic(
            "%norm",
            [("%cen", t, "f32"), ("%rstd", ts, "f32")],
            "%e2",
            t,
            "f32",
            [ID, ROW, ID],
            par,
            ["%y = arith.mulf %a0, %a1 : f32"],
        )
        + _generic(
            "%aff",
            [("%norm", t, "f32"), ("%g", tg, "f32"), ("%b", tg, "f32")],
            "%e2",
            t,
            "f32",
            [ID, COL, COL, ID],
            par,
            ["%m = arith.mulf %a0, %a1 : f32", "%y = arith.addf %m, %a2 : f32"],
        )
        + _generic(
            "%out", [("%aff", t, "f32")], "%e3", t16, "f16", [ID, ID], par, ["%y = arith.truncf %a0 : f32 to f16"]
        )
        + f"  return %out : {t16}\n}}\n"
    )


# name -> (program, iree-benchmark-module inputs, output type, has a linalg.softmax)
PROGRAMS = {
    "softmax x w, 4096x1024 f32": (
        softmax_mul(4096, 1024),
        ["4096x1024xf32=0.5", "4096x1024xf32=2"],
        "4096x1024xf32",
        True,
    ),
    "softmax x w, 32x262144 f32": (
        softmax_mul(32, 262144),
        ["32x262144xf32=0.5", "32x262144xf32=2"],
        "32x262144xf32",
        True,
    ),
    "group-norm + affine, 32x262144 f16": (
        group_norm(32, 262144),
        ["32x262144xf16=0.5", "262144xf32=2", "262144xf32=1"],
        "32x262144xf16",
        False,
    ),
}
BYTES = {"f16": 2, "f32": 4}


def nbytes(spec: str) -> int:
    """Bytes of a ``SHAPExTYPE[=value]`` tensor."""
    *dims, elem = spec.split("=")[0].split("x")
    n = BYTES[elem]
    for d in dims:
        n *= int(d)
    return n


def copy_program(spec: str) -> str:
    """Copies its input into caller-provided storage: IREE lowers this to a
    ``hal.device.queue.copy``, the device's own buffer-to-buffer copy."""
    t = f"tensor<{spec}>"
    return (
        f"func.func @main(%x: {t}, %out: !hal.buffer {{iree.abi.output = 0 : index}}) -> {t} {{\n"
        f"  return %x : {t}\n}}\n"
    )


def compile_(path, target, with_pass, compile_to=None):
    from opt_py.execution import e2e
    from opt_py.iree.phases import Injection, compile_with_injections

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
    from opt_py.execution import e2e

    flags = [AGGRESSIVE]
    r = compile_(path, target, with_pass)
    if not r.ok:
        msg = next((m for m in r.messages if "shared memory" in m), None) or next(
            (m for m in r.messages if "error" in m), "failed"
        )
        m = re.search(r"uses (\d+) bytes of shared memory; exceeded the limit of (\d+)", msg)
        if m:
            return f"fails: {int(m.group(1)):,} B shared > {int(m.group(2)):,}"
        return "fails: " + msg.splitlines()[0][:80]
    used = e2e.workgroup_memory(
        path, e2e.TARGETS[TARGETS[target]], inject=[INJECT] if with_pass else [], extra_flags=flags
    )
    return f"ok, {used:,} B shared"


def cpu_code_identical(path) -> bool:
    from opt_py.execution import e2e

    stock, ours = (
        e2e.machine_code(path, e2e.TARGETS["cpu"], inject=[INJECT] if v else [], extra_flags=[AGGRESSIVE])
        for v in (False, True)
    )
    return stock == ours


def runtimes(vmfbs: dict, inputs: dict, device: str, rounds: int, reps: int) -> dict[str, list[float]]:
    """Milliseconds per round of each module's ``main`` (the median of
    ``reps`` repetitions), the modules interleaved within each round."""
    tool = os.path.join(os.path.dirname(sys.executable), "iree-benchmark-module")
    times = {k: [] for k in vmfbs}
    for _ in range(rounds):
        for name, vmfb in vmfbs.items():
            args = [
                tool,
                f"--module={vmfb}",
                f"--device={device}",
                "--function=main",
                f"--benchmark_repetitions={reps}",
                "--benchmark_format=json",
            ]
            args += [f"--input={i}" for i in inputs[name]]
            out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
            data = json.loads(out)
            med = [b for b in data["benchmarks"] if b.get("aggregate_name") == "median"][0]
            scale = {"ms": 1.0, "us": 1e-3, "ns": 1e-6}[med["time_unit"]]
            times[name].append(med["real_time"] * scale)
    return times


def devices() -> dict[str, str]:
    """Report label -> e2e target of each device present: the CPU always."""
    from opt_py.execution import e2e

    found = {"cpu": "cpu"}
    ok, why = e2e.device_available(e2e.TARGETS["cuda"])
    if ok:
        found["cuda gpu"] = "cuda"
    else:
        print(f"no GPU runtime figures: {why}", file=sys.stderr)
    return found


def measure(path, inputs, out_spec, target, tmp, rounds, reps) -> dict:
    """Stock and rewritten runtime and bandwidth on ``target``'s device."""
    from opt_py.execution import e2e

    tgt = e2e.TARGETS[target]
    vmfbs, feeds = {}, {}
    for v in (False, True):
        vmfbs[v] = os.path.join(tmp, f"{os.path.basename(path)}.{target}.{int(v)}.vmfb")
        with open(vmfbs[v], "wb") as f:
            f.write(e2e.compile_program(path, tgt, inject=[INJECT] if v else [], extra_flags=[AGGRESSIVE]))
        feeds[v] = inputs
    copy_src = os.path.join(tmp, f"copy_{out_spec}.mlir")
    with open(copy_src, "w") as f:
        f.write(copy_program(out_spec))
    vmfbs["copy"] = copy_src + f".{target}.vmfb"
    with open(vmfbs["copy"], "wb") as f:
        f.write(e2e.compile_program(copy_src, tgt))
    feeds["copy"] = [f"{out_spec}=1", f"&{out_spec}"]
    t = runtimes(vmfbs, feeds, tgt.device, rounds, reps)
    med = {k: statistics.median(v) for k, v in t.items()}
    ratios = [b / a for a, b in zip(t[False], t[True])]
    traffic = sum(nbytes(i) for i in inputs) + nbytes(out_spec)
    copy_bw = 2 * nbytes(out_spec) / med["copy"]
    return {
        "stock": med[False],
        "pass": med[True],
        "ratio": med[True] / med[False],
        "ratios": (min(ratios), max(ratios)),
        "copy_gbs": copy_bw / 1e6,
        "bw": {v: traffic / med[v] / copy_bw for v in (False, True)},
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3, help="interleaved benchmark rounds")
    p.add_argument("--reps", type=int, default=5, help="iree-benchmark-module repetitions per round")
    p.add_argument("--only", default=None, help="run only programs whose name contains this")
    args = p.parse_args(argv)

    found = devices()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, (text, inputs, out_spec, has_softmax)) in enumerate(PROGRAMS.items()):
            if args.only and args.only not in name:
                continue
            path = os.path.join(tmp, f"p{i}.mlir")
            with open(path, "w") as f:
                f.write(text)
            print(f"[{name}]", file=sys.stderr, flush=True)
            if has_softmax:
                assert softmax_survives(path), "linalg.softmax is gone before the injection point"
            d = {v: dispatches(path, v) for v in (False, True)}
            same = cpu_code_identical(path)
            m = {
                label: measure(path, inputs, out_spec, target, tmp, args.rounds, args.reps)
                for label, target in found.items()
            }
            g = {(tg, v): gpu(path, tg, v) for tg in ("gfx942", "sm_80") for v in (False, True)}
            rows.append((name, d, same, m, g))

    print(
        "| program (aggressive fusion) | dispatches stock | with pass | CPU code | gfx942 stock | gfx942 with pass "
        "| sm_80 stock | sm_80 with pass |"
    )
    print("| --- | ---: | ---: | --- | --- | --- | --- | --- |")
    for name, d, same, _, g in rows:
        print(
            f"| {name} | {d[False]} | {d[True]} | {'identical' if same else 'differs'} | "
            f"{g['gfx942', False]} | {g['gfx942', True]} | {g['sm_80', False]} | {g['sm_80', True]} |"
        )
    print()
    print("| program | device | stock | with pass | ratio | per-round ratios | bandwidth stock | with pass | copy |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
    for name, _, _, m, _ in rows:
        for label, r in m.items():
            print(
                f"| {name} | {label} | {r['stock']:.2f} ms | {r['pass']:.2f} ms | {r['ratio']:.2f}x | "
                f"{r['ratios'][0]:.2f}x-{r['ratios'][1]:.2f}x | {r['bw'][False]:.2f} | {r['bw'][True]:.2f} | "
                f"{r['copy_gbs']:.1f} GB/s |"
            )
    print()
    print(
        f"command: opt-py compile P.mlir -o P.vmfb {AGGRESSIVE} [--inject {INJECT}] <target flags>; "
        f"iree-benchmark-module, median of {args.rounds} interleaved rounds of {args.reps} repetitions; "
        "bandwidth: (inputs + output bytes) / time, as a fraction of a queue copy's (2 x output bytes) / time"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

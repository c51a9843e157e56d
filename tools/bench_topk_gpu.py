"""Top-k speed on a GPU: --fixes (sort-slice-to-topk{rule=gpu materialize=true}) vs its other forms vs the sort path vs torch.topk.

Compiled here, run where the GPU is (that machine needs only iree-base-runtime,
numpy and torch, and Nsight Compute for --ncu; ``run`` imports nothing from opt_py):

    python tools/bench_topk_gpu.py build DIR [--target cuda] [--widths 64,1024,32768] [--ks 1,4,64]
                                             [--variants fixes,rounds,sort] [--sort-wide]
    python tools/bench_topk_gpu.py run DIR [--device cuda] [--reps 5] [--ncu fixes]   # on the GPU machine

The program is what torch.topk(x, k, dim=-1).indices exports to (a sort with
`oge` and an i64 iota, indices sliced), x of 37 x width f32. Variants per
(width, k) (VARIANTS): ``fixes`` (opt-py compile --fixes), ``sort`` (--fixes
without sort-slice-to-topk: IREE's own sort, made to compile by
sort-drop-unused-results; stock cannot bufferize it), the GPU forms forced
(``rank``, ``chunks``, ``chunks-rounds``, ``rounds``) and ``topk-op``; per
width a one-dispatch elementwise ``floor``. ``run`` checks each module's
indices against numpy on a random input, then times a call with
iree-benchmark-module (min over repetitions of the mean; each call waits for
the device) and torch.topk two ways (back to back, and each call followed by a
synchronize). ``--ncu VARIANTS`` also reads the GPU time of one call's kernels
(the third call, base clock) for those variants and torch. The sort path over
1024 wide takes seconds to minutes a call: built only with --sort-wide.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

B = 37


def program(width, k):
    return (
        f"func.func @topk(%x: tensor<{B}x{width}xf32>) -> tensor<{B}x{k}xi64> {{\n"
        f"  %e = tensor.empty() : tensor<{B}x{width}xi64>\n"
        "  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], "
        f'iterator_types = ["parallel", "parallel"]}} outs(%e : tensor<{B}x{width}xi64>) {{\n'
        "  ^bb0(%o: i64):\n    %i = linalg.index 1 : index\n    %c = arith.index_cast %i : index to i64\n"
        f"    linalg.yield %c : i64\n  }} -> tensor<{B}x{width}xi64>\n"
        f"  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<{B}x{width}xf32>, "
        f"tensor<{B}x{width}xi64>) {{\n"
        "  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):\n    %r = arith.cmpf oge, %a, %b : f32\n"
        f"    iree_linalg_ext.yield %r : i1\n  }} -> tensor<{B}x{width}xf32>, tensor<{B}x{width}xi64>\n"
        f"  %ki = tensor.extract_slice %s#1[0, 0] [{B}, {k}] [1, 1] : tensor<{B}x{width}xi64> to "
        f"tensor<{B}x{k}xi64>\n  return %ki : tensor<{B}x{k}xi64>\n}}\n"
    )


def floor_program(width):
    t = f"tensor<{B}x{width}xf32>"
    return f"func.func @topk(%x: {t}) -> {t} {{\n  %r = arith.negf %x : {t}\n  return %r : {t}\n}}\n"


VARIANTS = {  # name -> the top-k pass's options in place of --fixes' (None: the pass left out)
    "fixes": "",  # --fixes as it is
    "sort": None,  # IREE's sort (sort-drop-unused-results makes it compile for GPUs)
    "rounds": "rule=gpu materialize=true form=FORM1",  # the materialized argmax / rounds forms alone (the rule before chunks)
    "rank": "rule=gpu materialize=true form=rank",  # materialized rank count (all positions in parallel)
    "chunks": "rule=gpu materialize=true form=chunks",  # chunk bests, then ranks over the bests and the candidates
    "chunks-rounds": "rule=gpu materialize=true form=chunks select=rounds",  # the same, picking by k rounds
    "topk-op": "form=topk",  # iree_linalg_ext.topk
}


def build(a):
    import numpy as np
    from opt_py.execution import e2e
    from opt_py.execution.bundle_write import first_error
    from opt_py.iree import fixes
    from opt_py.patterns.sort_slice_to_topk import MAX_ROUNDS, choose_form, choose_gpu_form, chunk_size

    tgt = e2e.TARGETS[a.target]
    without = fixes.specs(",".join(f.name for f in fixes.FIXES if f.name != "sort-slice-to-topk"), tgt.compile_flags)

    def specs(options):
        if options == "":
            return fixes.specs("all", tgt.compile_flags)
        if options is None:
            return without
        return (
            tuple(
                s.replace("global-optimization:", f"global-optimization:sort-slice-to-topk{{{options}}},", 1)
                if s.startswith("global-optimization:")
                else s
                for s in without[0]
            ),
            without[1],
        )

    def applies(name, width, k):
        if name == "sort":
            return width <= 1024 or a.sort_wide
        if name == "rounds":
            return k <= MAX_ROUNDS and 2 * k < width
        if name in ("chunks", "chunks-rounds"):
            return 2 * k < width and k <= MAX_ROUNDS and chunk_size(width, k) is not None
        if name == "rank":
            return width <= 4096
        return True

    os.makedirs(a.dir, exist_ok=True)
    rng = np.random.default_rng(0)
    entries = []

    def compile_one(name, text, spec, width, k, form):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "p.mlir")
            open(p, "w").write(text)
            entry = {"name": name, "width": width, "k": k, "form": form}
            try:
                vmfb = e2e.compile_program(p, tgt, inject=spec[0], inject_codegen=spec[1])
                open(os.path.join(a.dir, name + ".vmfb"), "wb").write(vmfb)
                entry["vmfb"] = name + ".vmfb"
            except Exception as e:  # noqa: BLE001 - a compile failure is this module's outcome
                entry["compile_error"] = first_error(str(e))
            print(f"{name:28} {'compiled' if 'vmfb' in entry else entry['compile_error']}", file=sys.stderr, flush=True)
            entries.append(entry)

    names = a.variants.split(",")
    for width in map(int, a.widths.split(",")):
        np.save(os.path.join(a.dir, f"x{width}.npy"), rng.standard_normal((B, width)).astype(np.float32))
        compile_one(f"floor_w{width}", floor_program(width), ((), ()), width, 0, "floor")
        for k in map(int, a.ks.split(",")):
            if k > width:
                continue
            text = program(width, k)
            for name in names:
                if not applies(name, width, k):
                    continue
                options = VARIANTS[name]
                form = {
                    "fixes": (choose_form(width, k, 32) if a.target == "cpu" else choose_gpu_form(width, k, 32))
                    or "sort",
                    "rounds": "argmax" if k == 1 else "rounds",
                    "chunks": f"chunks C={chunk_size(width, k)}",
                    "chunks-rounds": f"chunks C={chunk_size(width, k)}",
                }.get(name, name)
                if options:
                    options = options.replace("FORM1", "argmax" if k == 1 else "rounds")
                compile_one(f"{name}_w{width}_k{k}", text, specs(options), width, k, form)
    manifest = {"target": a.target, "device": tgt.device, "rows": B, "variants": names, "modules": entries}
    open(os.path.join(a.dir, "manifest.json"), "w").write(json.dumps(manifest, indent=1) + "\n")
    print(
        f"wrote {a.dir}: {len(entries)} modules; run it on the device with: python tools/bench_topk_gpu.py run {a.dir}"
    )


# ---------------------------------------------------------------- on the device (no opt_py)


def iree_us(vmfb, x_path, device, reps, min_time, flags=()):
    out = subprocess.run(
        [
            _tool("iree-benchmark-module"),
            f"--module={vmfb}",
            f"--device={device}",
            "--function=topk",
            f"--input=@{x_path}",
            f"--benchmark_min_time={min_time}",
            f"--benchmark_repetitions={reps}",
            *flags,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    times = []
    for line in out.stdout.splitlines():
        m = re.match(r"BM_\S+\s+([\d.]+) (ns|us|ms|s)\b", line)
        if m and not re.search(r"_(mean|median|stddev|cv)\b", line.split()[0]):
            times.append(float(m.group(1)) * {"ns": 1e-3, "us": 1, "ms": 1e3, "s": 1e6}[m.group(2)])
    if not times:
        raise RuntimeError((out.stderr.strip().splitlines() or ["no output"])[-1])
    return min(times)


def check_indices(vmfb, x, k, device):
    """'' when the module's indices point at numpy's top-k values, each once per row; else what is wrong."""
    import iree.runtime as rt
    import numpy as np

    config = rt.Config(device)
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.mmap(config.vm_instance, vmfb))
    idx = np.asarray(ctx.modules.module["topk"](x).to_host()).astype(np.int64)
    want = -np.sort(-x, axis=1)[:, :k]
    if idx.shape != want.shape or idx.min() < 0 or idx.max() >= x.shape[1]:
        return f"indices of shape {idx.shape} or out of range"
    if not np.array_equal(np.take_along_axis(x, idx, axis=1), want):
        return "indices do not point at the top-k values"
    if any(len(set(r)) != len(r) for r in idx.tolist()):
        return "repeated indices in a row"
    return ""


def torch_us(x, k, device):
    """torch.topk per call two ways: back to back (torch.utils.benchmark syncs once per block, so launches
    overlap: throughput) and each call waited for (torch.cuda.synchronize after it: latency)."""
    import time

    import torch
    import torch.utils.benchmark as tb

    dev = "cuda" if device == "cuda" else "cpu"
    t = torch.from_numpy(x).to(dev)
    timer = tb.Timer("torch.topk(t, k, dim=-1).indices", globals=dict(torch=torch, t=t, k=k))
    stream = timer.blocked_autorange(min_run_time=0.3).median * 1e6
    sync = []
    for _ in range(300):
        t0 = time.perf_counter()
        torch.topk(t, k, dim=-1)
        if dev == "cuda":
            torch.cuda.synchronize()
        sync.append((time.perf_counter() - t0) * 1e6)
    return stream, sorted(sync)[len(sync) // 2]


def _tool(name):
    import iree._runtime_libs as libs

    tool = os.path.join(os.path.dirname(libs.__file__), name)
    if not os.access(tool, os.X_OK):
        os.chmod(tool, 0o755)
    return tool


def ncu_us(cmd, nvtx=None, calls=1):
    """(microseconds, kernels): the GPU time of the kernels of the last of ``calls`` calls ``cmd`` makes
    (the kernels split evenly between calls; inside the NVTX range ``nvtx``), read by Nsight Compute
    (gpu__time_duration.sum) at the base clock, so that forms compare at one clock whatever the GPU's
    idle state between profiled kernels (each kernel starts with flushed caches, ncu's default)."""
    import csv
    import glob
    import io
    import shutil

    ncu = shutil.which("ncu") or next(iter(sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"))), None)
    if ncu is None:
        raise RuntimeError("no ncu")
    args = [ncu, "--clock-control", "base", "--metrics", "gpu__time_duration.sum", "--csv"]
    if nvtx:
        args += ["--nvtx", "--nvtx-include", f"{nvtx}/"]
    out = subprocess.run(args + cmd, capture_output=True, text=True, timeout=300, check=False)
    scale = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}
    times = []
    start = out.stdout.find('"ID"')
    for row in csv.DictReader(io.StringIO(out.stdout[start:] if start >= 0 else "")):
        if row.get("Metric Name") == "gpu__time_duration.sum":
            times.append(float(row["Metric Value"].replace(",", "")) * scale[row["Metric Unit"]])
    if not times or len(times) % calls:
        raise RuntimeError(
            f"ncu saw {len(times)} kernels for {calls} calls: "
            + (out.stderr.strip().splitlines() or ["no output"])[-1][:200]
        )
    last = times[-(len(times) // calls) :]
    return sum(last), len(last)


def torch_once(a):
    """One torch.topk call inside the NVTX range 'topk', after warm-up (for ncu_us)."""
    import numpy as np
    import torch

    t = torch.from_numpy(np.load(a.x)).to("cuda")
    for _ in range(3):
        torch.topk(t, a.k, dim=-1)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push("topk")
    torch.topk(t, a.k, dim=-1)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()


def run(a):
    import numpy as np

    m = json.load(open(os.path.join(a.dir, "manifest.json")))
    device = a.device or m["device"]
    res = []
    for e in m["modules"]:
        r = dict(e)
        x_path = os.path.join(a.dir, f"x{e['width']}.npy")
        if "vmfb" in e:
            vmfb = os.path.join(a.dir, e["vmfb"])
            try:
                if e["k"]:
                    r["problem"] = check_indices(vmfb, np.load(x_path), e["k"], device)
                slow = e["form"] == "sort" and e["width"] > 64
                r["us"] = iree_us(vmfb, x_path, device, 1 if slow else a.reps, "1x" if slow else "0.1s", a.bench_flag)
            except Exception as ex:  # noqa: BLE001 - recorded, the others still run
                r["run_error"] = f"{type(ex).__name__}: {str(ex).strip()[:200]}"
            if (
                a.ncu
                and "us" in r
                and not (e["form"] == "sort" and e["width"] > 64)
                and e["name"].split("_w")[0] in a.ncu.split(",")
            ):
                try:
                    r["device_us"], r["kernels"] = ncu_us(
                        [
                            _tool("iree-benchmark-module"),
                            f"--module={vmfb}",
                            f"--device={device}",
                            "--function=topk",
                            f"--input=@{x_path}",
                            "--benchmark_min_time=3x",
                            "--benchmark_repetitions=1",
                        ],
                        calls=3,
                    )
                except Exception as ex:  # noqa: BLE001 - recorded, the other modules still run
                    r["ncu_error"] = f"{type(ex).__name__}: {str(ex).strip()[:200]}"
        print(json.dumps(r), file=sys.stderr, flush=True)
        res.append(r)
    torch_t, torch_dev = {}, {}
    for w, k in sorted({(e["width"], e["k"]) for e in m["modules"] if e["k"]}):
        x_path = os.path.join(a.dir, f"x{w}.npy")
        torch_t[(w, k)] = (float("nan"), float("nan")) if a.no_torch else torch_us(np.load(x_path), k, device)
        if a.ncu and not a.no_torch:
            try:
                torch_dev[(w, k)] = ncu_us(
                    [sys.executable, os.path.abspath(__file__), "torch-once", x_path, str(k)], nvtx="topk"
                )
            except Exception as ex:  # noqa: BLE001 - torch's reference is optional
                print(f"torch under ncu: {ex}", file=sys.stderr)
    by = {r["name"]: r for r in res}

    def cell(name):
        r = by.get(name)
        if r is None:
            return "-"
        if "compile_error" in r:
            return "no compile"
        if "run_error" in r:
            return "run error"
        return f"{r['us']:.0f}" + (" WRONG" if r.get("problem") else "")

    others = [v for v in m["variants"] if v != "fixes"]
    print(
        f"\n{m['rows']} x width f32, indices of torch.topk(x, k, dim=-1); device {device}; us. Per call: "
        f"IREE min of {a.reps} repetitions of iree-benchmark-module's mean (each call waits for the device); "
        "torch back to back (stream) and each call waited for (sync). Device: the GPU time of the kernels of "
        "the third call (torch: after three), at the base clock (ncu), kernel count in brackets."
    )
    print(
        "| width | k | --fixes form | --fixes | " + " | ".join(others) + " | floor | torch stream | torch sync | "
        "--fixes device | torch device | device ratio |"
    )
    print("| ---: | ---: | --- | ---: | " + "---: | " * len(others) + "---: | ---: | ---: | ---: | ---: | ---: |")
    for w, k in sorted(torch_t):
        f = by.get(f"fixes_w{w}_k{k}", {})
        stream, sync = torch_t[(w, k)]
        fd = f"{f['device_us']:.1f} ({f['kernels']})" if "device_us" in f else "-"
        td = f"{torch_dev[(w, k)][0]:.1f} ({torch_dev[(w, k)][1]})" if (w, k) in torch_dev else "-"
        ratio = f"{f['device_us'] / torch_dev[(w, k)][0]:.1f}x" if "device_us" in f and (w, k) in torch_dev else "-"
        print(
            f"| {w} | {k} | {f.get('form', '-')} | {cell(f'fixes_w{w}_k{k}')} | "
            + " | ".join(cell(f"{v}_w{w}_k{k}") for v in others)
            + f" | {cell(f'floor_w{w}')} | {stream:.0f} | {sync:.0f} | {fd} | {td} | {ratio} |"
        )
    wrong = [r["name"] for r in res if r.get("problem")]
    out = {
        "device": device,
        "modules": res,
        "torch_us": {f"{w}x{k}": t for (w, k), t in torch_t.items()},
        "torch_device_us": {f"{w}x{k}": t for (w, k), t in torch_dev.items()},
    }
    open(a.results or os.path.join(a.dir, "results.json"), "w").write(json.dumps(out, indent=1) + "\n")
    if wrong:
        print(f"WRONG: {', '.join(wrong)}")
    return 1 if wrong else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("dir")
    b.add_argument("--target", choices=["cuda", "rocm", "cpu"], default="cuda")
    b.add_argument("--widths", default="64,1024,32768")
    b.add_argument("--ks", default="1,4,64")
    b.add_argument("--sort-wide", action="store_true", help="also build the sort path at widths over 1024")
    b.add_argument("--variants", default="fixes,rounds,sort", help=f"from {', '.join(VARIANTS)} (fixes first)")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--device", default=None)
    r.add_argument("--reps", type=int, default=5)
    r.add_argument("-o", "--results", default=None)
    r.add_argument("--no-torch", action="store_true", help="leave torch.topk out (a machine without torch)")
    r.add_argument("--bench-flag", action="append", default=[], help="an extra iree-benchmark-module flag")
    r.add_argument(
        "--ncu",
        default="",
        metavar="VARIANTS",
        help="read the kernel time of these variants' calls (and torch's) with Nsight Compute: fixes,rank",
    )
    o = sub.add_parser("torch-once", help=argparse.SUPPRESS)
    o.add_argument("x")
    o.add_argument("k", type=int)
    a = ap.parse_args()
    sys.exit({"build": build, "run": run, "torch-once": torch_once}[a.cmd](a))


if __name__ == "__main__":
    main()

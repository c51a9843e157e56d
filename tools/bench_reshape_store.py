"""Issue-4 figures for fold-collapse-shape-into-store.

1. Speed: on a module of 2,000 dispatch functions, each holding one foldable
   store (half static, half with a dynamic group), the Python pass vs IREE's
   C++ iree-codegen-fold-reshape-into-interface-tensor, pipeline time only,
   medians of interleaved runs. Both must fold every store.
2. Miscompiles: N random cases (python/cases/fold_collapse_shape_into_store.py) compiled for CPU
   with the pass injected at executable-sources and with stock iree-compile
   3.13, run through the IREE runtime and compared with numpy; beside them,
   what the Python pass and the C++ twin each do with the case's store, and
   every case where the two disagree.

    python tools/bench_reshape_store.py [--cases N] [--reps N] [--disagreements FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter

from opt_py.bench.timing import pipeline_medians, register_floor_pass

LAYOUT = (
    "#pl = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, "
    "#hal.pipeline.binding<storage_buffer>]>\n"
)
STATIC = """
func.func @d{i}() {{
  %c0 = arith.constant 0 : index
  %in = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x3x4xf32>>
  %out = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x4xf32>>
  %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0, 0], sizes = [2, 3, 4], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x3x4xf32>> -> tensor<2x3x4xf32>
  %c = tensor.collapse_shape %v [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %out, offsets = [0, 0], sizes = [6, 4], strides = [1, 1] : tensor<6x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x4xf32>>
  return
}}
"""
DYNAMIC = """
func.func @d{i}() {{
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %m = affine.apply affine_map<()[s0] -> (s0 * 3)>()[%n]
  %in = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x3x4xf32>>{{%n}}
  %out = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{{%m}}
  %v = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0, 0], sizes = [%n, 3, 4], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x3x4xf32>>{{%n}} -> tensor<?x3x4xf32>
  %c = tensor.collapse_shape %v [[0, 1], [2]] : tensor<?x3x4xf32> into tensor<?x4xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %out, offsets = [0, 0], sizes = [%m, 4], strides = [1, 1] : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{{%m}}
  return
}}
"""


def speed(reps: int, n: int = 2000):
    floor = register_floor_pass("tensor.collapse_shape", "bench-floor-collapse")
    text = LAYOUT + "".join((STATIC if i % 2 else DYNAMIC).format(i=i) for i in range(n))
    pipelines = {
        "C++ iree-codegen-fold-reshape-into-interface-tensor": "builtin.module(func.func(iree-codegen-fold-reshape-into-interface-tensor))",
        "fold-collapse-shape-into-store": "builtin.module(func.func(fold-collapse-shape-into-store))",
        "floor: one trivial Python rewrite per function": f"builtin.module(func.func({floor}))",
    }

    def check(name, module):
        left = str(module).count("tensor.collapse_shape")
        assert left == 0 or name.startswith("floor"), f"{name} left {left} collapses"

    return pipeline_medians(text, pipelines, reps, check)


PARTS = ("pass", "stock", "folds")


def _part(seed: int, part: str):
    from opt_py.cases import fold_collapse_shape_into_store as rs

    case = rs.random_case(seed)
    if part.startswith("folds"):  # "folds", or "folds:opt-py" / "folds:C++" alone
        try:
            return rs.folds(case, part.split(":")[1:] or ("opt-py", "C++"))
        except RuntimeError as e:  # the program does not compile at all: a generator bug, reported
            return {"opt-py": "n/a", "C++": "n/a", "why": str(e)[-200:]}
    return rs.run(case, part == "pass")


def _isolated(seed: int, parts=PARTS, timeout: int = 300):
    """Parts of one case in a child process: a crash or a hang (stock IREE
    compiling a bad store, say) becomes that case's outcome, not the run's."""
    cmd = [sys.executable, os.path.abspath(__file__), "--one", str(seed), "--parts", ",".join(parts)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _one(seed: int):
    from opt_py.cases import fold_collapse_shape_into_store as rs

    got = _isolated(seed)
    if got is None:  # find which part crashed or hung
        got = {}
        for part in ("pass", "stock"):
            r = _isolated(seed, (part,))
            got[part] = r[part] if r else "error: crashed or hung"
        got["folds"] = {}
        for name in ("opt-py", "C++"):
            r = _isolated(seed, (f"folds:{name}",))
            got["folds"][name] = r[f"folds:{name}"][name] if r else "crashed"
    return seed, rs.random_case(seed).describe(), got["pass"], got["stock"], got["folds"]


def miscompiles(n: int):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        return sorted(pool.map(_one, range(n)))


def _outcome(s: str) -> str:
    return "error" if s.startswith("error") else s


def main() -> int:
    if "--one" in sys.argv:  # a child of _isolated
        seed = int(sys.argv[sys.argv.index("--one") + 1])
        parts = sys.argv[sys.argv.index("--parts") + 1].split(",")
        print(json.dumps({part: _part(seed, part) for part in parts}))
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--disagreements", default=None, help="write every C++/Python disagreement to this file")
    args = ap.parse_args()
    print(f"command: python tools/bench_reshape_store.py --cases {args.cases}\n")
    s = speed(args.reps)
    base = s["C++ iree-codegen-fold-reshape-into-interface-tensor"]
    print("| 2,000 dispatch functions, one foldable store each | median | vs C++ |")
    print("| --- | ---: | ---: |")
    for name, t in s.items():
        print(f"| {name} | {t * 1000:.1f} ms | {t / base:.2f}x |")

    rows = miscompiles(args.cases)
    ours = Counter(_outcome(r[2]) for r in rows)
    stock = Counter(_outcome(r[3]) for r in rows)
    print(f"\n| {args.cases} random cases, llvm-cpu | numbers equal numpy | wrong numbers | compile error |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| stock iree-compile 3.13 | {stock['ok']} | {stock['wrong']} | {stock['error']} |")
    print(f"| with fold-collapse-shape-into-store | {ours['ok']} | {ours['wrong']} | {ours['error']} |")

    pairs = Counter((r[4]["opt-py"], r[4]["C++"]) for r in rows)
    print("\n| opt-py pass \\ C++ twin (on executable-sources IR) | cases | stock numbers right in them |")
    print("| --- | ---: | ---: |")
    for (o, c), k in sorted(pairs.items()):
        right = sum(1 for r in rows if (r[4]["opt-py"], r[4]["C++"]) == (o, c) and r[3] == "ok")
        print(f"| opt-py {o}, C++ {c} | {k} | {right} |")
    disagree = [r for r in rows if r[4]["opt-py"] != r[4]["C++"]]
    lines = [
        f"{r[0]}: opt-py {r[4]['opt-py']} ({r[2]}), C++ {r[4]['C++']} (stock run: {r[3]}): {r[1]}" for r in disagree
    ]
    if args.disagreements:
        with open(args.disagreements, "w") as f:
            f.write("\n".join(lines) + "\n")
        print(f"\n{len(disagree)} disagreements written to {args.disagreements}")
    for r in rows:
        if "crashed" in str(r[4]) or "crashed" in r[3]:
            print(f"crashed or hung: seed {r[0]}: stock {r[3]}, folds {r[4]}: {r[1]}")
        if r[2] != "ok":
            print(f"WITH THE PASS NOT OK: seed {r[0]}: {r[2]} {r[1]}")
    return 0 if ours["ok"] == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())

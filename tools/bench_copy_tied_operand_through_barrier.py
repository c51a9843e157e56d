"""Issue-29 figures: modules that write their own constants, stock IREE against opt-py's fixes.

``--cases N``: N random modules (python/cases/copy_tied_operand_through_barrier.py:
constants, globals and values reaching scatters, sorts, accumulating matmuls,
in-place generics and insert_slices through util/stablehlo optimization
barriers, unfoldable constants or nothing; several functions sharing equal
constants) compiled for llvm-cpu by stock IREE 3.13 and by ``opt-py compile
--fixes``, loaded read-only (``VmModule.mmap``) in a child process, every
function called three times in one context, compared with numpy bit for bit.

``--e2e DIR``: IREE's own check-test files (tests/e2e, ../shared/peer/iree_e2e)
of every llvm-cpu suite in DIR's CMakeLists.txt files, with each suite's
compiler flags, stock and ``--fixes``, run read-only with a ``check`` module of
numpy comparisons (python/cases/mmap_runner.py; ``opt-py check`` will do this).

    python tools/bench_copy_tied_operand_through_barrier.py --cases 500 [--seed S] [--jobs J]
    python tools/bench_copy_tied_operand_through_barrier.py --e2e ../shared/peer/iree_e2e [--jobs J]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def _random_pair(seed: int) -> tuple[int, str, str]:
    from opt_py.cases import copy_tied_operand_through_barrier as g

    case = g.random_case(seed)
    return seed, g.run(case, False), g.run(case, "fixes")


def random_table(n: int, seed: int, jobs: int) -> int:
    from opt_py.cases import copy_tied_operand_through_barrier as g

    t0 = time.time()
    with ProcessPoolExecutor(jobs) as pool:
        rows = list(pool.map(_random_pair, range(seed, seed + n)))
    stock = Counter(g.outcome_kind(r[1]) for r in rows)
    ours = Counter(g.outcome_kind(r[2]) for r in rows)
    barrier = sum(g.crosses_barrier(g.random_case(s)) for s, _, _ in rows)
    print(f"| {n} random modules, llvm-cpu, loaded read-only, 3 calls each | " + " | ".join(g.OUTCOMES) + " |")
    print("| --- | " + " | ".join(["---:"] * len(g.OUTCOMES)) + " |")
    print("| stock iree-compile 3.13 | " + " | ".join(str(stock[k]) for k in g.OUTCOMES) + " |")
    print("| opt-py compile --fixes | " + " | ".join(str(ours[k]) for k in g.OUTCOMES) + " |")
    print(
        f"\n({barrier} of {n} write a constant or shared value through a barrier; {time.time() - t0:.0f} s, {jobs} jobs)"
    )
    for s, st, o in rows:
        if st != "ok":
            print(f"stock {st}, --fixes {o}: {g.random_case(s).describe()}")
    for s, _, o in rows:
        if o != "ok":
            print(f"OPT-PY --FIXES NOT OK: {o}: {g.random_case(s).describe()}")
    regressions = sum(g.outcome_kind(st) == "ok" and o != "ok" for _, st, o in rows)
    print(f"(regressions, stock ok and --fixes not: {regressions})")
    return 1 if regressions or ours["wrong"] or ours["fault"] or ours["run error"] else 0


# --------------------------------------------------------------------------
# IREE's own e2e check files
# --------------------------------------------------------------------------


def llvm_cpu_suites(root: Path) -> list[tuple[Path, tuple[str, ...]]]:
    """(file, compiler flags) of each source of an ``iree_check_single_backend_test_suite`` for
    llvm-cpu on local-task in ``root``'s CMakeLists.txt files."""
    out = []
    for cmake in sorted(root.rglob("CMakeLists.txt")):
        text = cmake.read_text()
        for block in re.findall(r"iree_check_single_backend_test_suite\((.*?)\n\)", text, re.S):
            fields, key = {}, None
            for tok in re.findall(r'"[^"]*"|\S+', block):
                if tok.startswith('"'):
                    fields.setdefault(key, []).append(tok.strip('"'))
                else:
                    key = tok
            if fields.get("TARGET_BACKEND") != ["llvm-cpu"] or fields.get("DRIVER") != ["local-task"]:
                continue
            # CMake's escapes dropped; one CPU for all (the suites that differ only by it run once).
            flags = [f.replace("\\", "") for f in fields.get("COMPILER_FLAGS", [])]
            flags = tuple(f for f in flags if not f.startswith("--iree-llvmcpu-target-cpu=")) + (
                "--iree-llvmcpu-target-cpu=generic",
            )
            for src in fields.get("SRCS", []):
                path = cmake.parent / src
                if path.suffix == ".mlir" and path.exists() and (path, flags) not in out:
                    out.append((path, flags))
    return out


def _e2e_outcome(path: str, flags: tuple[str, ...], fixes: bool) -> str:
    from opt_py.cases.mmap_runner import run_checks
    from opt_py.errors import OptPyError
    from opt_py.iree import e2e
    from opt_py.iree import fixes as fx

    target = e2e.TARGETS["cpu"]
    inject, codegen = fx.specs("all", target.compile_flags) if fixes else ((), ())
    try:
        vmfb = e2e.compile_program(path, target, inject=inject, inject_codegen=codegen, extra_flags=flags)
    except OptPyError as e:
        return "compile error: " + str(e).strip().splitlines()[-1][:160]
    out = run_checks(vmfb, rounds=2, device=target.device)
    if out.fault:
        return "fault: " + out.fault
    if out.error:
        return "error: " + out.error
    failed = [x for x in out.lines if " FAIL: " in x]
    return f"check failed: {failed[0][:160]}" if failed else "ok"


def _e2e_pair(item) -> tuple[str, str, str]:
    path, flags = item
    return str(path), _e2e_outcome(str(path), flags, False), _e2e_outcome(str(path), flags, True)


def e2e_table(root: Path, jobs: int) -> int:
    t0 = time.time()
    items = llvm_cpu_suites(root)
    with ProcessPoolExecutor(jobs) as pool:
        rows = list(pool.map(_e2e_pair, items))

    def kind(s: str) -> str:
        return s.split(":")[0]

    names = ("ok", "check failed", "fault", "error", "compile error")
    stock, ours = Counter(kind(r[1]) for r in rows), Counter(kind(r[2]) for r in rows)
    print(f"| IREE tests/e2e, {len(rows)} llvm-cpu check files, loaded read-only, 2 runs | " + " | ".join(names) + " |")
    print("| --- | " + " | ".join(["---:"] * len(names)) + " |")
    print("| stock iree-compile 3.13 | " + " | ".join(str(stock[k]) for k in names) + " |")
    print("| opt-py compile --fixes | " + " | ".join(str(ours[k]) for k in names) + " |")
    regressions = [r for r in rows if kind(r[1]) == "ok" and kind(r[2]) != "ok"]
    print(f"\n(regressions: {len(regressions)}; {time.time() - t0:.0f} s, {jobs} jobs)")
    for path, s, o in rows:
        if s != "ok" or o != "ok":
            print(f"{Path(path).relative_to(root)}: stock {s} | --fixes {o}")
    return 1 if regressions or any(kind(r[1]) == "fault" and kind(r[2]) == "fault" for r in rows) else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--e2e", type=Path)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    rc = 0
    if args.cases:
        print(f"command: python tools/{Path(__file__).name} --cases {args.cases} --seed {args.seed}\n")
        rc |= random_table(args.cases, args.seed, args.jobs)
    if args.e2e:
        print(f"\ncommand: python tools/{Path(__file__).name} --e2e {args.e2e}\n")
        rc |= e2e_table(args.e2e, args.jobs)
    return rc


if __name__ == "__main__":
    sys.exit(main())

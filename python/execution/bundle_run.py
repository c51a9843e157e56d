"""Run a bundle written by opt_py.execution.bundle_write (opt-py bundle) on the machine that has the device.

    python -m opt_py.execution.bundle_run DIR --device cuda   (or: python DIR/run_bundle.py DIR --device cuda)
    python DIR/run_bundle.py DIR --device cuda      # the copy write_bundle puts in DIR

Needs only ``iree-base-runtime`` (of the compiler's version, in the bundle's
manifest) and numpy: this file imports nothing else but worker.py (which the
bundle carries beside it), and nothing from opt_py, so it runs where no
compiler is installed. It runs every module of every variant on the device in
worker.py's child process (read-only, twice: a module that faults or changes
its results between calls is wrong, and the runner goes on with the next),
compares each output with the reference at the case's tolerance, prints a
table per family and variant (right / wrong / failed) and writes
results.json. Exit status: 0 when every outcome is the expected one (right,
or the stock failure the bundle records as known; stock on generated programs
and the fixes-minus-one variants may be anything), 1 otherwise, 2 for a bundle
or device that cannot be used.

``--time`` then times every module with ``iree-benchmark-module`` (the
runtime wheel ships it), one process per module and round, round by round
over the cases, the variants of a case one after the other and each round
starting with the next, so that a drift of the machine falls on all of them
alike (``--time-limit`` stops it in time on a lent machine, every case
timed at least once if the first round fits). Per case it prints each variant's
min/median time per call and its ratio to stock's and to ``fixes``' median (a
``fixes-minus-NAME`` faster than ``fixes`` is what NAME costs), then those
ratios over the cases. A variant whose module is another's, byte for byte
(the bundle says ``same_as``), is timed once, as that one. A module that
faults or fails there is reported as such, and the rest goes on.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

try:
    from . import worker  # as opt_py.execution.bundle_run
except ImportError:  # as DIR/run_bundle.py: the bundle carries worker.py beside it
    import importlib.util

    _path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")
    if not os.path.exists(_path):
        raise SystemExit(
            f"bundle_run: error: no {_path}: the bundle must carry worker.py beside run_bundle.py"
        ) from None
    _spec = importlib.util.spec_from_file_location("worker", _path)
    worker = sys.modules["worker"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(worker)

FORMAT = "opt-py-bundle/1"


# --------------------------------------------------------------------------
# One module
# --------------------------------------------------------------------------


def compare_outputs(outs, refs, rtol: float, atol: float) -> tuple[bool, str]:
    """(all outputs match, a one-line account of the first differences)."""
    if len(outs) != len(refs):
        return False, f"{len(outs)} outputs, expected {len(refs)}"
    notes = []
    for i, (x, y) in enumerate(zip(outs, refs)):
        x, y = np.asarray(x), np.asarray(y)
        if x.shape != y.shape or x.dtype != y.dtype:
            notes.append(f"out{i}: {x.shape}/{x.dtype} vs {y.shape}/{y.dtype}")
            continue
        xf, yf = x.astype(np.float64), y.astype(np.float64)
        close = np.isclose(xf, yf, rtol=rtol, atol=atol, equal_nan=True)
        if not close.all():
            err = np.where(close, 0.0, np.abs(xf - yf))
            notes.append(f"out{i}: {int((~close).sum())}/{close.size} differ, max abs {float(np.nanmax(err)):.3g}")
    return not notes, "; ".join(notes)


def run_one(root: str, case: dict, variant: str, device: str, timeout: float | None = None, runner=None) -> dict:
    """The outcome of one (case, variant): right, wrong, compile-error or run-error. The module runs in
    worker.py's child process (``runner``; default this process's), read-only and twice: a module that
    faults, or whose results change between the calls, is wrong, and the reason is the detail."""
    module = case["modules"][variant]
    if "compile_error" in module:
        return {"outcome": "compile-error", "detail": module["compile_error"], "seconds": 0.0}
    t0 = time.perf_counter()
    try:
        inputs = [np.load(os.path.join(root, p)) for p in case["inputs"]]
        refs = [np.load(os.path.join(root, p)) for p in case["expected"]]
    except (OSError, ValueError) as e:
        return {"outcome": "run-error", "detail": f"{type(e).__name__}: {e}", "seconds": 0.0}
    request = worker.Request(os.path.join(root, module["vmfb"]), device, case["function"], inputs)
    ran = worker.run(request, timeout, runner)
    problem = ran.problem()
    if ran.error and not ran.fault:
        outcome, detail = "run-error", problem.splitlines()[0] if problem else ""
    elif problem:
        outcome, detail = "wrong", problem
    else:
        same, detail = compare_outputs(
            ran.calls[0]["results"], refs, case["tolerance"]["rtol"], case["tolerance"]["atol"]
        )
        outcome = "right" if same else "wrong"
    return {"outcome": outcome, "detail": detail, "seconds": round(time.perf_counter() - t0, 3)}


# --------------------------------------------------------------------------
# The bundle
# --------------------------------------------------------------------------


def load_manifest(root: str) -> dict:
    path = os.path.join(root, "manifest.json")
    if not os.path.exists(path):
        raise SystemExit(f"bundle_run: error: no manifest.json in {root}")
    with open(path) as f:
        manifest = json.load(f)
    if manifest.get("format") != FORMAT:
        raise SystemExit(f"bundle_run: error: {path} is not an {FORMAT} manifest")
    return manifest


def expected_outcome(case: dict, variant: str) -> str:
    """What ``variant`` of ``case`` should give: the bundle's record, else right; anything for a module
    that leaves a fix out (that fix may be what makes it right)."""
    if case["modules"].get(variant, {}).get("leaves_out"):
        return "any"
    return case.get("known", {}).get(variant, "right")


def summarize(results: list[dict], variants: list[str]) -> list[dict]:
    """Rows (family, variant, right, wrong, failed, cases) in bundle order."""
    rows: dict[tuple, dict] = {}
    for r in results:
        key = (r["family"], r["variant"])
        row = rows.setdefault(
            key, {"family": r["family"], "variant": r["variant"], "right": 0, "wrong": 0, "failed": 0, "cases": 0}
        )
        row["cases"] += 1
        row["right" if r["outcome"] == "right" else "wrong" if r["outcome"] == "wrong" else "failed"] += 1
    families = list(dict.fromkeys(r["family"] for r in results))
    return [rows[(f, v)] for f in families for v in variants if (f, v) in rows]


def format_table(rows: list[dict], results: list[dict]) -> str:
    lines = ["| family | variant | right | wrong | failed |", "| --- | --- | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['family']} | {r['variant']} | {r['right']} | {r['wrong']} | {r['failed']} |")
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    for v in variants:
        tot = [r for r in rows if r["variant"] == v]
        lines.append(
            f"| **all** | {v} | {sum(r['right'] for r in tot)} | {sum(r['wrong'] for r in tot)} | "
            f"{sum(r['failed'] for r in tot)} |"
        )
    odd = [r for r in results if r["outcome"] != "right" or not r["as_expected"]]
    if odd:
        lines += ["", "| case | variant | outcome | expected | detail |", "| --- | --- | --- | --- | --- |"]
        for r in odd:
            detail = r["detail"].replace("|", "/").replace("\n", " ")[:160]
            lines.append(f"| {r['case']} | {r['variant']} | {r['outcome']} | {r['expected']} | {detail} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------

BENCHMARK = "iree-benchmark-module"
UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def benchmark_tool() -> str | None:
    """iree-benchmark-module as iree-base-runtime ships it (beside its libraries, where the wheel's own
    ``iree-benchmark-module`` script finds it), else the one on PATH; None when neither is there."""
    try:
        from iree._runtime import libs

        path = os.path.join(libs.library_path, BENCHMARK)
        if os.access(path, os.X_OK):
            return path
    except ImportError:
        pass
    return shutil.which(BENCHMARK)


def time_module(tool: str, root: str, case: dict, variant: str, device: str, timing: dict) -> dict:
    """One iree-benchmark-module run of a module: ``{"times": [s per call, one per repetition]}``, or
    ``{"error": why}`` (a fault, a failing status, a timeout); never an exception."""
    args = [
        tool,
        f"--module={os.path.join(root, case['modules'][variant]['vmfb'])}",
        f"--device={device}",
        f"--function={case['function']}",
        *[f"--input=@{os.path.join(root, p)}" for p in case["inputs"]],
        f"--benchmark_repetitions={timing['reps']}",
        f"--benchmark_min_time={timing['min_time']:g}s",
        f"--benchmark_min_warmup_time={timing['min_time']:g}",  # a cold first call is not a repetition
        "--benchmark_out_format=json",
    ]
    with tempfile.TemporaryDirectory(prefix="bundle-time-") as tmp:
        out = os.path.join(tmp, "out.json")
        try:
            proc = subprocess.run(
                [*args, f"--benchmark_out={out}"],
                capture_output=True,
                text=True,
                timeout=timing["timeout"],
                check=False,
            )
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {timing['timeout']:g} s"}
        except OSError as e:
            return {"error": f"{BENCHMARK} did not start: {e}"}
        if proc.returncode != 0:
            return {"error": _exit_reason(proc.returncode, proc.stderr or proc.stdout)}
        try:
            with open(out) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            return {"error": f"no report from {BENCHMARK}: {e}"}
    runs = [b for b in report.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
    failed = [b for b in runs if b.get("error_occurred")]
    if failed or not runs:
        return {"error": _short(failed[0].get("error_message", "") if failed else f"{BENCHMARK} timed nothing")}
    return {"times": [b["real_time"] * UNITS[b.get("time_unit", "ns")] for b in runs]}


def _exit_reason(code: int, text: str) -> str:
    import signal

    if code < 0:
        try:
            return f"faulted: {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    lines = [line for line in text.splitlines() if line.strip()]
    detail = next((line for line in lines if "error" in line.lower()), lines[-1] if lines else "")
    return _short(f"exit status {code}: {detail}")


def _short(text: str) -> str:
    return " ".join(text.split())[:300]


def time_cases(tool: str, root: str, cases: list[dict], variants: list[str], device: str, timing: dict) -> list:
    """Each module of each case timed ``timing['rounds']`` times: round by round over the cases, a case's
    variants one after the other, each round starting one further. A row per (case, variant) the bundle
    has: its times, min and median, its median against stock's and fixes', or why it has none. With
    ``timing['limit']`` (seconds), no run starts after that: the rows say how many rounds they got."""
    plans = [_plan(case, variants) for case in cases]
    deadline = time.monotonic() + timing["limit"] if timing.get("limit") else None
    for r in range(timing["rounds"]):
        for case, plan in zip(cases, plans):
            timed = plan["timed"]
            k = r % len(timed) if timed else 0
            for v in timed[k:] + timed[:k]:
                if v in plan["errors"]:
                    continue  # a module that failed once is not run again
                if deadline is not None and time.monotonic() > deadline:
                    return [row for c, p in zip(cases, plans) for row in _rows(c, p, timing["limit"])]
                got = time_module(tool, root, case, v, device, timing)
                if "error" in got:
                    plan["errors"][v] = got["error"]
                else:
                    plan["times"][v].append(got["times"])
                print(
                    f"{case['name']:34} {v:12} round {r + 1}: "
                    + (got.get("error") or f"median {statistics.median(got['times']) * 1e3:.4g} ms"),
                    file=sys.stderr,
                    flush=True,
                )
    return [row for case, plan in zip(cases, plans) for row in _rows(case, plan)]


def time_case(tool: str, root: str, case: dict, variants: list[str], device: str, timing: dict) -> list[dict]:
    """``time_cases`` for one case."""
    return time_cases(tool, root, [case], variants, device, timing)


def _plan(case: dict, variants: list[str]) -> dict:
    """What to time of ``case``: its modules, less those that are another's byte for byte (``same``)."""
    have = [v for v in variants if v in case["modules"]]
    compiled = [v for v in have if "vmfb" in case["modules"][v]]
    same = {v: case["modules"][v].get("same_as") for v in compiled}
    same = {v: s for v, s in same.items() if s in compiled}  # the same bytes as a module timed here
    timed = [v for v in compiled if v not in same]
    errors = {v: "did not compile" for v in have if v not in compiled}
    return {"have": have, "same": same, "timed": timed, "times": {v: [] for v in timed}, "errors": errors}


def _rows(case: dict, plan: dict, limit: float | None = None) -> list[dict]:
    rows = []
    for v in plan["have"]:
        row = {"case": case["name"], "family": case["family"], "variant": v}
        row["leaves_out"] = case["modules"][v].get("leaves_out", [])
        source = plan["same"].get(v, v)
        if source != v:
            row["same_as"] = source
        rounds = plan["times"].get(source, [])
        times = [t for one in rounds for t in one]
        if source in plan["errors"]:
            row["error"] = plan["errors"][source]
        elif not times:
            row["error"] = f"not timed: the time limit ({limit:g} s) came first"
        else:
            row.update(rounds=len(rounds), times=times, min=min(times), median=statistics.median(times))
        rows.append(row)
    medians = {r["variant"]: r["median"] for r in rows if "median" in r}
    for r in rows:
        for base in ("stock", "fixes"):
            if "median" in r and base in medians:
                r[f"vs_{base}"] = r["median"] / medians[base]
    return rows


def fix_costs(rows: list[dict]) -> list[dict]:
    """Per fix, over the cases where ``fixes`` and ``fixes-minus-NAME`` both have a time: ``fixes`` over
    ``fixes-minus-NAME`` (above 1: the fix makes the module slower), its geometric mean, the worst case
    and how many pairs are one module (1 by construction); first, ``fixes`` over stock the same way."""
    source = {(r["case"], r["variant"]): r.get("same_as", r["variant"]) for r in rows}
    pairs: dict[str, list] = {}
    for r in rows:
        if "vs_fixes" in r and len(r["leaves_out"]) == 1:
            same = source[(r["case"], r["variant"])] == source[(r["case"], "fixes")]
            pairs.setdefault(r["leaves_out"][0], []).append((r["case"], 1.0 / r["vs_fixes"], same))
        if r["variant"] == "fixes" and "vs_stock" in r:
            same = source[(r["case"], "fixes")] == source[(r["case"], "stock")]
            pairs.setdefault("", []).append((r["case"], r["vs_stock"], same))
    out = []
    for name in sorted(pairs, key=lambda n: (n != "", n)):
        ratios = pairs[name]
        worst = max(ratios, key=lambda p: p[1])
        out.append(
            {
                "fix": name or "(all: fixes / stock)",
                "cases": len(ratios),
                "same_module": sum(same for _, _, same in ratios),
                "geomean": float(np.exp(np.mean(np.log([x for _, x, _ in ratios])))),
                "worst": worst[1],
                "worst_case": worst[0],
            }
        )
    return out


def format_timing(rows: list[dict], costs: list[dict]) -> str:
    """The timing table (per case, each variant against stock and fixes) and the fixes' costs."""
    lines = [
        "| case | variant | min ms | median ms | / stock | / fixes | note |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    full = max((r.get("rounds", 0) for r in rows), default=0)
    for r in rows:
        ms = [f"{r[k] * 1e3:.4g}" if k in r else "" for k in ("min", "median")]
        if r.get("rounds", full) < full:
            r = dict(r, error=f"{r['rounds']} of {full} rounds (the time limit)")
        ratios = [f"{r[k]:.3f}x" if k in r else "" for k in ("vs_stock", "vs_fixes")]
        note = r.get("error", "").replace("|", "/")[:120]
        if "same_as" in r:
            note = f"the same module as {r['same_as']}: its time" + (f"; {note}" if note else "")
        lines.append(f"| {r['case']} | {r['variant']} | {' | '.join(ms)} | {' | '.join(ratios)} | {note} |")
    if costs:
        lines += [
            "",
            "What each fix costs: fixes / fixes-minus-NAME (median time per call; above 1: slower with it)",
            "",
            "| fix | cases | of them one module | geomean | worst | worst case |",
            "| --- | ---: | ---: | ---: | ---: | --- |",
        ]
        for c in costs:
            lines.append(
                f"| {c['fix']} | {c['cases']} | {c['same_module']} | {c['geomean']:.3f}x | {c['worst']:.3f}x "
                f"| {c['worst_case']} |"
            )
    return "\n".join(lines)


def _runtime_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("iree-base-runtime")
    except PackageNotFoundError:
        return "unknown"


def main(argv=None) -> int:
    a = _parser().parse_args(argv)
    root = os.path.abspath(a.bundle)
    manifest = load_manifest(root)
    device = a.device or manifest["device"]
    cases = {c["name"]: c for c in manifest["cases"]}
    variants = a.variant or list(manifest["variants"])
    unknown = [v for v in variants if v not in manifest["variants"]]
    unknown += [c for c in (a.case or []) if c not in cases]
    if unknown:
        print(f"bundle_run: error: not in this bundle: {', '.join(unknown)}", file=sys.stderr)
        return 2
    problem = _device_problem(device)
    if problem:
        print(f"bundle_run: error: cannot open device '{device}': {problem}", file=sys.stderr)
        return 2
    tool = benchmark_tool() if a.time else None
    if a.time and tool is None:
        print(f"bundle_run: error: --time needs {BENCHMARK} (iree-base-runtime ships it)", file=sys.stderr)
        return 2
    runtime = _runtime_version()
    compiler = manifest.get("created_with", {}).get("iree-base-compiler")
    if compiler and runtime != "unknown" and compiler.split(".")[:2] != runtime.split(".")[:2]:
        print(f"bundle_run: warning: modules from iree-base-compiler {compiler}, runtime is {runtime}", file=sys.stderr)
    chosen = [case for case in manifest["cases"] if not a.case or case["name"] in a.case]
    results = [_run_logged(root, case, v, device, a) for case in chosen for v in variants if v in case["modules"]]
    rows = summarize(results, variants)
    print(format_table(rows, results))
    timed = None
    if a.time:
        worker.shared().close()  # the modules' checks are done: nothing else holds the device while timing
        timing = {"rounds": a.rounds, "reps": a.reps, "min_time": a.min_time, "timeout": a.timeout}
        timing["limit"] = a.time_limit
        t0 = time.perf_counter()
        times = time_cases(tool, root, chosen, variants, device, timing)
        costs = fix_costs(times)
        print()
        print(format_timing(times, costs))
        timed = {**timing, "tool": tool, "seconds": round(time.perf_counter() - t0, 1), "rows": times}
        timed["fix_costs"] = costs
    surprises = [r for r in results if not r["as_expected"]]
    out = {
        "bundle": root,
        "target": manifest["target"],
        "device": device,
        "host": platform.node(),
        "iree-base-runtime": runtime,
        "created_with": manifest.get("created_with", {}),
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "summary": rows,
        "results": results,
        "surprises": len(surprises),
    }
    if timed is not None:
        out["timing"] = timed
    with open(a.results or os.path.join(root, "results.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    return 1 if surprises else 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bundle_run", description="Run an opt-py bundle on a device and compare.")
    p.add_argument("bundle", help="the bundle directory (with manifest.json)")
    p.add_argument("--device", default=None, help="IREE runtime device (cuda, hip, local-task; default: the bundle's)")
    p.add_argument("--variant", action="append", default=None, help="run only this variant (repeatable)")
    p.add_argument("--case", action="append", default=None, help="run only this case (repeatable)")
    p.add_argument("--isolate", action="store_true", help="run each module in a child process of its own")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per module (its two calls)")
    p.add_argument("-o", "--results", default=None, help="results file (default: DIR/results.json)")
    p.add_argument("--time", action="store_true", help=f"then time every module with {BENCHMARK}")
    p.add_argument("--rounds", type=_positive(int), default=3, help="--time: rounds over each case's variants")
    p.add_argument(
        "--reps", type=_positive(int), default=3, help=f"--time: repetitions in each {BENCHMARK} run (a round)"
    )
    p.add_argument(
        "--min-time",
        type=_positive(float),
        default=0.05,
        metavar="S",
        help="--time: seconds of calls each repetition times at least (and warms up before the first)",
    )
    p.add_argument(
        "--time-limit",
        type=_positive(float),
        default=None,
        metavar="S",
        help="--time: start no run after S seconds of timing (the rows say how many rounds each got)",
    )
    return p


def _positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, got '{text}'")
        return value

    return parse


def _device_problem(device: str) -> str | None:
    """Why the runtime cannot open ``device``, or None."""
    try:
        import iree.runtime as rt

        rt.get_device(device, cache=False)
    except Exception as e:  # noqa: BLE001 - any failure to open the device is reported as such
        return str(e).splitlines()[0]
    return None


def _run_logged(root: str, case: dict, variant: str, device: str, a) -> dict:
    """One (case, variant) run as --isolate asks, its result labelled, and a line on stderr."""
    runner = worker.Worker() if a.isolate else None
    try:
        r = run_one(root, case, variant, device, a.timeout, runner)
    finally:
        if runner is not None:
            runner.close()
    exp = expected_outcome(case, variant)
    r = {
        "case": case["name"],
        "family": case["family"],
        "variant": variant,
        **r,
        "expected": exp,
        "as_expected": exp == "any" or r["outcome"] == exp,
    }
    print(
        f"{case['name']:34} {variant:12} {r['outcome']:14} {r['seconds']:7.3f}s"
        f"{'' if r['as_expected'] else '   (expected ' + exp + ')'}",
        file=sys.stderr,
        flush=True,
    )
    return r


if __name__ == "__main__":
    sys.exit(main())

"""Run a bundle written by opt_py.iree.bundle (opt-py bundle) on the machine that has the device.

    python -m opt_py.iree.bundle_run DIR --device cuda   (or: python DIR/run_bundle.py DIR --device cuda)
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
may be anything), 1 otherwise, 2 for a bundle or device that cannot be used.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

try:
    from . import worker  # as opt_py.iree.bundle_run
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
    runtime = _runtime_version()
    compiler = manifest.get("created_with", {}).get("iree-base-compiler")
    if compiler and runtime != "unknown" and compiler.split(".")[:2] != runtime.split(".")[:2]:
        print(f"bundle_run: warning: modules from iree-base-compiler {compiler}, runtime is {runtime}", file=sys.stderr)
    results = [
        _run_logged(root, case, v, device, a)
        for case in manifest["cases"]
        if not a.case or case["name"] in a.case
        for v in variants
        if v in case["modules"]
    ]
    rows = summarize(results, variants)
    print(format_table(rows, results))
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
    return p


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

"""The sweep of the peers' suites, stock and with ``--fixes``: choosing cases, the results files (one JSON line
per case and variant, resumable), running them on threads that wait on child processes, comparing the two
variants case by case, the markdown report, and bisecting a regression to the fix that causes it.
tools/sweep_peer_suites.py is the command (its docstring says what the report holds);
test/unit/test_peer_sweep.py checks these on a fixed sample.
"""

from __future__ import annotations

import datetime
import fnmatch
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from . import suites as ps

# --------------------------------------------------------------------------
# Choosing cases
# --------------------------------------------------------------------------


def select(
    cases: list, patterns: str = "", sample: int = 0, every: int = 0, seed: int = 0, names: frozenset | None = None
) -> list:
    """The cases named in ``names`` (if given) matching any of the comma-separated globs, then every K-th or N drawn."""
    if names is not None:
        cases = [c for c in cases if c.name in names]
    if patterns:
        globs = [p for p in patterns.split(",") if p]
        cases = [c for c in cases if any(fnmatch.fnmatchcase(c.name, g) for g in globs)]
    if every > 1:
        cases = cases[::every]
    if sample and sample < len(cases):
        chosen = set(random.Random(seed).sample(range(len(cases)), sample))
        cases = [c for i, c in enumerate(cases) if i in chosen]
    return cases


# --------------------------------------------------------------------------
# The results files
# --------------------------------------------------------------------------


def results_path(out: Path, suite: str, target: str, variant: str) -> Path:
    return Path(out) / f"{suite}-{target}-{variant.replace('/', '_')}.jsonl"


def load_results(path: Path) -> dict[str, dict]:
    """Case -> its last record; a line cut short by a killed sweep is ignored."""
    found: dict[str, dict] = {}
    if not Path(path).is_file():
        return found
    for line in Path(path).read_text().splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        found[rec["case"]] = rec
    return found


def append_result(path: Path, rec: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab+") as f:
        f.seek(0, os.SEEK_END)
        if f.tell():
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":  # the last line was cut short
                f.write(b"\n")
        f.write((json.dumps(rec) + "\n").encode())


def source_commit() -> str:
    """The commit that last changed opt-py's package (what the variants run), ``+dirty`` when edited since."""
    git = ["git", "-C", str(ps.ROOT)]
    try:
        last = subprocess.run([*git, "log", "-1", "--format=%h", "--", "python"], capture_output=True, text=True)
        dirty = subprocess.run([*git, "status", "--porcelain", "python"], capture_output=True, text=True).stdout
    except OSError:
        return "unknown"
    return (last.stdout.strip() or "unknown") + ("+dirty" if dirty.strip() else "")


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


def pending(
    cases: list, variants: list[str], out: Path, redo: frozenset = frozenset(), commit: str | None = None
) -> list[tuple]:
    """(case, variant) pairs not yet in the results files, stock and fixes of a case side by side.

    ``redo`` names outcomes to run again; ``stale`` in it, every record made at another commit than ``commit``.
    """
    if not cases:
        return []
    suite, target = cases[0].suite, cases[0].target
    done = {v: load_results(results_path(out, suite, target, v)) for v in variants}
    stale = "stale" in redo
    commit = commit or (source_commit() if stale else None)
    todo = []
    for case in cases:
        for v in variants:
            rec = done[v].get(case.name)
            if rec is None or rec["outcome"] in redo or (stale and rec.get("commit") != commit):
                todo.append((case, v))
    return todo


def _run_before(deadline: float | None, case, variant: str, **run_options) -> dict | None:
    """The case's record, or None when the deadline (a ``time.time()``) has passed before it starts."""
    if deadline is not None and time.time() >= deadline:
        return None
    return ps.run_case(case, variant, **run_options)


def sweep(
    todo: list[tuple], out: Path, jobs: int, *, log=sys.stderr, deadline: float | None = None, **run_options
) -> list[dict]:
    """Run every (case, variant) not started past ``deadline``, appending each record as it finishes.

    The records in finishing order; the runs left out stay pending for a re-run.
    """
    commit = source_commit()
    records = []
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(_run_before, deadline, c, v, **run_options): (c, v) for c, v in todo}
        for i, future in enumerate(as_completed(futures), 1):
            case, variant = futures[future]
            if (result := future.result()) is None:
                continue
            rec = {**result, "commit": commit}
            append_result(results_path(out, case.suite, case.target, variant), rec)
            records.append(rec)
            if log:
                print(
                    f"[{i}/{len(todo)} {time.monotonic() - t0:.0f} s] {case.name} {variant}: {rec['outcome']}"
                    + (f"  {rec['error'][:120]}" if rec.get("error") else ""),
                    file=log,
                    flush=True,
                )
    return records


# --------------------------------------------------------------------------
# Comparing stock with --fixes
# --------------------------------------------------------------------------


def verdict(stock: dict, fixed: dict) -> str:
    s, f = stock["outcome"] in ps.GOOD, fixed["outcome"] in ps.GOOD
    return {(True, True): "pass both", (False, False): "fail both", (False, True): "fixed", (True, False): "regressed"}[
        (s, f)
    ]


def failure_kind(stock: dict, fixed: dict) -> str:
    """For a case failing both ways: does ``--fixes`` fail with stock's error, a better one, or worse?"""
    if fixed.get("traceback"):
        return "traceback"
    s, f = ps.REACH[stock["outcome"]], ps.REACH[fixed["outcome"]]
    if f > s:
        return "better"
    if f < s:
        return "worse"
    if family_of(stock) == family_of(fixed) or same_crash(stock, fixed):
        return "same"
    return "different"


def same_crash(stock: dict, fixed: dict) -> bool:
    """Both crash with the same signal in the same pass (opt-py's report of a crash names the pass, not the frame)."""
    if not stock["outcome"] == fixed["outcome"] == "crash":
        return False
    s, f = (re.match(r"(\w+).*\(?pass (\w+)\)?$", r.get("error", "")) for r in (stock, fixed))
    return bool(s and f and s.groups() == f.groups())


def compare(stock: dict[str, dict], fixed: dict[str, dict]) -> list[dict]:
    """One row per case done both ways (not one that exported neither way): its verdict, and for
    failures both ways how they compare."""
    rows = []
    for name in sorted(set(stock) & set(fixed)):
        s, f = stock[name], fixed[name]
        if s["outcome"] == f["outcome"] == "export-fail":
            continue
        row = {"case": name, "stock": s, "fixes": f, "verdict": verdict(s, f)}
        if row["verdict"] == "fail both":
            row["kind"] = failure_kind(s, f)
        rows.append(row)
    return rows


def totals(rows: list[dict]) -> Counter:
    counts = Counter(r["verdict"] for r in rows)
    counts.update(f"fail both, {r['kind']}" for r in rows if "kind" in r)
    counts.update("traceback" for r in rows if r["fixes"].get("traceback"))
    return counts


def outcome_counts(records: dict[str, dict]) -> Counter:
    return Counter(r["outcome"] for r in records.values())


def family_of(rec: dict) -> str:
    """A failure's family: its normalised first error (torch_mlir: ``suites.torch_family``)."""
    return ps.torch_family(rec) if rec.get("suite") == "torch_mlir" else ps.family(rec.get("error", ""))


def families(records: dict[str, dict], skip: tuple[str, ...] = ps.GOOD) -> list[tuple[str, list[dict]]]:
    """The failures (outcomes not in ``skip``) grouped by their family, largest group first."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for rec in records.values():
        if rec["outcome"] not in skip:
            groups[f"{rec['outcome']}: {family_of(rec)}"].append(rec)
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def against_iree(config: ps.Config, records: dict[str, dict]) -> dict[str, list[str]]:
    """Where outcomes here disagree with IREE's lists of expected failures for the configuration."""
    out: dict[str, list[str]] = defaultdict(list)
    for name, rec in sorted(records.items()):
        if name in config.skipped:
            out["skipped by IREE"].append(name)
            continue
        o = rec["outcome"]
        if name in config.expected_compile_failures:
            if o not in ("compile-fail", "crash", "timeout"):
                out["IREE expects a compile failure, compiles here"].append(name)
        elif name in config.expected_run_failures:
            if o == "pass":
                out["IREE expects a run failure, passes here"].append(name)
            elif o != "run-fail":
                out["IREE expects a run failure, fails to compile here"].append(name)
        elif o != "pass":
            out["IREE expects a pass, fails here"].append(name)
    return dict(out)


# --------------------------------------------------------------------------
# Finding the fix behind a regression
# --------------------------------------------------------------------------


def fix_names(case: ps.Case) -> list[str]:
    """The fixes ``--fixes`` injects for the case's target."""
    from opt_py.iree import fixes

    flags = list(case.flags) + (list(ps.gpu_target_flags(case.target)) if case.suite == "iree_e2e" else [])
    if case.suite == "iree_e2e" and case.target == "cpu":
        flags += ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
    return [f.name for f in fixes.FIXES if any(fixes.injections([f], flags))]


def bisect(case: ps.Case, **run_options) -> dict[str, dict]:
    """The case through opt-py with no fix, then with each fix alone: variant -> its record.

    A failing record reproduces the regression: ``opt-py`` failing puts the
    blame on opt-py's compile itself, not on a fix (no fix is tried then).
    """
    bare = ps.run_case(case, "opt-py", **run_options)
    if bare["outcome"] not in ps.GOOD:
        return {"opt-py": bare}
    return {"opt-py": bare, **{f"fixes={n}": ps.run_case(case, f"fixes={n}", **run_options) for n in fix_names(case)}}


# --------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------


def _cell(rec: dict, width: int = 110) -> str:
    text = rec["outcome"] + (f": {rec['error']}" if rec.get("error") else "")
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


def report(suite: str, target: str, out: Path, peer: Path, *, examples: int = 3, top: int = 25) -> tuple[str, int]:
    """The markdown report of one suite and target, and the number of contract violations in it."""
    stock = load_results(results_path(out, suite, target, "stock"))
    fixed = load_results(results_path(out, suite, target, "fixes"))
    lines = [f"## {suite}, {target}", ""]
    commits = sorted({r.get("commit", "?") for r in fixed.values()})
    lines += [f"Cases done: stock {len(stock)}, `--fixes` {len(fixed)} (opt-py {', '.join(commits) or '-'}).", ""]
    outcomes = ps.outcomes_of(suite)
    lines += ["| variant | " + " | ".join(outcomes) + " |", "| --- |" + " ---: |" * len(outcomes)]
    for name, recs in (("stock", stock), ("--fixes", fixed)):
        counts = outcome_counts(recs)
        lines.append(f"| {name} | " + " | ".join(str(counts[o]) for o in outcomes) + " |")
    rows = compare(stock, fixed)
    t = totals(rows)
    lines += ["", f"Both done: {len(rows)}."]
    for key in ("pass both", "fail both", "fixed", "regressed"):
        lines.append(f"- {key}: {t[key]}")
    kinds = ("same", "better", "different", "worse", "traceback")
    lines.append("- fail both, `--fixes` error vs stock's: " + ", ".join(f"{k} {t['fail both, ' + k]}" for k in kinds))
    differ = [
        r
        for r in rows
        if r["verdict"] in ("fixed", "regressed") or r.get("kind", "same") != "same" or r["fixes"].get("traceback")
    ]
    if differ:
        lines += ["", "| case | verdict | stock | `--fixes` |", "| --- | --- | --- | --- |"]
        for r in differ:
            lines.append(
                f"| {r['case']} | {r['verdict']}{', ' + r['kind'] if 'kind' in r else ''} "
                f"| {_cell(r['stock'])} | {_cell(r['fixes'])} |"
            )
    fams = families(stock, skip=(*ps.GOOD, "export-fail"))
    if fams:
        lines += ["", f"Stock's failure families ({sum(len(v) for _, v in fams)} failures, {len(fams)} families):", ""]
        lines += ["| cases | family | examples |", "| ---: | --- | --- |"]
        for key, recs in fams[:top]:
            ex = ", ".join(r["case"] for r in recs[:examples])
            lines.append(f"| {len(recs)} | {key.replace('|', chr(92) + '|')} | {ex} |")
        if len(fams) > top:
            lines.append(f"| {sum(len(v) for _, v in fams[top:])} | ({len(fams) - top} smaller families) | |")
    if suite == "torch_mlir":
        lines += torch_mlir_sections(stock, examples, Path(out) / EXPORTS)
    if suite == "onnx_ops":
        config = ps.onnx_config(target, peer)
        lines += ["", f"Against IREE's `{config.name}.json` (stock here):", ""]
        for key, names in against_iree(config, stock).items():
            shown = ", ".join(names[:40]) + (f", … ({len(names) - 40} more)" if len(names) > 40 else "")
            lines.append(f"- {key} ({len(names)}): {shown}")
    return "\n".join(lines) + "\n", t["regressed"] + t["traceback"]


def torch_mlir_sections(stock: dict[str, dict], examples: int, cache: Path) -> list[str]:
    """How the tests exported (the cache's records), what does not export (by family), and which programs are
    random (stock's records)."""
    metas = [m for name in sorted(stock) if (m := ps.tm.export_record(cache, name))]
    shapes = Counter(m["shapes"].split(" (")[0] for m in metas if m["outcome"] == ps.tm.EXPORTED)
    fallback = sum(1 for m in metas if m["outcome"] == ps.tm.EXPORTED and "dynamic export failed" in m["shapes"])
    lines = [
        "",
        f"Exported: {sum(shapes.values())} of {len(stock)} ({shapes['dynamic']} with the annotations' dynamic "
        f"dims, {shapes['static']} static: {fallback} of them because the dynamic export failed, the others "
        "have no dynamic dim).",
    ]
    fams = families(stock, skip=tuple(o for o in ps.TORCH_OUTCOMES if o != "export-fail"))
    if fams:
        total = sum(len(v) for _, v in fams)
        lines += ["", f"Not exported ({total} tests, {len(fams)} reasons):", ""]
        lines += ["| tests | reason | examples |", "| ---: | --- | --- |"]
        for key, recs in fams:
            ex = ", ".join(r["case"] for r in recs[:examples])
            lines.append(f"| {len(recs)} | {key.removeprefix('export-fail: ').replace('|', chr(92) + '|')} | {ex} |")
    random_ = sorted(n for n, r in stock.items() if r.get("random"))
    if random_:
        lines += ["", f"Random programs ({len(random_)}; judged on shapes and dtypes only): {', '.join(random_)}"]
    return lines


EXPORTS = "torch-mlir-export"  # torch_mlir's exports, under --out


def export_first(todo: list[tuple], peer: Path, cache: Path, timeout: float, deadline: float | None) -> None:
    """Export the torch_mlir tests of ``todo`` not yet in ``cache``, in one child at a time."""
    wanted = {c.name for c, _ in todo}
    rows = [r for r in ps.tm.registry(peer) if r["name"] in wanted]
    missing = [r for r in rows if ps.tm.export_record(cache, r["name"]) is None]
    if missing:
        print(f"torch_mlir: exporting {len(missing)} tests into {cache}", file=sys.stderr)
        ps.tm.export_all(missing, peer, cache, timeout=timeout, deadline=deadline)


def utc_deadline(until: str) -> float | None:
    """``HH:MM`` UTC as a ``time.time()`` today (tomorrow when already past), None when not given."""
    if not until:
        return None
    now = datetime.datetime.now(datetime.UTC)
    hours, minutes = map(int, until.split(":"))
    at = now.replace(hour=hours, minute=minutes, second=0, microsecond=0)
    return (at if at > now else at + datetime.timedelta(days=1)).timestamp()


def iree_xfails(suite: str, target: str, peer: Path) -> frozenset | None:
    """The onnx_ops cases IREE's configuration for the target expects to fail; None (every case) for e2e files."""
    if suite != "onnx_ops":
        return None
    config = ps.onnx_config(target, peer)
    return config.expected_compile_failures | config.expected_run_failures


def bisect_report(suite: str, target: str, out: Path, cases: list, options: dict) -> None:
    stock = load_results(results_path(out, suite, target, "stock"))
    fixed = load_results(results_path(out, suite, target, "fixes"))
    by_name = {c.name: c for c in cases}
    for row in compare(stock, fixed):
        if row["verdict"] != "regressed" or row["case"] not in by_name:
            continue
        alone = bisect(by_name[row["case"]], **options)
        culprits = [n for n, rec in alone.items() if rec["outcome"] not in ps.GOOD]
        print(f"- {row['case']} regressed ({_cell(row['fixes'])}); failing: {', '.join(culprits) or 'none alone'}")

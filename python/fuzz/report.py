"""A campaign's report, and each bucket's reproducer ready to become the test of the pass that fixes it.

A bucket's folder holds the reduced program (``program.mlir`` as compiled,
``program.json`` as the fuzzer's graph), its inputs, the reference's outputs
(``expected<k>.npy``) and what each failing side gave (``observed-SIDE<k>.npy``),
``commands.sh`` (the exact commands that show the failure), ``repro.mlir``
(the program with lit RUN lines showing stock's failure, to copy into
test/lit/passes/ beside the fix) and, for wrong numbers, the hunter's report
and first differing dispatch (``hunt.txt``, ``dispatch/``). The report counts
programs and outcomes, lists the buckets largest first with their smallest
reproducer, whether ``--fixes`` already gets them right, and the known IREE
issue each matches (``known.py``).
"""

from __future__ import annotations

import json
import shlex
from collections import Counter, defaultdict
from pathlib import Path

from . import known, tasks
from .store import first_signature, read_jsonl


def write_reproducer(folder: Path, paths, red: dict, arrays: dict, hunt_files: dict) -> None:
    config = json.loads(paths.config.read_text())
    files: dict[str, bytes] = {name: data for name, data in arrays.items()}
    files["program.json"] = json.dumps(red["program"], indent=1).encode()
    files["program.mlir"] = red.get("text", "").encode()
    files["commands.sh"] = commands(config, red, sorted(n for n in arrays if n.startswith("input"))).encode()
    files["repro.mlir"] = lit_reproducer(config, red).encode()
    hunt = red.get("hunt") or {}
    if hunt.get("lines"):
        files["hunt.txt"] = ("\n".join(hunt["lines"]) + "\n").encode()
    for name, data in hunt_files.items():
        files[f"dispatch/{name}"] = data
    _replace_folder(folder, files)


def _replace_folder(folder: Path, files: dict[str, bytes]) -> None:
    """The folder holding exactly ``files``, swapped in whole: a reader never sees half a reproducer."""
    import shutil
    import tempfile

    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}."))
    for name, data in files.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_bytes(data)
    old = folder.with_name(f".{folder.name}.old")
    if folder.exists():
        folder.rename(old)
    tmp.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def _flags(config: dict) -> list[str]:
    from ..execution import e2e

    return [*e2e.TARGETS[config["target"]].compile_flags, *config.get("flags", ())]


def commands(config: dict, red: dict, inputs: list[str]) -> str:
    """The commands that show the failure, run from the bucket's folder."""
    from ..execution import e2e

    lines = ["#!/bin/sh", f"# {red['signature']} ({red['side']}), opt-py fuzz seed {red['seed']}", "set -x"]
    for side in config["sides"]:
        compile_cmd = tasks.compile_command(config, side, "program.mlir", f"{side}.vmfb")
        compile_cmd[0] = "iree-compile" if compile_cmd[0].endswith("iree-compile") else "opt-py"
        if compile_cmd[0] == "opt-py":
            compile_cmd = ["opt-py", *compile_cmd[3:]]
        lines.append(shlex.join(compile_cmd))
        if config["target"] == "cpu":
            target = e2e.TARGETS["cpu"]
            run = ["iree-run-module", f"--module={side}.vmfb", f"--device={target.device}", "--function=main"]
            run += [f"--input=@{n}" for n in inputs]
            run += [f"--output=@observed-{side}{k}.npy" for k in range(len(red["program"]["outputs"]))]
            lines.append(shlex.join(run))
    if config["target"] == "cpu" and len(config["sides"]) == 2 and red["signature"] == "wrong":
        cmp = ["opt-py", "compare", "program.mlir", "--function", "main", *[f"--input=@{n}" for n in inputs]]
        cmp += [f"--a-inject={j}" for j in config.get("stock_inject", ())]
        cmp += [f"--load-pass-plugin={p}" for p in config.get("plugins", ())]
        from .execute import side_injections

        inject, codegen = side_injections(config, "fixes")
        cmp += [f"--inject={j}" for j in inject] + [f"--inject-codegen={j}" for j in codegen]
        lines.append("# stock (A) against --fixes (B), on the same inputs; exit 1 when they differ")
        lines.append(shlex.join(cmp))
    lines.append("# the reference's outputs: expected<k>.npy (numpy.load)")
    return "\n".join(lines) + "\n"


def lit_reproducer(config: dict, red: dict) -> str:
    """The program with RUN lines: stock's failure as it shows today, ready for the fixing pass's lit test."""
    flags = " ".join(_flags(config))
    stock = red["sides"].get("stock", {})
    head = [
        f"// opt-py fuzz bucket: {red['signature']}",
        f"// seed {red['seed']} ({red['program']['kind']}), reduced from {red['from_ops']} to {len(red['ops'])} ops: "
        + ", ".join(red["ops"]),
        "// outcomes: " + ", ".join(f"{s} {o.get('outcome')}" for s, o in red["sides"].items()),
    ]
    if stock.get("outcome") == "compile-fail":
        head += [
            f"// RUN: not iree-compile {flags} %s -o /dev/null 2>&1 | FileCheck %s",
            f"// CHECK: error: {_check_text(stock.get('error', ''))}",
        ]
    elif stock.get("outcome") == "crash":
        head += [f"// RUN: not --crash iree-compile {flags} %s -o /dev/null"]
    else:
        head += [
            f"// RUN: iree-compile {flags} %s -o %t.vmfb",
            "// stock's numbers: see commands.sh (inputs, expected and observed outputs in this folder)",
        ]
    head += ["// The fix's test: RUN: opt-py -p 'PASS' %s | FileCheck %s --check-prefix=FIXED", ""]
    return "\n".join(head) + "\n" + red.get("text", "")


def _check_text(error: str) -> str:
    text = error.split("error: ", 1)[-1]
    return text.split(": %", 1)[0].strip()


# --------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------


def build(paths) -> str:
    config = json.loads(paths.config.read_text())
    results = {r["seed"]: r for r in read_jsonl(paths.results)}
    reductions = read_jsonl(paths.reductions)
    seconds = sum(r.get("seconds", 0) for r in results.values()) + sum(r.get("seconds", 0) for r in reductions)
    valid = [r for r in results.values() if "invalid" not in r and "error" not in r]
    lines = [f"# opt-py fuzz campaign: {paths.root}", ""]
    lines += [
        f"Programs: {len(results)} seeds ({', '.join(f'{k} {v}' for k, v in sorted(Counter(r.get('kind', '?') for r in results.values()).items()))}); "
        f"{len(valid)} compiled and judged, {sum(1 for r in results.values() if 'invalid' in r)} not valid "
        f"(the generator or the export failed), {sum(1 for r in results.values() if 'error' in r)} fuzzer errors.",
        f"Target {config['target']}, sides {', '.join(config['sides'])}"
        + (f", stock with {', '.join(config['stock_inject'])}" if config.get("stock_inject") else "")
        + f". Worker time {seconds / 3600:.2f} h: {len(results) / max(seconds / 3600, 1e-9):.0f} programs per worker-hour.",
        "",
        "| side | " + " | ".join(OUTCOMES) + " |",
        "| --- |" + " ---: |" * len(OUTCOMES),
    ]
    for side in config["sides"]:
        counts = Counter(r["sides"].get(side, {}).get("outcome") for r in valid)
        lines.append(f"| {side} | " + " | ".join(str(counts[o]) for o in OUTCOMES) + " |")
    by_sig: dict[str, list] = defaultdict(list)
    for r in valid:
        for side in r.get("sides", {}):
            if tasks.failing(r["sides"][side]):
                by_sig[first_signature(r, side)].append(r)
    buckets: dict[str, list] = defaultdict(list)
    sig_bucket: dict[str, set] = defaultdict(set)
    for red in reductions:
        if red.get("reproduced"):
            buckets[red["bucket"]].append(red)
            sig_bucket[red["first_signature"]].add(red["bucket"])
    lines += ["", f"## Buckets ({len(buckets)})", ""]
    lines += [
        "| bucket | signature | programs | smallest reproducer | `--fixes` | known issue |",
        "| --- | --- | ---: | --- | --- | --- |",
    ]
    rows = []
    for name, reds in buckets.items():
        programs = {r["seed"]: r for s in {red["first_signature"] for red in reds} for r in by_sig[s]}
        count = len(programs)  # a program both sides fail counts once
        best = min(reds, key=lambda r: len(r["ops"]))
        fixes = _fixes_verdict(best, list(programs.values()))
        issue = known.match(best["signature"], best.get("ops", []), config["target"])
        rows.append(
            (
                count,
                f"| `{name}` | {best['side']}: {_cell(best['signature'])} | {count} | "
                f"{len(best['ops'])} ops ({', '.join(best['ops'])}), seed {best['seed']} | {fixes} | {issue} |",
            )
        )
    lines += [row for _, row in sorted(rows, key=lambda x: -x[0])]
    unreduced = [s for s in by_sig if s not in sig_bucket]
    if unreduced:
        lines += ["", "First signatures with no reduction yet (or that did not reproduce):", ""]
        lines += [
            f"- {_cell(s)}: {len(by_sig[s])} programs (seeds {', '.join(str(r['seed']) for r in by_sig[s][:5])})"
            for s in sorted(unreduced, key=lambda s: -len(by_sig[s]))
        ]
    return "\n".join(lines) + "\n"


OUTCOMES = ("right", "compiled", "wrong", "compile-fail", "crash", "run-fail", "timeout")


def _fixes_verdict(best: dict, records: list[dict]) -> str:
    if best["side"] != "stock":
        return "a failure of --fixes itself"
    fixed = sum(1 for r in records if not tasks.failing(r["sides"].get("fixes", {"outcome": "?"})))
    reduced = best["sides"].get("fixes", {}).get("outcome", "?")
    return f"fixes {fixed}/{len(records)} (reduced: {reduced})"


def _cell(text: str, width: int = 120) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


def write(paths) -> str:
    text = build(paths)
    tmp = paths.report.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(paths.report)
    return text

#!/usr/bin/env python3
"""Sweep the peers' suites stock and with ``--fixes``: the contract as a number.

    python tools/sweep_peer_suites.py [--suite onnx_ops|iree_e2e|torch_mlir] [--target cpu|cuda|rocm]
        [--variant stock --variant fixes --variant fixes=NAME,...] [--cases GLOB,...] [--iree-xfails]
        [--sample N [--seed S] | --every K] [--jobs N] [--out DIR] [--report-only] [--until HH:MM]
        [--bisect] [--redo OUTCOME,...|stale] [--export-timeout S]

Every case of the suite (python/peers/suites.py says which, with which
flags, and what each outcome means) is compiled and run once per variant. The
work is done by child processes (iree-compile, opt-py, iree-run-module), so
``--jobs`` threads only wait on them. Each result is appended to
``OUT/SUITE-TARGET-VARIANT.jsonl`` as it comes; a re-run skips the cases
already there (``--redo timeout,crash`` runs those again, ``--redo stale``
those recorded at another opt-py commit; the last record of a case wins), so
a sweep can be stopped and resumed. torch_mlir's programs are exported first,
once, into ``OUT/torch-mlir-export/`` (resumable the same way), and only when
``--suite torch_mlir`` is asked for.

The report (markdown, to stdout) covers every case with both ``stock`` and
``fixes`` done (for torch_mlir, those that export; what does not, by reason,
after): the totals (pass both, fail both, fixed, regressed), each
case where the two differ, for cases failing both whether ``--fixes`` fails
with stock's error, a better one (later in the pipeline), or a different or
worse one, and any Python traceback; stock's failure families (first error
normalised, largest first, with examples); and where onnx_ops disagrees with
IREE's own lists of expected failures. ``--bisect`` runs each regressed case
through opt-py with no fix, then with each fix alone, and names the variants
that reproduce the regression.
Exit status: 1 when a case regressed or ``--fixes`` printed a traceback, else 0.
"""

import argparse
import os
import sys
from pathlib import Path

from opt_py.peers import suites as ps
from opt_py.peers.sweep import (
    EXPORTS,
    bisect_report,
    export_first,
    iree_xfails,
    pending,
    report,
    select,
    sweep,
    utc_deadline,
)

DEFAULT_OUT = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "opt-py" / "peer-sweep"


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", choices=ps.SUITES, action="append", help="default: onnx_ops and iree_e2e")
    ap.add_argument("--target", choices=ps.TARGETS, action="append", help="default: cpu")
    ap.add_argument("--variant", action="append", help="stock, fixes or fixes=NAME,... (default: stock and fixes)")
    ap.add_argument("--cases", default="", help="comma-separated globs on case names")
    ap.add_argument(
        "--iree-xfails",
        action="store_true",
        help="onnx_ops: only the cases IREE's list expects to fail (compile or run)",
    )
    ap.add_argument("--sample", type=int, default=0, help="N cases drawn at random (after --cases/--every)")
    ap.add_argument("--every", type=int, default=0, help="every K-th case in name order")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"results folder (default {DEFAULT_OUT})")
    ap.add_argument("--peer", type=Path, default=ps.PEER, help="the peers' suites (default ../shared/peer)")
    ap.add_argument("--compile-timeout", type=float, default=600)
    ap.add_argument("--run-timeout", type=float, default=120)
    ap.add_argument("--check", default="", help="the opt-py check command to use (default: opt-py check)")
    ap.add_argument("--server", action="store_true", help="let opt-py use its warm server (default: cold runs)")
    ap.add_argument("--until", default="", help="start no run after this UTC time (HH:MM); a re-run resumes")
    ap.add_argument(
        "--redo", default="", help="comma-separated outcomes to run again; stale: records of another opt-py commit"
    )
    ap.add_argument("--export-timeout", type=float, default=300, help="torch_mlir: seconds to export one test")
    ap.add_argument("--report-only", action="store_true", help="print the report of what is done, run nothing")
    ap.add_argument("--bisect", action="store_true", help="run each regressed case with each fix alone")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if not (args.peer / ps.ONNX_CASES).is_dir():
        print(f"sweep_peer_suites: no peers' suites at {args.peer}", file=sys.stderr)
        return 2
    suites, targets = args.suite or ["onnx_ops", "iree_e2e"], args.target or ["cpu"]
    variants = args.variant or ["stock", "fixes"]
    env = dict(os.environ) if args.server else {**os.environ, "OPT_PY_NO_SERVER": "1"}
    options = {
        "compile_timeout": args.compile_timeout,
        "run_timeout": args.run_timeout,
        "check": args.check.split() or None,
        "env": env,
    }
    bad = 0
    for suite in suites:
        for target in targets:
            names = iree_xfails(suite, target, args.peer) if args.iree_xfails else None
            all_cases = ps.cases_of(suite, target, args.peer, args.out / EXPORTS)
            cases = select(all_cases, args.cases, args.sample, args.every, args.seed, names)
            if not args.report_only:
                todo = pending(cases, variants, args.out, frozenset(filter(None, args.redo.split(","))))
                print(f"{suite} {target}: {len(cases)} cases, {len(todo)} runs to do", file=sys.stderr)
                deadline = utc_deadline(args.until)
                if suite == "torch_mlir":
                    export_first(todo, args.peer, args.out / EXPORTS, args.export_timeout, deadline)
                sweep(todo, args.out, args.jobs, deadline=deadline, **options)
            text, violations = report(suite, target, args.out, args.peer)
            bad += violations
            print(text)
            if args.bisect:
                bisect_report(suite, target, args.out, cases, options)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""``opt-py fuzz``: a differential fuzzing campaign, stock IREE against ``--fixes`` against a reference.

Its arguments; the campaign is ``fuzz/campaign.py``. Exit status: 0 when no
program failed on any side, 1 when some did (the report says which buckets),
2 on a usage or setup error.
"""

from __future__ import annotations

import sys


def fuzz_parser():
    import argparse

    from . import flags

    p = argparse.ArgumentParser(
        prog="opt-py fuzz",
        description="Generate random valid programs (PyTorch and linalg-level MLIR), compile each stock and with "
        "--fixes, run both on the same inputs against a float64 reference, classify every outcome, reduce each "
        "failure to a small reproducer and bucket it. Results are appended to OUT as they come: the same command "
        "resumes a stopped campaign.",
    )
    p.add_argument("--out", required=True, metavar="DIR", help="the campaign's folder (created, or resumed)")
    p.add_argument(
        "--kind",
        choices=["linalg", "torch", "mix"],
        default="mix",
        help="programs: linalg-level MLIR, PyTorch exported with iree-turbine, or both (default)",
    )
    flags.add_target(p, help="cpu: compiled and run (llvm-cpu); cuda (sm_80) and rocm (gfx942): compiled only")
    p.add_argument("--seeds", default="0:100", metavar="START:END", help="the seeds to run (default 0:100)")
    p.add_argument("--hours", type=float, default=None, help="start no new seed after this many hours")
    p.add_argument("--max-ops", type=int, default=8, help="ops per program, at most (default 8)")
    p.add_argument("--sides", default="stock,fixes", help="stock, fixes or both (default stock,fixes)")
    p.add_argument(
        "--stock-inject",
        action="append",
        default=[],
        metavar="PHASE:PIPELINE",
        help="passes injected into the stock side's compile (a planted bug, a pass under test)",
    )
    flags.add_load_pass_plugin(p)
    p.add_argument("--iree-flag", action="append", default=[], metavar="FLAG", help="an iree-compile flag, both sides")
    p.add_argument("--jobs", type=int, default=1, help="programs at once (local pool; default 1)")
    p.add_argument("--engine", choices=["local", "dask"], default="local", help="local process pool, or Dask")
    p.add_argument(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help="with --engine dask: a scheduler's address, or local:N for N workers on this machine",
    )
    p.add_argument("--no-reduce", action="store_true", help="classify only; reduce no failure")
    p.add_argument(
        "--reduce-per-signature",
        type=int,
        default=1,
        metavar="N",
        help="failures reduced per first signature (default 1)",
    )
    p.add_argument(
        "--reduce-tests", type=int, default=60, metavar="N", help="compiles a reduction may spend (default 60)"
    )
    p.add_argument("--compile-timeout", type=float, default=300)
    p.add_argument("--run-timeout", type=float, default=60)
    p.add_argument("--report-only", action="store_true", help="write the report of what is done; run nothing")
    return p


def fuzz_main(argv: list[str]) -> int:
    args = fuzz_parser().parse_args(argv)
    import time
    from pathlib import Path

    from ..errors import OptPyError
    from ..fuzz import campaign, report

    try:
        start, _, end = args.seeds.partition(":")
        seeds = range(int(start), int(end)) if end else range(int(start), int(start) + 1)
    except ValueError:
        print(f"opt-py fuzz: error: --seeds expects START:END, got '{args.seeds}'", file=sys.stderr)
        return 2
    sides = [s for s in args.sides.split(",") if s]
    if not sides or any(s not in ("stock", "fixes") for s in sides):
        print(f"opt-py fuzz: error: --sides takes stock and/or fixes, got '{args.sides}'", file=sys.stderr)
        return 2
    config = {
        "kind": args.kind,
        "target": args.target,
        "sides": sides,
        "stock_inject": args.stock_inject,
        "plugins": [str(Path(p).resolve()) for p in args.load_pass_plugin],
        "flags": args.iree_flag,
        "max_ops": args.max_ops,
        "compile_timeout": args.compile_timeout,
        "run_timeout": args.run_timeout,
    }
    try:
        if args.stock_inject or args.load_pass_plugin:
            _check_injections(config)
        if args.kind in ("torch", "mix"):
            _need_torch()
        paths = campaign.open_campaign(Path(args.out), config)
        if not args.report_only:
            plan = campaign.Plan(
                seeds,
                reduce=not args.no_reduce,
                reduce_per_signature=args.reduce_per_signature,
                reduce_tests=args.reduce_tests,
                deadline=time.time() + args.hours * 3600 if args.hours else None,
            )
            engine = campaign.engine_for(args.engine, args.jobs, args.cluster)
            campaign.run(paths, config, plan, engine, log=sys.stderr)
        text = report.write(paths)
    except OptPyError as e:
        print(f"opt-py fuzz: error: {e}", file=sys.stderr)
        return 2
    print(text, end="")
    print(f"report: {paths.report}; reproducers: {paths.buckets}", file=sys.stderr)
    return 1 if "| `" in text.split("## Buckets", 1)[-1] else 0


def _check_injections(config: dict) -> None:
    """A bad --stock-inject or plugin is a usage error now, not a failure of every program later."""
    from ..iree.phases import Injection
    from ..pipeline.plan import plan_pipeline
    from ..pipeline.registry import load_pass_files

    load_pass_files(config["plugins"])
    for spec in config["stock_inject"]:
        plan_pipeline(Injection.parse(spec).pipeline)


def _need_torch() -> None:
    import importlib.util

    from ..errors import OptPyError

    missing = [m for m in ("torch", "iree.turbine") if importlib.util.find_spec(m.split(".")[0]) is None]
    if missing:
        raise OptPyError(
            f"PyTorch programs need {' and '.join(missing)} (pip install 'opt-py[models]'); or use --kind linalg"
        )

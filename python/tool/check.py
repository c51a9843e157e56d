"""``opt-py check FILE.mlir...``: its arguments; the checking is ``execution/check_tests.py``.

Exit status: 0 when every expectation holds, 1 when one fails, 2 when a file
cannot be checked.
"""

from __future__ import annotations

import sys


def check_parser():
    import argparse

    from . import flags

    p = argparse.ArgumentParser(
        prog="opt-py check",
        description="Compile IREE check tests (functions calling check.expect_*) and run every exported "
        "function through the IREE runtime with a check module, so that each expectation is checked. "
        "Exit status: 0 every expectation holds, 1 one fails, 2 a file cannot be checked. "
        "Unrecognized flags are iree-compile's (--flag=value).",
    )
    p.add_argument("files", nargs="+", metavar="FILE.mlir", help="check tests")
    flags.add_target(p)
    p.add_argument("--device", default=None, help="runtime device to run on (default: the target's)")
    flags.add_fixes(p, "--fixes: compile with every opt-py fix for the target; --fixes=NAME,...: only those")
    flags.add_inject(p, help="as opt-py compile")
    flags.add_inject_codegen(p, help="as opt-py compile")
    flags.add_load_pass_plugin(p)
    p.add_argument("--compile-only", action="store_true", help="compile every file, run nothing")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds for each function's two calls")
    return p


def check_main(argv: list[str], out=None) -> int:
    from .flags import bare_fixes

    out = out or sys.stdout
    args, iree_flags = check_parser().parse_known_intermixed_args(bare_fixes(argv))
    import dataclasses

    from ..errors import OptPyError
    from ..execution import check_tests, e2e
    from ..iree.fixes import specs
    from ..pipeline.registry import load_pass_files

    stray = [f for f in iree_flags if not f.startswith("-")]
    if stray:
        return check_tests.error(f"unexpected argument(s) {' '.join(stray)} (write iree-compile flags as --flag=value)")
    target = e2e.TARGETS[args.target]
    if args.device:
        target = dataclasses.replace(target, device=args.device, driver=args.device.split(":")[0])
    try:
        load_pass_files(args.load_pass_plugin)
        inject, inject_codegen = list(args.inject), list(args.inject_codegen)
        if args.fixes is not None:
            fix_phases, fix_codegen = specs(args.fixes, [*target.compile_flags, *iree_flags])
            inject, inject_codegen = [*fix_phases, *inject], [*fix_codegen, *inject_codegen]
        if not args.compile_only:
            ok, why = e2e.device_available(target)
            if not ok:
                raise OptPyError(f"cannot run on target '{args.target}': {why} (--compile-only compiles alone)")
    except OptPyError as e:
        return check_tests.error(str(e))
    build = dict(inject=inject, inject_codegen=inject_codegen, extra_flags=iree_flags)
    return check_tests.check_files(args.files, target, build, args.compile_only, args.timeout, out)

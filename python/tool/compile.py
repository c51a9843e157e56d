"""``opt-py compile``: compile with IREE in process, opt-py pipelines injected after phases or inside codegen.

Unrecognized flags are iree-compile's and are passed through; ``--fixes``
injects every opt-py fix at its documented point (``iree/fixes.py``).
"""

from __future__ import annotations

import sys


def compile_parser():
    import argparse

    from . import flags

    p = argparse.ArgumentParser(
        prog="opt-py compile",
        description="Compile with IREE in process, running opt-py pipelines after the named phases. "
        "Unrecognized flags are iree-compile's and are passed through.",
    )
    p.add_argument("input", nargs="?", help="input program (MLIR at input level)")
    p.add_argument(
        "-o",
        dest="output",
        default=None,
        help="output: a .vmfb module, or IR when it ends in .mlir or --compile-to is given",
    )
    flags.add_inject(p)
    flags.add_inject_codegen(p)
    p.add_argument(
        "--inject-input",
        action="append",
        default=[],
        metavar=flags.POINT,
        help="run PIPELINE inside IREE's frontend lowering of a torch or ONNX program, before or after its N-th "
        "(default first; #* every) run of PASS",
    )
    p.add_argument(
        "--list-input-passes",
        action="store_true",
        help="print the passes of IREE's frontend lowering of this torch or ONNX program (the insertion points "
        "of --inject-input) and exit",
    )
    flags.add_fixes(
        p, "--fixes: inject every opt-py fix at its documented point for the target; --fixes=NAME,...: only those"
    )
    p.add_argument(
        "--fixes-report",
        action="store_true",
        help="with --fixes: print, for each fix, where it ran and what it rewrote where",
    )
    p.add_argument(
        "--list-fixes",
        action="store_true",
        help="print the fixes --fixes injects for the target given by the iree-compile flags, and exit",
    )
    p.add_argument(
        "--list-codegen-passes",
        action="store_true",
        help="print the codegen passes IREE runs on each dispatch function (the insertion points "
        "of --inject-codegen) and exit",
    )
    p.add_argument("--compile-to", default=None, metavar="PHASE", help="stop after PHASE and write IR")
    p.add_argument(
        "--dump-phases", default=None, metavar="DIR", help="write the IR before and after each injection into DIR"
    )
    flags.add_load_pass_plugin(p)
    p.add_argument("--debug", action="store_true", help="print tracebacks of failing Python passes")
    return p


def compile_main(argv: list[str]) -> int:
    from . import flags

    args, iree_flags = compile_parser().parse_known_args(flags.bare_fixes(argv))
    from ..run.bindings import import_bindings_lean

    import_bindings_lean()  # no iree.compiler.tools, no numpy, unless a pass needs them
    from ..errors import OptPyError
    from ..iree import fixes

    if args.list_fixes:
        print(fixes.describe(iree_flags))
        return 0
    problem = _usage_problem(args, iree_flags)
    if problem:
        print(f"opt-py: error: {problem}", file=sys.stderr)
        return 1
    try:
        result, fix_run = _compile(args, iree_flags)
    except OptPyError as e:
        print(f"opt-py: error: {e}", file=sys.stderr)
        return 1
    return _write(args, iree_flags, result, fix_run)


def _usage_problem(args, iree_flags) -> str | None:
    if args.fixes_report and args.fixes is None:
        return "--fixes-report reports what --fixes did: give --fixes too"
    if args.input is None:
        return "an input program is required"
    stray = [f for f in iree_flags if not f.startswith("-")]
    if stray:
        return f"unexpected argument(s) {' '.join(stray)} (write iree-compile flags as --flag=value)"
    return None


def _compile(args, iree_flags):
    """Load the plugins, gather the injections and compile (raises OptPyError); (result, what --fixes did)."""
    from ..errors import OptPyError
    from ..iree.codegen import CodegenInjection
    from ..iree.input_conversion import InputInjection
    from ..iree.phases import Injection, compile_with_injections
    from ..pipeline.registry import load_pass_files
    from ..run.opt_options import OptOptions

    load_pass_files(args.load_pass_plugin)
    if args.output is None and not (args.list_codegen_passes or args.list_input_passes):
        raise OptPyError("-o OUTPUT is required")
    injections = [Injection.parse(s) for s in args.inject]
    codegen = [CodegenInjection.parse(s) for s in args.inject_codegen]
    options = dict(
        list_codegen=args.list_codegen_passes,
        input_injections=[InputInjection.parse(s) for s in args.inject_input],
        list_input=args.list_input_passes,
        output_ir=(args.output or "").endswith(".mlir"),
        dump_dir=args.dump_phases,
        opt_options=OptOptions(debug=args.debug),
        record_rewrites=args.fixes_report,
    )
    if args.fixes is None:
        result = compile_with_injections(
            args.input, iree_flags, injections, codegen_injections=codegen, compile_to=args.compile_to, **options
        )
        return result, None
    from ..iree import fixes

    _note_fixes_left_out(args, iree_flags)
    return fixes.compile_with_fixes(
        args.input,
        iree_flags,
        args.fixes,
        injections_after=tuple(injections),
        codegen_after=tuple(codegen),
        compile_to=args.compile_to,
        **options,
    )


def _note_fixes_left_out(args, iree_flags) -> None:
    """Say which fixes ``--compile-to`` leaves out: they run after that stop."""
    from ..iree import fixes

    chosen = fixes.select(args.fixes)
    fix_phases, fix_codegen = fixes.injections(chosen, iree_flags, args.compile_to)
    every_phase, every_codegen = fixes.injections(chosen, iree_flags)
    later = list(dict.fromkeys(j.phase for j in every_phase if j not in fix_phases))
    later += ["codegen"] if len(every_codegen) > len(fix_codegen) else []
    if later:
        print(
            f"opt-py: note: --compile-to={args.compile_to} stops before the fixes at "
            f"{', '.join(later)}: they are left out",
            file=sys.stderr,
        )


def _write(args, iree_flags, result, fix_run) -> int:
    from .output import write_output

    for m in result.messages:
        print(m, file=sys.stderr)
    if args.fixes_report:
        from ..iree import fixes

        print(fixes.report(fix_run, iree_flags, result, args.compile_to), file=sys.stderr)
    if not result.ok:
        return 1
    if args.list_codegen_passes or args.list_input_passes:
        sys.stdout.write(result.output.decode())
        return 0
    return write_output(args.output, result.output)

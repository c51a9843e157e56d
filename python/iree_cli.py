"""``opt-py compile``: iree-compile with opt-py pipelines injected between phases.

    opt-py compile INPUT -o OUT.vmfb --inject PHASE:PIPELINE [--inject ...] [iree-compile flags]

Flags opt-py does not know are iree-compile's and pass through unchanged
(write them as --flag=value).
"""

from __future__ import annotations

import argparse
import sys


def compile_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="opt-py compile",
        description="Compile with IREE in process, running opt-py pipelines after the named phases. "
        "Unrecognized flags are iree-compile's and are passed through.",
    )
    p.add_argument("input", help="input program (MLIR at input level)")
    p.add_argument("-o", dest="output", default=None,
                   help="output: a .vmfb module, or IR when it ends in .mlir or --compile-to is given")
    p.add_argument("--inject", action="append", default=[], metavar="PHASE:PIPELINE",
                   help="run PIPELINE after PHASE (repeatable; phases: input ... vm)")
    p.add_argument("--inject-codegen", action="append", default=[], metavar="before|after:PASS[#N]:PIPELINE",
                   help="run PIPELINE inside IREE's code generation of each dispatch function, before or "
                        "after its N-th (default first; #* every) run of PASS")
    p.add_argument("--list-codegen-passes", action="store_true",
                   help="print the codegen passes IREE runs on each dispatch function (the insertion points "
                        "of --inject-codegen) and exit")
    p.add_argument("--compile-to", default=None, metavar="PHASE", help="stop after PHASE and write IR")
    p.add_argument("--dump-phases", default=None, metavar="DIR",
                   help="write the IR before and after each injection into DIR")
    p.add_argument("--load-pass-plugin", action="append", default=[], metavar="FILE.py",
                   help="import a Python file and register the passes it declares")
    p.add_argument("--debug", action="store_true", help="print tracebacks of failing Python passes")
    return p


def main(command: str, argv: list[str]) -> int:
    if command != "compile":
        print(f"opt-py: error: unknown subcommand '{command}'", file=sys.stderr)
        return 1
    args, iree_flags = compile_parser().parse_known_args(argv)
    from .api import OptPyError
    from .cli import write_output
    from .driver import OptOptions
    from .iree_codegen import CodegenInjection
    from .iree_compile import Injection, compile_with_injections
    from .registry import load_pass_file

    stray = [f for f in iree_flags if not f.startswith("-")]
    if stray:
        print(f"opt-py: error: unexpected argument(s) {' '.join(stray)} (write iree-compile flags as --flag=value)",
              file=sys.stderr)
        return 1
    try:
        for path in args.load_pass_plugin:
            load_pass_file(path)
        if args.output is None and not args.list_codegen_passes:
            print("opt-py: error: -o OUTPUT is required", file=sys.stderr)
            return 1
        injections = [Injection.parse(s) for s in args.inject]
        codegen = [CodegenInjection.parse(s) for s in args.inject_codegen]
        result = compile_with_injections(
            args.input, iree_flags, injections,
            codegen_injections=codegen,
            list_codegen=args.list_codegen_passes,
            compile_to=args.compile_to,
            output_ir=(args.output or "").endswith(".mlir"),
            dump_dir=args.dump_phases,
            opt_options=OptOptions(debug=args.debug),
        )
    except OptPyError as e:
        print(f"opt-py: error: {e}", file=sys.stderr)
        return 1
    for m in result.messages:
        print(m, file=sys.stderr)
    if not result.ok:
        return 1
    if args.list_codegen_passes:
        sys.stdout.write(result.output.decode())
        return 0
    return write_output(args.output, result.output)

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
    p.add_argument("-o", dest="output", required=True,
                   help="output: a .vmfb module, or IR when it ends in .mlir or --compile-to is given")
    p.add_argument("--inject", action="append", default=[], metavar="PHASE:PIPELINE",
                   help="run PIPELINE after PHASE (repeatable; phases: input ... vm)")
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
        injections = [Injection.parse(s) for s in args.inject]
        result = compile_with_injections(
            args.input, iree_flags, injections,
            compile_to=args.compile_to,
            output_ir=args.output.endswith(".mlir"),
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
    return write_output(args.output, result.output)

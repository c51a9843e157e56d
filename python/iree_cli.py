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


def compare_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="opt-py compare",
        description="Compile one program two ways (A: plain IREE or --a-inject..., B: with --inject...), run both "
        "on the same inputs through the IREE runtime and report which outputs differ and by how much. "
        "Exit status: 0 same, 1 different, 2 error. Unrecognized flags go to iree-compile for both.",
    )
    p.add_argument("input", help="program (MLIR at input level)")
    p.add_argument("--function", required=True, help="function to run")
    p.add_argument("--target", choices=["cpu", "cuda", "rocm"], default="cpu",
                   help="cpu (llvm-cpu, local-task), cuda (sm_80) or rocm (gfx942, hip)")
    p.add_argument("--inject", action="append", default=[], metavar="PHASE:PIPELINE", help="for B")
    p.add_argument("--inject-codegen", action="append", default=[], metavar="before|after:PASS:PIPELINE", help="for B")
    p.add_argument("--a-inject", action="append", default=[], metavar="PHASE:PIPELINE", help="for A (default: none)")
    p.add_argument("--a-inject-codegen", action="append", default=[], metavar="before|after:PASS:PIPELINE",
                   help="for A (default: none)")
    p.add_argument("--input", dest="inputs", action="append", default=[], metavar="@FILE.npy",
                   help="an input (repeat in argument order); random inputs from the signature when absent")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    p.add_argument("--dynamic-size", type=int, default=7, help="extent of each dynamic dim in random inputs")
    p.add_argument("--rtol", type=float, default=None, help="override the dtype's relative tolerance")
    p.add_argument("--atol", type=float, default=None, help="override the dtype's absolute tolerance")
    p.add_argument("--load-pass-plugin", action="append", default=[], metavar="FILE.py")
    return p


def compare_main(argv: list[str]) -> int:
    args, iree_flags = compare_parser().parse_known_args(argv)
    import numpy as np

    from . import e2e
    from .api import OptPyError
    from .registry import load_pass_file

    target = e2e.TARGETS[args.target]
    try:
        for path in args.load_pass_plugin:
            load_pass_file(path)
        ok, why = e2e.device_available(target)
        if not ok:
            raise e2e.DeviceUnavailable(f"cannot run on target '{args.target}': {why}")
        with open(args.input) as f:
            text = f.read()
        if args.inputs:
            inputs = [np.load(a[1:] if a.startswith("@") else a) for a in args.inputs]
        else:
            inputs = e2e.random_inputs(e2e.signature(text, args.function), args.seed, args.dynamic_size)
        a = e2e.compile_program(args.input, target, inject=args.a_inject, inject_codegen=args.a_inject_codegen,
                                extra_flags=iree_flags)
        b = e2e.compile_program(args.input, target, inject=args.inject, inject_codegen=args.inject_codegen,
                                extra_flags=iree_flags)
        out_a = e2e.run_runtime(a, target, args.function, inputs)
        out_b = e2e.run_runtime(b, target, args.function, inputs)
    except MemoryError as e:
        print(f"opt-py compare: error: out of memory making or running the inputs: {e}", file=sys.stderr)
        return 2
    except (OptPyError, OSError, ValueError) as e:
        print(f"opt-py compare: error: {e}", file=sys.stderr)
        return 2
    diffs = e2e.compare(out_b, out_a, rtol=args.rtol, atol=args.atol)
    shapes = ", ".join("x".join(map(str, x.shape)) + f"x{x.dtype}" for x in inputs)
    print(f"inputs: {shapes} ({'given' if args.inputs else f'random, seed {args.seed}'})")
    print(e2e.format_report(diffs, "B", "A"))
    same = all(d.same for d in diffs)
    print("same" if same else "DIFFERENT")
    return 0 if same else 1


def main(command: str, argv: list[str]) -> int:
    if command == "compare":
        return compare_main(argv)
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

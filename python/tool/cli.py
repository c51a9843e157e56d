"""The ``opt-py`` command: mlir-opt's conventions, Python passes included.

    opt-py [flags] [INPUT|-] [-o OUT]      run a pipeline (like mlir-opt)
    opt-py compile INPUT -o OUT.vmfb ...  compile with IREE, passes injected
    opt-py compare INPUT --function F ... compile two ways, run both, diff the outputs
    opt-py check FILE.mlir...             compile IREE check tests, run them, check every expectation

Nothing is imported up front: the command's entry point is ``client.main``,
which hands the run to the warm server when one is up (``server.py``) and
calls this ``main`` otherwise; argparse is imported to parse the flags and
the MLIR bindings when the first IR is touched, so a bad flag costs nothing.
"""

from __future__ import annotations

import sys


def _bool(text: str) -> bool:
    import argparse

    low = text.lower()
    if low in ("1", "true", "on", "yes"):
        return True
    if low in ("0", "false", "off", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got '{text}'")


_BOOL_FLAGS: set[str] = set()


def _flag(p, name, help, default=False):
    """A boolean flag as mlir-opt spells it: ``--flag`` or ``--flag=false``.

    It never takes the next argument as its value (that would swallow the
    input file); ``--flag=VALUE`` is rewritten before parsing.
    """
    import argparse

    _BOOL_FLAGS.add(name)
    dest = name.lstrip("-").replace("-", "_")
    p.add_argument(name, dest=dest, action="store_true", default=default, help=help)
    p.add_argument("--no-" + name.lstrip("-"), dest=dest, action="store_false", help=argparse.SUPPRESS)


def _expand_bool_values(argv: list[str]) -> list[str]:
    import argparse

    out = []
    for arg in argv:
        name, eq, value = arg.partition("=")
        if eq and name in _BOOL_FLAGS:
            try:
                out.append(name if _bool(value) else "--no-" + name.lstrip("-"))
            except argparse.ArgumentTypeError as e:
                raise SystemExit(f"opt-py: error: {name}: {e}") from None
            continue
        out.append(arg)
    return out


_OPT_PARSER = []  # built once: the warm server builds it before forking workers (about 3 ms a run)


def opt_parser():
    if _OPT_PARSER:
        return _OPT_PARSER[0]
    import argparse

    p = argparse.ArgumentParser(
        prog="opt-py",
        description="Run MLIR pass pipelines mixing Python and C++ (MLIR and IREE) passes.",
        epilog="Subcommands: 'opt-py compile --help' (compile with IREE, passes injected), "
        "'opt-py compare --help' (compile two ways, run both, diff the outputs; --per-dispatch finds the dispatch), "
        "'opt-py bundle --help' (compile the corpus and generated programs for a GPU, to run where it is), "
        "'opt-py check --help' (compile IREE's check tests and check every expectation).",
    )
    p.add_argument("input", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("-o", dest="output", default="-", help="output file (written only on success)")
    p.add_argument(
        "--pipeline",
        "--pass-pipeline",
        "-p",
        dest="pipeline",
        default="",
        help="textual pass pipeline, e.g. 'builtin.module(func.func(canonicalize,my-pass{x=1}))' "
        "or a bare list 'canonicalize,my-pass' nested to each pass's anchor",
    )
    p.add_argument("--list-passes", action="store_true", help="list Python and C++ passes and exit")
    p.add_argument(
        "--load-pass-plugin",
        action="append",
        default=[],
        metavar="FILE.py",
        help="import a Python file and register the passes it declares (repeatable)",
    )
    _flag(p, "--split-input-file", "split the input at '// -----' and process each chunk")
    _flag(p, "--verify-diagnostics", "check diagnostics against expected-* comments")
    _flag(p, "--mlir-print-ir-before-all", "print IR before each pass")
    _flag(p, "--mlir-print-ir-after-all", "print IR after each pass")
    _flag(p, "--mlir-print-ir-after-change", "print IR after a pass only when it changed the IR")
    _flag(p, "--mlir-print-ir-after-failure", "print IR after a pass fails")
    _flag(p, "--mlir-print-ir-module-scope", "print the whole module in IR dumps")
    _flag(p, "--mlir-timing", "report pass timing")
    _flag(p, "--mlir-pass-statistics", "report pass statistics")
    _flag(p, "--verify-each", "verify the IR after each pass (default true)", default=True)
    _flag(p, "--allow-unregistered-dialect", "allow ops of unregistered dialects")
    _flag(p, "--mlir-print-op-generic", "print ops in generic form")
    _flag(p, "--mlir-print-debuginfo", "print locations")
    _flag(p, "--mlir-print-local-scope", "print attributes and types inline, not as aliases")
    _flag(p, "--emit-bytecode", "write MLIR bytecode instead of text")
    _flag(p, "--mlir-disable-threading", "run passes on one thread")
    _flag(p, "--debug-patterns", "print each Python pattern application and reported match failure")
    _flag(p, "--debug", "print the full Python traceback of a failing Python pass")
    _OPT_PARSER.append(p)
    return p


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]](argv[1:])
    parser = opt_parser()
    args = parser.parse_args(_expand_bool_values(argv))
    from ..run.bindings import import_bindings_lean

    import_bindings_lean()
    try:
        if args.load_pass_plugin:
            from ..errors import OptPyError
            from ..pipeline.registry import load_pass_files

            try:
                load_pass_files(args.load_pass_plugin)
            except OptPyError as e:
                print(f"opt-py: error: {e}", file=sys.stderr)
                return 1
        if args.list_passes:
            return list_passes()
        return run(args)
    except KeyboardInterrupt:
        print("opt-py: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        from .output import die_of_sigpipe

        die_of_sigpipe()
        return 1


def run(args) -> int:
    import errno
    import os

    from ..errors import OptPyError
    from ..run.engine import OptOptions
    from .opt import read_input, run_opt
    from .output import on_big_stack, write_output

    opts = OptOptions(
        pipeline=args.pipeline,
        split_input_file=args.split_input_file,
        verify_diagnostics=args.verify_diagnostics,
        print_ir_before_all=args.mlir_print_ir_before_all,
        print_ir_after_all=args.mlir_print_ir_after_all,
        print_ir_after_change=args.mlir_print_ir_after_change,
        print_ir_after_failure=args.mlir_print_ir_after_failure,
        print_ir_module_scope=args.mlir_print_ir_module_scope,
        timing=args.mlir_timing,
        pass_statistics=args.mlir_pass_statistics,
        verify_each=args.verify_each,
        allow_unregistered_dialect=args.allow_unregistered_dialect,
        print_op_generic=args.mlir_print_op_generic,
        print_debuginfo=args.mlir_print_debuginfo,
        print_local_scope=args.mlir_print_local_scope,
        emit_bytecode=args.emit_bytecode,
        disable_threading=args.mlir_disable_threading,
        debug_patterns=args.debug_patterns,
        debug=args.debug,
    )
    if args.input == "-":
        try:
            if sys.stdin is None:  # closed when Python started
                raise OSError(errno.EBADF, os.strerror(errno.EBADF))
            data, display, path = sys.stdin.buffer.read(), "<stdin>", None
        except OSError as e:
            print(f"opt-py: error: cannot open input file '-': {e.strerror}", file=sys.stderr)
            return 1
    else:
        try:
            with open(args.input, "rb") as f:
                data = read_input(f, opts)
        except OSError as e:
            print(f"opt-py: error: cannot open input file '{args.input}': {e.strerror}", file=sys.stderr)
            return 1
        display = path = args.input
    try:
        result = on_big_stack(run_opt, data, display, path, opts)
    except OptPyError as e:
        print(f"opt-py: error: {e}", file=sys.stderr)
        return 1
    if not result.ok:
        return 1
    return write_output(args.output, result.output)


def list_passes() -> int:
    from ..errors import OptPyError
    from ..pipeline import registry

    try:
        return _list_passes(registry)
    except OptPyError as e:
        print(f"opt-py: error: {e}", file=sys.stderr)
        return 1


def _list_passes(registry) -> int:
    out = ["Python passes:"]
    for name, cls in registry.python_passes().items():
        out.append(f"  {name:<40} - {cls.summary}   [anchor: {cls.anchor}]")
        try:
            declared = cls.options()
        except Exception as e:  # noqa: BLE001 - a plugin's declaration bug: listed, not fatal
            out.append(f"      (options cannot be read: {type(e).__name__}: {e})")
            continue
        for cli, _field, typ, default, help in declared:
            tname = getattr(typ, "__name__", str(typ))
            out.append(f"      {cli}={tname} (default {default!r}) - {help}")
    out.append("C++ passes and pipelines (MLIR and IREE):")
    for name, summary in registry.cpp_passes():
        out.append(f"  {name:<40} - {summary}")
    print("\n".join(out))
    return 0


# --------------------------------------------------------------------------
# opt-py compile, opt-py compare
# --------------------------------------------------------------------------


def compile_parser():
    import argparse

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
    p.add_argument(
        "--inject",
        action="append",
        default=[],
        metavar="PHASE:PIPELINE",
        help="run PIPELINE after PHASE (repeatable; phases: input ... vm)",
    )
    p.add_argument(
        "--inject-codegen",
        action="append",
        default=[],
        metavar="before|after:PASS[#N]:PIPELINE",
        help="run PIPELINE inside IREE's code generation of each dispatch function, before or "
        "after its N-th (default first; #* every) run of PASS",
    )
    p.add_argument(
        "--fixes",
        default=None,
        metavar="NAME,...",
        help="--fixes: inject every opt-py fix at its documented point for the target; --fixes=NAME,...: only those",
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
    p.add_argument(
        "--load-pass-plugin",
        action="append",
        default=[],
        metavar="FILE.py",
        help="import a Python file and register the passes it declares",
    )
    p.add_argument("--debug", action="store_true", help="print tracebacks of failing Python passes")
    return p


def compare_parser():
    import argparse

    p = argparse.ArgumentParser(
        prog="opt-py compare",
        description="Compile one program two ways (A: plain IREE or --a-inject..., B: with --inject...), run both "
        "on the same inputs through the IREE runtime and report which outputs differ and by how much. "
        "Exit status: 0 same, 1 different, 2 error. Unrecognized flags go to iree-compile for both.",
    )
    p.add_argument("input", help="program (MLIR at input level)")
    p.add_argument("--function", required=True, help="function to run")
    p.add_argument(
        "--target",
        choices=["cpu", "cuda", "rocm"],
        default="cpu",
        help="cpu (llvm-cpu, local-task), cuda (sm_80) or rocm (gfx942, hip)",
    )
    p.add_argument("--inject", action="append", default=[], metavar="PHASE:PIPELINE", help="for B")
    p.add_argument("--inject-codegen", action="append", default=[], metavar="before|after:PASS:PIPELINE", help="for B")
    p.add_argument("--a-inject", action="append", default=[], metavar="PHASE:PIPELINE", help="for A (default: none)")
    p.add_argument(
        "--a-inject-codegen",
        action="append",
        default=[],
        metavar="before|after:PASS:PIPELINE",
        help="for A (default: none)",
    )
    p.add_argument(
        "--input",
        dest="inputs",
        action="append",
        default=[],
        metavar="@FILE.npy",
        help="an input (repeat in argument order); random inputs from the signature when absent",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    p.add_argument("--dynamic-size", type=int, default=7, help="extent of each dynamic dim in random inputs")
    p.add_argument("--rtol", type=float, default=None, help="override the dtype's relative tolerance")
    p.add_argument("--atol", type=float, default=None, help="override the dtype's absolute tolerance")
    p.add_argument("--load-pass-plugin", action="append", default=[], metavar="FILE.py")
    p.add_argument(
        "--per-dispatch",
        action="store_true",
        help="trace every dispatch and report the first one, in execution order, whose results differ "
        "(A vs B); when A and B are the same build, the first whose result does not reach its "
        "consumers unchanged",
    )
    p.add_argument(
        "--a-target",
        choices=["cpu", "cuda", "rocm"],
        default=None,
        help="target of A (default: --target), to compare two targets with --per-dispatch",
    )
    p.add_argument(
        "--save",
        default=None,
        metavar="DIR",
        help="with --per-dispatch: write the first differing dispatch as a program of its own "
        "(DIR/dispatch.mlir) with its inputs (.npy), to run again with opt-py compare",
    )
    return p


def compare_main(argv: list[str]) -> int:
    args, iree_flags = compare_parser().parse_known_args(argv)
    import numpy as np

    from ..errors import DeviceUnavailable, OptPyError
    from ..iree import e2e
    from ..pipeline.registry import load_pass_files

    target = e2e.TARGETS[args.target]
    if (args.save or args.a_target) and not args.per_dispatch:
        print("opt-py compare: error: --save and --a-target need --per-dispatch", file=sys.stderr)
        return 2
    try:
        load_pass_files(args.load_pass_plugin)
        for t in {args.target, args.a_target or args.target}:
            ok, why = e2e.device_available(e2e.TARGETS[t])
            if not ok:
                raise DeviceUnavailable(f"cannot run on target '{t}': {why}")
        with open(args.input) as f:
            text = f.read()
        if args.inputs:
            inputs = [np.load(a[1:] if a.startswith("@") else a) for a in args.inputs]
        else:
            inputs = e2e.random_inputs(e2e.signature(text, args.function), args.seed, args.dynamic_size)
        if args.per_dispatch:
            return _per_dispatch(args, iree_flags, inputs)
        a = e2e.compile_program(
            args.input, target, inject=args.a_inject, inject_codegen=args.a_inject_codegen, extra_flags=iree_flags
        )
        b = e2e.compile_program(
            args.input, target, inject=args.inject, inject_codegen=args.inject_codegen, extra_flags=iree_flags
        )
        side = "A"
        out_a = e2e.run_runtime(a, target, args.function, inputs)
        side = "B"
        out_b = e2e.run_runtime(b, target, args.function, inputs)
    except e2e.ModuleMisbehaved as e:  # wrong results, not an error of the comparison
        print(f"{side} is wrong: {e}\nDIFFERENT")
        return 1
    except MemoryError as e:
        print(f"opt-py compare: error: out of memory making or running the inputs: {e}", file=sys.stderr)
        return 2
    except (OptPyError, OSError, ValueError) as e:
        print(f"opt-py compare: error: {e}", file=sys.stderr)
        return 2
    diffs = e2e.compare(out_b, out_a, rtol=args.rtol, atol=args.atol)
    shapes = ", ".join("x".join(map(str, x.shape + (x.dtype,))) for x in inputs)
    print(f"inputs: {shapes} ({'given' if args.inputs else f'random, seed {args.seed}'})")
    print(e2e.format_report(diffs, "B", "A"))
    same = all(d.same for d in diffs)
    print("same" if same else "DIFFERENT")
    return 0 if same else 1


def _per_dispatch(args, iree_flags, inputs) -> int:
    """``compare --per-dispatch``: the report of iree/hunt.py; exit 1 when a dispatch differs."""
    import shlex

    from ..iree import e2e, hunt

    a = hunt.Build(
        e2e.TARGETS[args.a_target or args.target], tuple(args.a_inject), tuple(args.a_inject_codegen), tuple(iree_flags)
    )
    b = hunt.Build(e2e.TARGETS[args.target], tuple(args.inject), tuple(args.inject_codegen), tuple(iree_flags))
    try:
        result = hunt.hunt(args.input, args.function, inputs, a, b, rtol=args.rtol, atol=args.atol, save=args.save)
    except e2e.ModuleMisbehaved as e:  # wrong results, not an error of the hunt
        print(f"wrong: {e}\nDIFFERENT")
        return 1
    shapes = ", ".join("x".join(map(str, np_shape + (str(x.dtype),))) for x in inputs for np_shape in [x.shape])
    print(f"inputs: {shapes} ({'given' if args.inputs else f'random, seed {args.seed}'})")
    print("\n".join(result.lines))
    if result.rerun:
        flags = [f"--target={args.target}"] + [f"--inject={x}" for x in args.inject]
        flags += [f"--inject-codegen={x}" for x in args.inject_codegen] + [f"--a-inject={x}" for x in args.a_inject]
        flags += [f"--a-inject-codegen={x}" for x in args.a_inject_codegen]
        flags += [f"--load-pass-plugin={x}" for x in args.load_pass_plugin] + list(iree_flags)
        print("run it again: opt-py compare " + shlex.join(result.rerun + flags))
    print("DIFFERENT" if result.finding else "same")
    return 1 if result.finding else 0


def compile_main(argv: list[str]) -> int:
    # A bare --fixes means all of them; it never takes the next argument (the input) as its value.
    argv = ["--fixes=all" if a == "--fixes" else a for a in argv]
    args, iree_flags = compile_parser().parse_known_args(argv)
    from ..run.bindings import import_bindings_lean

    import_bindings_lean()  # no iree.compiler.tools, no numpy, unless a pass needs them
    from ..errors import OptPyError
    from ..iree import fixes
    from ..iree.codegen import CodegenInjection
    from ..iree.phases import Injection, compile_with_injections
    from ..pipeline.registry import load_pass_files
    from ..run.engine import OptOptions
    from .output import write_output

    if args.list_fixes:
        print(fixes.describe(iree_flags))
        return 0
    if args.input is None:
        print("opt-py: error: an input program is required", file=sys.stderr)
        return 1
    stray = [f for f in iree_flags if not f.startswith("-")]
    if stray:
        print(
            f"opt-py: error: unexpected argument(s) {' '.join(stray)} (write iree-compile flags as --flag=value)",
            file=sys.stderr,
        )
        return 1
    try:
        load_pass_files(args.load_pass_plugin)
        if args.output is None and not args.list_codegen_passes:
            print("opt-py: error: -o OUTPUT is required", file=sys.stderr)
            return 1
        injections = [Injection.parse(s) for s in args.inject]
        codegen = [CodegenInjection.parse(s) for s in args.inject_codegen]
        if args.fixes is not None:
            chosen = fixes.select(args.fixes)
            fix_phases, fix_codegen = fixes.injections(chosen, iree_flags, args.compile_to)
            every_phase, every_codegen = fixes.injections(chosen, iree_flags)
            later = [j.phase for j in every_phase if j not in fix_phases]
            later += ["codegen"] if len(every_codegen) > len(fix_codegen) else []
            if later:
                print(
                    f"opt-py: note: --compile-to={args.compile_to} stops before the fixes at "
                    f"{', '.join(later)}: they are left out",
                    file=sys.stderr,
                )
            injections, codegen = fix_phases + injections, fix_codegen + codegen
        result = compile_with_injections(
            args.input,
            iree_flags,
            injections,
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


def bundle_main(argv: list[str]) -> int:
    """``opt-py bundle``: the bundle writer of iree/, given the program generators of cases/."""
    from ..cases import generators
    from ..iree.bundle import bundle_main as write

    return write(argv, generators())


def check_main(argv: list[str]) -> int:
    """``opt-py check``: IREE's check tests compiled and run (iree/check.py)."""
    from ..iree.check import check_main as check

    return check(argv)


SUBCOMMANDS = {"compile": compile_main, "compare": compare_main, "bundle": bundle_main, "check": check_main}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

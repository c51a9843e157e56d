"""``opt-py compare``: compile one program two ways, run both through the IREE runtime, diff the outputs.

With ``--per-dispatch`` it traces every dispatch and reports the first whose
results differ (``execution/hunt.py``). Exit status: 0 same, 1 different, 2 error.
"""

from __future__ import annotations

import sys


def compare_parser():
    import argparse

    from . import flags

    p = argparse.ArgumentParser(
        prog="opt-py compare",
        description="Compile one program two ways (A: plain IREE or --a-inject..., B: with --inject...), run both "
        "on the same inputs through the IREE runtime and report which outputs differ and by how much. "
        "Exit status: 0 same, 1 different, 2 error. Unrecognized flags go to iree-compile for both.",
    )
    p.add_argument("input", help="program (MLIR at input level)")
    p.add_argument("--function", required=True, help="function to run")
    flags.add_target(p)
    flags.add_inject(p, help="for B")
    flags.add_inject_codegen(p, help="for B")
    flags.add_inject(p, "--a-inject", help="for A (default: none)")
    flags.add_inject_codegen(p, "--a-inject-codegen", help="for A (default: none)")
    _add_inputs_and_hunt(p)
    return p


def _add_inputs_and_hunt(p) -> None:
    from . import flags

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
    flags.add_load_pass_plugin(p)
    p.add_argument(
        "--per-dispatch",
        action="store_true",
        help="trace every dispatch and report the first one, in execution order, whose results differ "
        "(A vs B); when A and B are the same build, the first whose result does not reach its "
        "consumers unchanged",
    )
    flags.add_target(
        p,
        "--a-target",
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


def compare_main(argv: list[str]) -> int:
    args, iree_flags = compare_parser().parse_known_args(argv)
    import numpy as np

    from ..errors import DeviceUnavailable, OptPyError
    from ..execution import e2e
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
    """``compare --per-dispatch``: the report of execution/hunt.py; exit 1 when a dispatch differs."""
    import shlex

    from ..execution import e2e, hunt

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

"""The ``opt-py`` command: mlir-opt's conventions, Python passes included.

    opt-py [flags] [INPUT|-] [-o OUT]      run a pipeline (like mlir-opt)
    opt-py compile INPUT -o OUT.vmfb ...  compile with IREE, passes injected
    opt-py compare INPUT --function F ... compile two ways, run both, diff the outputs
    opt-py check FILE.mlir...             compile IREE check tests, run them, check every expectation
    opt-py fuzz --out DIR ...             differential fuzzing: stock vs --fixes vs a reference, reduced, bucketed

Nothing is imported up front: the command's entry point is ``client.main``,
which hands the run to the warm server when one is up (``server.py``) and
calls this ``main`` otherwise; argparse is imported to parse the flags and
the MLIR bindings when the first IR is touched, so a bad flag costs nothing.
The mlir-opt flags are derived from ``OptOptions`` (``run/opt_options.py``).
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


def _expand_bool_values(argv: list[str]) -> list[str]:
    """``--flag=VALUE`` of a boolean flag as ``--flag`` or ``--no-flag``.

    A boolean flag never takes the next argument as its value (that would
    swallow the input file), so its value is only ever written with ``=``.
    """
    import argparse

    from ..run.opt_options import boolean_flags

    flags = boolean_flags()
    out = []
    for arg in argv:
        name, eq, value = arg.partition("=")
        if eq and name in flags:
            try:
                out.append(name if _bool(value) else "--no-" + name.lstrip("-"))
            except argparse.ArgumentTypeError as e:
                raise SystemExit(f"opt-py: error: {name}: {e}") from None
            continue
        out.append(arg)
    return out


_OPT_PARSER = []  # built once: the warm server builds it before forking workers


def opt_parser():
    if not _OPT_PARSER:
        _OPT_PARSER.append(_build_opt_parser())
    return _OPT_PARSER[0]


def _build_opt_parser():
    import argparse

    p = argparse.ArgumentParser(
        prog="opt-py",
        description="Run MLIR pass pipelines mixing Python and C++ (MLIR and IREE) passes.",
        epilog="Subcommands: 'opt-py compile --help' (compile with IREE, passes injected), "
        "'opt-py compare --help' (compile two ways, run both, diff the outputs; --per-dispatch finds the dispatch), "
        "'opt-py bundle --help' (compile the corpus and generated programs for a GPU, to run where it is), "
        "'opt-py check --help' (compile IREE's check tests and check every expectation), "
        "'opt-py fuzz --help' (random programs, stock vs --fixes vs a reference; failures reduced and bucketed).",
    )
    p.add_argument("input", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("-o", dest="output", default="-", help="output file (written only on success)")
    import dataclasses

    from ..run.opt_options import OptOptions
    from .flags import add_load_pass_plugin

    pipeline, *flags = dataclasses.fields(OptOptions)
    _add_run_option(p, pipeline)
    p.add_argument("--list-passes", action="store_true", help="list Python and C++ passes and exit")
    add_load_pass_plugin(p)
    for f in flags:
        _add_run_option(p, f)
    return p


def _add_run_option(p, f) -> None:
    """The flag of one ``OptOptions`` field, stored under the field's name."""
    import argparse

    flags, help = f.metadata["flags"], f.metadata["help"]
    if not isinstance(f.default, bool):
        p.add_argument(*flags, dest=f.name, default=f.default, help=help, metavar=f.metadata["metavar"])
        return
    p.add_argument(*flags, dest=f.name, action="store_true", default=f.default, help=help)
    p.add_argument("--no-" + flags[0].lstrip("-"), dest=f.name, action="store_false", help=argparse.SUPPRESS)


def run_options(args):
    """The ``OptOptions`` the parsed flags ask for."""
    import dataclasses

    from ..run.opt_options import OptOptions

    return OptOptions(**{f.name: getattr(args, f.name) for f in dataclasses.fields(OptOptions)})


def main(argv: list[str] | None = None) -> int:
    """Every subcommand ends as mlir-opt does: interrupted is 130, a closed stdout is death by SIGPIPE."""
    if argv is None:
        argv = sys.argv[1:]
    try:
        if argv and argv[0] in SUBCOMMANDS:
            return SUBCOMMANDS[argv[0]](argv[1:])
        return _opt_main(argv)
    except KeyboardInterrupt:
        print("opt-py: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        from .output import die_of_sigpipe

        die_of_sigpipe()
        return 1


def _opt_main(argv: list[str]) -> int:
    args = opt_parser().parse_args(_expand_bool_values(argv))
    from ..run.bindings import import_bindings_lean

    import_bindings_lean()
    if args.load_pass_plugin and not _load_plugins(args.load_pass_plugin):
        return 1
    if args.list_passes:
        return list_passes()
    return run(args)


def _load_plugins(files: list[str]) -> bool:
    from ..errors import OptPyError
    from ..pipeline.registry import load_pass_files

    try:
        load_pass_files(files)
    except OptPyError as e:
        print(f"opt-py: error: {e}", file=sys.stderr)
        return False
    return True


def run(args) -> int:
    """The mlir-opt job: read the input, run it (on a big stack), write the output."""
    from ..errors import OptPyError
    from .opt import run_opt
    from .output import on_big_stack, write_output

    opts = run_options(args)
    read = _read_input(args.input, opts)
    if read is None:
        return 1
    data, display, path = read
    try:
        result = on_big_stack(run_opt, data, display, path, opts)
    except OptPyError as e:
        print(f"opt-py: error: {e}", file=sys.stderr)
        return 1
    if not result.ok:
        return 1
    return write_output(args.output, result.output)


def _read_input(name: str, opts):
    """(bytes or None, display name, path or None) of the input, or None after saying why not."""
    import errno
    import os

    from .opt import read_input

    if name == "-":
        try:
            if sys.stdin is None:  # closed when Python started
                raise OSError(errno.EBADF, os.strerror(errno.EBADF))
            return sys.stdin.buffer.read(), "<stdin>", None
        except OSError as e:
            print(f"opt-py: error: cannot open input file '-': {e.strerror}", file=sys.stderr)
            return None
    try:
        with open(name, "rb") as f:
            return read_input(f, opts), name, name
    except OSError as e:
        print(f"opt-py: error: cannot open input file '{name}': {e.strerror}", file=sys.stderr)
        return None


def list_passes() -> int:
    from ..errors import OptPyError
    from ..pipeline import registry

    try:
        return _list_passes(registry)
    except OptPyError as e:
        print(f"opt-py: error: {e}", file=sys.stderr)
        return 1


def _list_passes(registry) -> int:
    """Each Python pass with its options (a choice shows its values: ``form=auto|rank|...``), then C++'s."""
    from ..authoring.declaration import format_option_value, is_choice, option_type_name

    out = ["Python passes:"]
    for name, cls in registry.python_passes().items():
        out.append(f"  {name:<40} - {cls.summary}   [anchor: {cls.anchor}]")
        try:
            declared = cls.options()
        except Exception as e:  # noqa: BLE001 - a plugin's declaration bug: listed, not fatal
            out.append(f"      (options cannot be read: {type(e).__name__}: {e})")
            continue
        for cli, _field, typ, default, help in declared:
            shown = repr(format_option_value(default)) if is_choice(typ) else repr(default)
            out.append(f"      {cli}={option_type_name(typ)} (default {shown}) - {help}")
    out.append("C++ passes and pipelines (MLIR and IREE):")
    for name, summary in registry.cpp_passes():
        out.append(f"  {name:<40} - {summary}")
    print("\n".join(out))
    return 0


# --------------------------------------------------------------------------
# the subcommands: their arguments and work are in tool/<subcommand>.py
# --------------------------------------------------------------------------


def compile_main(argv: list[str]) -> int:
    from .compile import compile_main as main

    return main(argv)


def compare_main(argv: list[str]) -> int:
    from .compare import compare_main as main

    return main(argv)


def bundle_main(argv: list[str]) -> int:
    """``opt-py bundle`` (tool/bundle.py), handed the program generators of cases/ for ``--generator``."""
    from ..cases import generators
    from .bundle import bundle_main as main

    return main(argv, generators())


def cache_main(argv: list[str]) -> int:
    """``opt-py cache``: the compiled-module cache, shown or cleared (tool/cache.py)."""
    from .cache import cache_main as main

    return main(argv)


def check_main(argv: list[str]) -> int:
    """``opt-py check``: IREE's check tests compiled and run (tool/check.py, execution/check_tests.py)."""
    from .check import check_main as main

    return main(argv)


def fuzz_main(argv: list[str]) -> int:
    """``opt-py fuzz``: a differential fuzzing campaign (fuzz/campaign.py)."""
    from .fuzz import fuzz_main as main

    return main(argv)


SUBCOMMANDS = {
    "compile": compile_main,
    "compare": compare_main,
    "bundle": bundle_main,
    "check": check_main,
    "fuzz": fuzz_main,
    "cache": cache_main,
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

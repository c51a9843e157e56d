"""The ``opt-py`` command: mlir-opt's conventions, Python passes included.

    opt-py [flags] [INPUT|-] [-o OUT]      run a pipeline (like mlir-opt)
    opt-py compile INPUT -o OUT.vmfb ...  compile with IREE, passes injected
    opt-py compare INPUT --function F ... compile two ways, run both, diff the outputs

Only argparse is imported up front: the MLIR bindings are imported when the
first IR is touched, so a bad flag costs nothing.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import tempfile


def _bool(text: str) -> bool:
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
    _BOOL_FLAGS.add(name)
    dest = name.lstrip("-").replace("-", "_")
    p.add_argument(name, dest=dest, action="store_true", default=default, help=help)
    p.add_argument("--no-" + name.lstrip("-"), dest=dest, action="store_false", help=argparse.SUPPRESS)


def _expand_bool_values(argv: list[str]) -> list[str]:
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


def opt_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="opt-py",
        description="Run MLIR pass pipelines mixing Python and C++ (MLIR and IREE) passes.",
        epilog="Subcommands: 'opt-py compile --help' (compile with IREE, passes injected), "
        "'opt-py compare --help' (compile two ways, run both, diff the outputs).",
    )
    p.add_argument("input", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument("-o", dest="output", default="-", help="output file (written only on success)")
    p.add_argument("--pipeline", "--pass-pipeline", "-p", dest="pipeline", default="",
                   help="textual pass pipeline, e.g. 'builtin.module(func.func(canonicalize,my-pass{x=1}))' "
                        "or a bare list 'canonicalize,my-pass' nested to each pass's anchor")
    p.add_argument("--list-passes", action="store_true", help="list Python and C++ passes and exit")
    p.add_argument("--load-pass-plugin", action="append", default=[], metavar="FILE.py",
                   help="import a Python file and register the passes it declares (repeatable)")
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
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("compile", "compare"):
        from . import iree_cli

        return iree_cli.main(argv[0], argv[1:])
    parser = opt_parser()
    args = parser.parse_args(_expand_bool_values(argv))
    try:
        if args.load_pass_plugin:
            from .api import OptPyError
            from .registry import load_pass_file

            try:
                for path in args.load_pass_plugin:
                    load_pass_file(path)
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
        return 1


def run(args) -> int:
    from .api import OptPyError
    from .driver import OptOptions, run_opt

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
        data, display, path = sys.stdin.buffer.read(), "<stdin>", None
    else:
        try:
            with open(args.input, "rb") as f:
                data = f.read()
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


def on_big_stack(fn, *args):
    """Run ``fn`` on a thread with a 512 MiB stack (reserved, not committed).

    MLIR's parser, verifier and printer recurse once per region level; on the
    main thread's 8 MiB stack a few thousand nested regions are a segfault.
    """
    import threading

    result, error = [], []

    def target():
        # Python recursion over nested ops (pipeline nesting, say) follows the
        # IR's depth, which the driver bounds at MAX_NESTING; the stack holds it.
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 50_000))
        try:
            result.append(fn(*args))
        except BaseException as e:  # noqa: BLE001 - re-raised on the calling thread
            error.append(e)

    old = threading.stack_size()
    threading.stack_size(512 * 1024 * 1024)
    try:
        t = threading.Thread(target=target, name="opt-py")
        t.start()
    finally:
        threading.stack_size(old)
    t.join()
    if error:
        raise error[0]
    return result[0]


def write_output(target: str, data: bytes) -> int:
    """Write all or nothing: a temp file beside the target, renamed into place.

    A special file (``/dev/null``, a FIFO, ``/dev/stdout``) is written as it
    is, never replaced; a symlink is written through; a replaced file keeps
    its mode, and a new one gets the umask's. No temp file outlives a failure.
    """
    if target == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return 0

    def fail(reason) -> int:
        print(f"opt-py: error: cannot write output file '{target}': {reason}", file=sys.stderr)
        return 1

    if not target:
        return fail("empty path")
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        return fail(e.strerror)
    if st is not None and stat.S_ISDIR(st.st_mode):
        return fail("is a directory")
    try:
        if st is not None and not stat.S_ISREG(st.st_mode):
            with open(target, "wb") as f:
                f.write(data)
            return 0
        real = os.path.realpath(target)
        try:
            fd, tmp = tempfile.mkstemp(prefix=".opt-py-", dir=os.path.dirname(real))
        except PermissionError:
            if st is None or not os.access(real, os.W_OK):
                raise
            with open(real, "wb") as f:  # a writable file in a directory we may not create in
                f.write(data)
            return 0
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
            os.replace(tmp, real)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError as e:
        return fail(e.strerror or str(e))
    return 0


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def list_passes() -> int:
    from .api import OptPyError
    from . import registry

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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``opt-py bundle``: its arguments; the bundle is written by ``execution/bundle_write.py``.

The random program generators ``--generator NAME=N`` may name are passed in
(``bundle_main(argv, generators)``: the command passes
``opt_py.cases.generators()``).
"""

from __future__ import annotations

import os
import sys


def bundle_main(argv=None, generators: dict | None = None) -> int:
    """``opt-py bundle``: write a bundle (the model corpus, generated programs) for a target.

    ``generators``: the random program generators ``--generator NAME=N`` may name.
    """
    from ..errors import OptPyError
    from ..execution.bundle_write import write_bundle

    generators = generators or {}
    p = bundle_parser(generators)
    a = p.parse_args(argv)
    variants = _variants(a)
    if not variants:
        p.error("no variants: give --inject or drop --no-stock / --no-fixes")
    if a.fixes_minus_one and a.no_fixes:
        p.error("--fixes-minus-one leaves one fix out of the fixes variant: drop --no-fixes")
    try:
        cases = _cases(a, generators)
        manifest = write_bundle(
            a.output,
            cases,
            target=a.target,
            variants=variants,
            minus_one_fixes=a.fixes_minus_one,
            log=lambda s: print(s, file=sys.stderr, flush=True),
        )
    except OptPyError as e:
        print(f"opt-py: error: {e}", file=sys.stderr)
        return 1
    modules = [m for c in manifest["cases"] for m in c["modules"].values()]
    failed = sum("compile_error" in m for m in modules)
    minus = sum("leaves_out" in m for m in modules)
    print(
        f"wrote {a.output}: {len(manifest['cases'])} cases x {len(variants)} variants"
        f"{f' and {minus} fixes-minus-one modules' if a.fixes_minus_one else ''} for {a.target} "
        f"({failed} did not compile); run it with: python {os.path.join(a.output, 'run_bundle.py')} "
        f"{a.output} --device {manifest['device']}"
    )
    return 0


def bundle_parser(generators):
    import argparse

    from ..execution import bundle_write
    from . import flags

    p = argparse.ArgumentParser(prog="opt-py bundle", description=bundle_write.__doc__.splitlines()[0])
    p.add_argument("-o", "--output", required=True, help="bundle directory to write")
    flags.add_target(p, default="cuda", help=None)
    p.add_argument("--case", action="append", default=None, help="a corpus model to include (repeatable; default all)")
    p.add_argument("--family", action="append", default=None, help="include the models of this family (repeatable)")
    p.add_argument(
        "--corpus",
        action="append",
        default=None,
        metavar="DIR",
        help=f"model corpus directory (repeatable; default: ${bundle_write.CORPUS_ENV}, else "
        f"{bundle_write.DEFAULT_CORPUS} under the current directory)",
    )
    p.add_argument("--no-corpus", action="store_true", help="leave out the model corpus")
    p.add_argument(
        "--generator",
        action="append",
        default=[],
        metavar="NAME=N",
        help=f"add N random programs of a generator ({', '.join(generators) or 'none here'}; repeatable)",
    )
    p.add_argument("--seed", type=int, default=0, help="first seed of the generated programs")
    flags.add_inject(p, help="add a variant compiled with these injections (repeatable, as opt-py compile)")
    flags.add_inject_codegen(p, help=None)
    p.add_argument("--variant-name", default="opt-py", help="name of the injected variant (default: opt-py)")
    p.add_argument("--no-fixes", action="store_true", help="leave out the 'fixes' variant (opt-py compile --fixes)")
    p.add_argument("--no-stock", action="store_true", help="leave out the stock variant")
    p.add_argument(
        "--fixes-minus-one",
        action="store_true",
        help="also a variant fixes-minus-NAME per case for each fix that rewrote something in its 'fixes' "
        "compile: --fixes without that one, to find what each costs",
    )
    return p


def _variants(a) -> list:
    from ..execution.bundle_write import FIXES, STOCK, Variant

    variants = [] if a.no_stock else [STOCK]
    if not a.no_fixes:
        variants.append(FIXES)
    if a.inject or a.inject_codegen:
        variants.append(Variant(a.variant_name, tuple(a.inject), tuple(a.inject_codegen)))
    return variants


def _cases(a, generators) -> list:
    from ..errors import OptPyError
    from ..execution.bundle_write import corpus_cases, generator_cases

    cases = [] if a.no_corpus else corpus_cases(a.corpus, a.case, a.family)
    for spec in a.generator:
        name, _, n = spec.partition("=")
        if not n.isdigit():
            raise OptPyError(f"--generator expects NAME=N, got '{spec}'")
        if name not in generators:
            raise OptPyError(f"no generator '{name}' (generators: {', '.join(generators) or 'none'})")
        cases += generator_cases(name, generators[name], int(n), a.seed)
    if not cases:
        raise OptPyError("no cases selected")
    return cases

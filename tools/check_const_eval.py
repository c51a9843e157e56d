"""opt-py's const-eval against IREE's on the real-model corpora: the same module, byte for byte.

Per model (test/models, test/library_models), ``opt-py compile --fixes`` as
a user runs it, twice in this process: with IREE's own const-eval JIT (the
fixes cannot reach it) and with opt-py's (iree/const_eval.py: the fixes
inside). Where no fix rewrote anything in opt-py's nested compile the two
modules must be identical; where one did, opt-py's const-eval is run once
more with nothing injected in its nested compile, and that module must be
identical to IREE's. Also reported: how many initializers were evaluated,
which fixes rewrote what inside, the notes of initializers left to run time,
and each compile's wall time.

    python tools/check_const_eval.py [--target cpu|cuda] [--models a,b]
"""

import argparse
import sys

from opt_py.corpus.const_eval_check import TARGETS, compare, models


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", choices=sorted(TARGETS), default="cpu")
    ap.add_argument("--models", default="", help="comma-separated models (default: both corpora)")
    args = ap.parse_args()
    print(f"command: python tools/check_const_eval.py {' '.join(sys.argv[1:])}")
    print("\n| model | evaluated | fixes inside | identical | IREE's const-eval | opt-py's |")
    print("| --- | ---: | --- | --- | ---: | ---: |")
    bad = 0
    for path in models(args.models):
        v = compare(path, TARGETS[args.target])
        if not v.compiled:
            print(f"| {v.model} | - | - | (--fixes fails: {v.notes[0][:80] if v.notes else ''}) | | |", flush=True)
            continue
        bad += not v.faithful()
        same = "yes" if v.identical else "only in unwritten bytes" if v.faithful() else "**no**"
        print(
            f"| {v.model} | {v.evaluated} | {', '.join(v.inside) or '-'} | {same} "
            f"| {v.seconds[0]:.1f} s | {v.seconds[1]:.1f} s |",
            flush=True,
        )
        for note in v.notes:
            print(f"    {note}", flush=True)
    print(f"\n{bad} model(s) not identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

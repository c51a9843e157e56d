"""The command line of the corpus exporters (tools/export_models.py, tools/export_library_models.py).

Both take the same options: model names (default: all), ``-o/--out`` for the
output root, ``--list`` to list the models; an unknown name is a usage error,
and each export says on stderr how many inputs and outputs it wrote. Written
once here so that the two commands cannot drift apart. Needs no torch.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the checkout


def main(
    argv: Sequence[str] | None,
    *,
    description: str,
    specs: list,
    export: Callable[[object, str], dict],
    out: str,
    widths: tuple[int, int],
) -> int:
    """Export the ``specs`` that ``argv`` names (each has ``name``, ``family``, ``summary``) with
    ``export(spec, out_root)``, under ``out`` unless ``-o`` says otherwise; ``widths`` are the
    ``--list`` columns of the name and the family."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("names", nargs="*", help="models to export (default: all)")
    p.add_argument("-o", "--out", default=out, help=f"output root (default: {os.path.relpath(out, ROOT)})")
    p.add_argument("--list", action="store_true", help="list the models and exit")
    a = p.parse_args(argv)
    if a.list:
        name_width, family_width = widths
        for s in specs:
            print(f"{s.name:{name_width}} {s.family:{family_width}} {s.summary}")
        return 0
    known = {s.name: s for s in specs}
    unknown = [n for n in a.names if n not in known]
    if unknown:
        p.error(f"unknown models: {', '.join(unknown)}")
    for s in [known[n] for n in a.names] if a.names else specs:
        m = export(s, a.out)
        print(f"{s.name}: {len(m['inputs'])} inputs, {len(m['outputs'])} outputs", file=sys.stderr)
    return 0

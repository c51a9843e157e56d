"""The library-model corpus's results table: stock, front door and ``--fixes`` per model and target.

Per model of test/library_models (or those named), as docs/reports/library-models.md's results table
gives them: stock iree-compile (``opt-py compile`` with nothing injected: stock's bytes), the "front door"
(stock after the first three torch-level fixes at ``start``) on llvm-cpu where stock fails there, and ``opt-py compile --fixes``;
llvm-cpu modules run and compared with PyTorch's outputs (the manifest's tolerance; the cell gives the
max |IREE - PyTorch|), cuda sm_80 and rocm gfx942 compiled only. A failure gives IREE's first error line.

    python tools/library_models_results.py [MODEL ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "library_models"
FRONT_DOOR = ("start:torch-decompose-diff,torch-and-to-bitwise-and,torch-topk-unsorted-as-sorted",)


def _load(d: Path):
    m = json.loads((d / "manifest.json").read_text())
    inputs = [np.load(d / f"input{i}.npy") for i in range(len(m["inputs"]))]
    expected = [np.load(d / f"expected{i}.npy") for i in range(len(m["outputs"]))]
    return m, inputs, expected


def cell(d: Path, target_name: str, inject=(), fixes: bool = False) -> str:
    """'ok (max diff)', '**wrong** (max diff)', 'compiles' or 'fails: <first error line>'."""
    from opt_py.errors import OptPyError
    from opt_py.execution import e2e

    m, inputs, expected = _load(d)
    target = e2e.TARGETS[target_name]
    try:  # --fixes as opt-py compile runs them (guarded, held-back ones on their failure, const-eval inside)
        vmfb = e2e.compile_program(str(d / "model.mlir"), target, inject=inject, fixes="all" if fixes else None)
    except OptPyError as e:
        errors = [line for line in str(e).splitlines() if "error:" in line]
        return "fails: " + (errors[0].split("error:", 1)[1].strip() if errors else str(e).splitlines()[0])[:160]
    if target_name != "cpu":
        return "compiles"
    outs = e2e.run_runtime(vmfb, target, m["function"], inputs)
    tol = m["tolerance"]
    diffs = e2e.compare(outs, expected, rtol=tol["rtol"], atol=tol["atol"])
    worst = max(float(np.max(np.abs(o.astype(np.float64) - x.astype(np.float64)))) for o, x in zip(outs, expected))
    return f"{'ok' if all(x.same for x in diffs) else '**wrong**'} ({worst:.2g})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*", help="models (default: all)")
    a = ap.parse_args(argv)
    names = a.models or sorted(p.parent.name for p in CORPUS.glob("*/manifest.json"))
    print("command: python tools/library_models_results.py " + " ".join(a.models))
    print(
        "| model | stock llvm-cpu | stock cuda | stock rocm | front door llvm-cpu | --fixes llvm-cpu | --fixes cuda "
        "| --fixes rocm |"
    )
    for n in names:
        d = CORPUS / n
        row = [cell(d, t) for t in ("cpu", "cuda", "rocm")]
        row.append(cell(d, "cpu", inject=FRONT_DOOR) if row[0].startswith("fails") else "as stock")
        row += [cell(d, t, fixes=True) for t in ("cpu", "cuda", "rocm")]
        print(f"| {n} | " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

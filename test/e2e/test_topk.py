"""sort-drop-unused-results end to end: top-k compiles for GPUs and is right on CPU.

CI runs a fixed sample of the matrix in topk.py; tools/bench_topk.py runs all
of it and counts how many variants compile for each GPU target with and
without the pass.
"""

import numpy as np
import pytest
import topk

from opt_py import e2e

PASS = ("executable-sources:sort-drop-unused-results",)

SAMPLE = [
    topk.Variant("indices", 8, 64, "f32", 4, "desc"),
    topk.Variant("values", 1, 8, "f16", None, "asc"),
    topk.Variant("both", 1024, 1024, "i32", 4, "desc"),
    topk.Variant("indices", 32, 64, "i32", None, "asc"),
    topk.Variant("indices", 1, 1024, "f16", 4, "asc"),
    topk.Variant("both", 4, 8, "f32", None, "desc"),
]


def _compile(tmp_path, v, target, inject):
    path = tmp_path / f"{v.name}.mlir"
    path.write_text(topk.program(v))
    return e2e.compile_program(str(path), target, inject=inject)


@pytest.mark.parametrize("v", SAMPLE, ids=[v.name for v in SAMPLE])
def test_topk_matches_numpy(v, run_target, tmp_path):
    x = topk.make_input(v, np.random.default_rng(1))
    for inject in ((), PASS):
        vmfb = _compile(tmp_path, v, run_target, inject)
        for runner in ("cli", "runtime"):
            outs = (e2e.run_cli(vmfb, run_target, "topk", [x], 2 if v.outputs == "both" else 1)
                    if runner == "cli" else e2e.run_runtime(vmfb, run_target, "topk", [x]))
            problems = topk.check(v, x, outs)
            assert not problems, f"{'with' if inject else 'without'} the pass, {runner}: {problems}"


@pytest.mark.parametrize("v", SAMPLE[:4], ids=[v.name for v in SAMPLE[:4]])
def test_topk_compiles_for_gpus_with_the_pass(v, gpu_compile_target, tmp_path):
    assert len(_compile(tmp_path, v, gpu_compile_target, PASS)) > 0


def test_stock_iree_fails_where_the_pass_helps(tmp_path):
    """The bug is real in this IREE: indices-only top-k fails for cuda without the pass."""
    v = SAMPLE[0]
    with pytest.raises(Exception, match="failed to bufferize op"):
        _compile(tmp_path, v, e2e.TARGETS["cuda"], ())
    assert len(_compile(tmp_path, v, e2e.TARGETS["cuda"], PASS)) > 0

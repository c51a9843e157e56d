"""The real-model corpus through stock IREE: PyTorch programs exported with
iree-turbine (python/corpus/models.py), compiled from their torch-dialect MLIR,
run on CPU and compared with PyTorch's outputs; compiled for cuda sm_80 and
rocm gfx942 (run there too where such a device is present).

Stock failures are pinned as such from each manifest's "known" entry:
``"cpu": "wrong"`` asserts that the CPU numbers still differ,
``"<target>": "compile-error: <text>"`` that compiling still fails with
<text>. When IREE fixes one, its test fails: update the manifest.

Needs only iree-compiler/runtime and numpy; torch is needed only to export.
"""

import os
import re

import numpy as np
import pytest
from model_corpus import ROOT, all_models, assert_same_export
from opt_py import OptPyError
from opt_py.execution import e2e

MODELS = all_models()
IDS = [m.name for m in MODELS]
FAMILIES = {"topk", "softmax", "groupnorm", "attention", "scatter", "conv_grad", "gather", "model"}
MAX_FILE_BYTES = 2 * 1024 * 1024


def _params(target):
    return [pytest.param(m, id=m.name, marks=[pytest.mark.slow] if m.slow(target) else []) for m in MODELS]


def _stock_params(target):
    """As _params, and slow where the manifest pins nothing for stock on ``target``: such a run
    re-proves IREE right and tests no opt-py code; the pinned failures stay in the default run."""
    return [
        pytest.param(m, id=m.name, marks=[pytest.mark.slow] if m.slow(target) or not m.known(target) else [])
        for m in MODELS
    ]


def _mismatches(model, outs):
    tol = model.manifest["tolerance"]
    diffs = e2e.compare(outs, model.expected(), rtol=tol["rtol"], atol=tol["atol"])
    return [d for d in diffs if not d.same]


def _expect_compile(compiled, model, target):
    """The module, or (when the manifest pins a compile error) None after
    checking that the error is still there."""
    known = model.known(target) or ""
    if known.startswith("compile-error:"):
        text = known.split(":", 1)[1].strip()
        with pytest.raises(OptPyError, match=re.escape(text)):
            compiled.get(model, target)
        return None
    return compiled.get(model, target)


def _check_numbers(model, outs, key):
    bad = _mismatches(model, outs)
    if model.known(key) == "wrong":
        assert bad, f"{model.name}: stock IREE is pinned as wrong on {key} but now matches PyTorch: update the manifest"
    else:
        assert not bad, f"{model.name} on {key}:\n" + e2e.format_report(bad, "IREE", "PyTorch")


# --------------------------------------------------------------------------
# The corpus itself
# --------------------------------------------------------------------------


def test_corpus_covers_every_family():
    assert {m.manifest["family"] for m in MODELS} == FAMILIES
    assert len(MODELS) >= 19


@pytest.mark.parametrize("model", MODELS, ids=IDS)
def test_corpus_files_match_manifest(model):
    m = model.manifest
    assert m["name"] == model.name
    assert f"func.func @{m['function']}(" in model.path.read_text()
    for spec, a in zip(m["inputs"], model.inputs()):
        assert (list(a.shape), str(a.dtype)) == (spec["shape"], spec["dtype"])
    for spec, a in zip(m["outputs"], model.expected()):
        assert (list(a.shape), str(a.dtype)) == (spec["shape"], spec["dtype"])
    for f in model.dir.iterdir():
        assert f.stat().st_size <= MAX_FILE_BYTES, f"{f.name} is over 2 MB"
    for key, status in m.get("known", {}).items():
        assert key in ("cpu", "cuda", "rocm", "cuda-run", "rocm-run"), key
        assert status == "wrong" or status.startswith("compile-error: "), status


@pytest.mark.slow
def test_export_is_reproducible(tmp_path):
    """Re-exporting a model from its seed gives the committed files (``assert_same_export``)."""
    pytest.importorskip("iree.turbine", reason="exporting needs the `models` extra (torch, iree-turbine)")
    from opt_py.corpus import models as mod

    assert sorted(s.name for s in mod.SPECS) == sorted(IDS)
    for name in ("softmax_mul", "moe_router"):
        mod.export(next(s for s in mod.SPECS if s.name == name), str(tmp_path))
        assert_same_export(tmp_path / name, ROOT / name, hand_kept=("known", "slow"))


# --------------------------------------------------------------------------
# CPU: compile, run both ways, compare with PyTorch
# --------------------------------------------------------------------------


@pytest.mark.parametrize("model", _stock_params("cpu"))
def test_cpu_runtime(model, compiled):
    vmfb = _expect_compile(compiled, model, "cpu")
    if vmfb is None:
        return
    try:
        outs = e2e.run_runtime(vmfb, e2e.TARGETS["cpu"], model.function, model.inputs())
    except e2e.ModuleMisbehaved as e:  # results that change between two calls: wrong, as the manifest must say
        assert model.known("cpu") == "wrong", f"{model.name}: {e}"
        return
    _check_numbers(model, outs, "cpu")


@pytest.mark.parametrize("model", _params("cpu"))
def test_cpu_cli(model, compiled):
    """The same module through iree-run-module with .npy files in and out."""
    vmfb = _expect_compile(compiled, model, "cpu")
    if vmfb is None:
        return
    outs = e2e.run_cli(
        vmfb, e2e.TARGETS["cpu"], model.function, model.inputs(), len(model.manifest["outputs"]), timeout=120
    )
    _check_numbers(model, outs, "cpu")


# --------------------------------------------------------------------------
# GPUs: compile always, run where the device is present
# --------------------------------------------------------------------------


@pytest.mark.parametrize("model", _stock_params("cuda"))
def test_compiles_for_cuda(model, compiled):
    vmfb = _expect_compile(compiled, model, "cuda")
    assert vmfb is None or len(vmfb) > 0


@pytest.mark.parametrize("model", _stock_params("rocm"))
def test_compiles_for_rocm(model, compiled):
    vmfb = _expect_compile(compiled, model, "rocm")
    assert vmfb is None or len(vmfb) > 0


@pytest.mark.parametrize("target", ["cuda", "rocm"])
@pytest.mark.parametrize("model", MODELS, ids=IDS)
def test_gpu_run(model, target, compiled, request):
    ok, why = e2e.device_available(e2e.TARGETS[target])
    if not ok:
        pytest.skip(f"{target}: {why}")
    if model.slow(target) and not (request.config.getoption("--runslow") or os.environ.get("OPT_PY_RUNSLOW") == "1"):
        pytest.skip(f"slow to compile for {target}: run with --runslow")
    vmfb = _expect_compile(compiled, model, target)
    if vmfb is None:
        pytest.skip(f"stock IREE does not compile {model.name} for {target} (pinned)")
    try:
        outs = e2e.run_runtime(vmfb, e2e.TARGETS[target], model.function, model.inputs())
    except e2e.ModuleMisbehaved as e:  # faulted, or results that change between two calls: wrong
        assert model.known(f"{target}-run") == "wrong", f"{model.name}: {e}"
        return
    _check_numbers(model, outs, f"{target}-run")


# --------------------------------------------------------------------------
# opt-py compile --fixes: compiles wherever stock does (and where stock cannot,
# for the failures a fix exists for), and matches PyTorch on the CPU, the
# MoE router included
# --------------------------------------------------------------------------

FIXED_COMPILE_ERRORS = {"argsort_static", "topk_sampler"}  # sort-drop-unused-results: GPU bufferization


@pytest.mark.parametrize("model", _params("cpu"))
def test_fixes_cpu_matches_pytorch(model, compiled):
    outs = e2e.run_runtime(compiled.get(model, "cpu", fixes=True), e2e.TARGETS["cpu"], model.function, model.inputs())
    bad = _mismatches(model, outs)
    assert not bad, f"{model.name} with --fixes:\n" + e2e.format_report(bad, "IREE --fixes", "PyTorch")


@pytest.mark.parametrize("target", ["cuda", "rocm"])
@pytest.mark.parametrize("model", MODELS, ids=IDS)
def test_fixes_gpu_run_matches_pytorch(model, target, compiled, request):
    """Where the device is present: --fixes is right on the GPU, the models stock gets wrong there
    (mha_self, transformer_encoder, moe_router on an H200) included. Without one, opt-py bundle
    carries the same check to a GPU machine."""
    ok, why = e2e.device_available(e2e.TARGETS[target])
    if not ok:
        pytest.skip(f"{target}: {why}")
    if model.slow(target) and not (request.config.getoption("--runslow") or os.environ.get("OPT_PY_RUNSLOW") == "1"):
        pytest.skip(f"slow to compile for {target}: run with --runslow")
    outs = e2e.run_runtime(compiled.get(model, target, fixes=True), e2e.TARGETS[target], model.function, model.inputs())
    bad = _mismatches(model, outs)
    assert not bad, f"{model.name} with --fixes on {target}:\n" + e2e.format_report(bad, "IREE --fixes", "PyTorch")


@pytest.mark.parametrize("target", ["cuda", "rocm"])
@pytest.mark.parametrize("model", MODELS, ids=IDS)
def test_fixes_compile_for_gpus_wherever_stock_does(model, target, compiled, request):
    if model.slow(target) and not (request.config.getoption("--runslow") or os.environ.get("OPT_PY_RUNSLOW") == "1"):
        pytest.skip(f"slow to compile for {target}: run with --runslow")
    stock_fails = (model.known(target) or "").startswith("compile-error")
    if stock_fails and model.name not in FIXED_COMPILE_ERRORS:
        pytest.skip(f"stock IREE does not compile {model.name} for {target} and no fix is claimed")
    assert len(compiled.get(model, target, fixes=True)) > 0


def test_fixed_compile_errors_are_stock_failures():
    """The compile errors --fixes claims to fix are ones stock really has."""
    by_name = {m.name: m for m in MODELS}
    for name in FIXED_COMPILE_ERRORS:
        assert any((by_name[name].known(t) or "").startswith("compile-error") for t in ("cuda", "rocm")), name


GATHER_POINT = "before:iree-codegen-fold-memref-alias-ops"
NO_GATHER = "test-expect-absent{op=vector.gather}"


@pytest.mark.parametrize("name", ["embedding", "index_select_dynamic"])
def test_gather_fixes_fire_at_the_gpu_point(name, tmp_path):
    """IREE emits vector.gather for these reads in GPU codegen (the control fails on it),
    and with --fixes' gather passes at their point none is left."""
    model = next(m for m in MODELS if m.name == name)
    cuda = e2e.TARGETS["cuda"]
    with pytest.raises(OptPyError, match="'vector.gather' is still here"):
        e2e.compile_program(str(model.path), cuda, inject_codegen=(f"{GATHER_POINT}:{NO_GATHER}",))
    point = f"{GATHER_POINT}:gather-to-load,fold-subview-into-gather,{NO_GATHER}"
    assert len(e2e.compile_program(str(model.path), cuda, inject_codegen=(point,))) > 0


def test_known_failures_are_pinned():
    """The failures this corpus documents stay documented (not silently dropped from a manifest)."""
    by_name = {m.name: m for m in MODELS}
    assert by_name["moe_router"].known("cpu") == "wrong"
    assert np.all([by_name[n].known("cpu") is None for n in by_name if n != "moe_router"])
    # seen on an H200 (cuda sm_80 code): the attention over a dynamic length, and the router's scatter
    assert [n for n in sorted(by_name) if by_name[n].known("cuda-run") == "wrong"] == [
        "mha_self",
        "moe_router",
        "transformer_encoder",
    ]

"""The library-model corpus through IREE: transformers and diffusers architectures
(python/corpus/library_models.py) compiled from their torch-dialect MLIR.

Per model: stock IREE on the CPU, its failures pinned from the manifest's
"known" entries exactly as test/models does (``"cpu": "compile-error: <text>"``
or ``"wrong"``), so a test notices when IREE fixes one; ``opt-py compile
--fixes`` on the CPU, which must compile and match PyTorch (where a gap no
fix covers yet leaves it wrong, pinned the same way as ``"cpu-fixes": "wrong"``,
so the test notices the fix); and compile-only for cuda sm_80 and rocm
gfx942, stock (pinned) and with ``--fixes``. A target
the manifest lists under "slow" runs only with ``--runslow``: the default run
keeps what fits this file's CI budget (docs/reports/library-models.md has the
times).

Needs only iree-compiler/runtime and numpy; torch, transformers and diffusers
are needed only to export.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from model_corpus import all_models, assert_same_export, check_numbers, expect_compile
from opt_py.execution import e2e

ROOT = Path(__file__).resolve().parent
MODELS = all_models(ROOT)
IDS = [m.name for m in MODELS]
FAMILIES = {
    "dense_decoder",
    "moe_decoder",
    "kv_cache",
    "encoder",
    "vision",
    "vae",
    "unet",
    # the architectures no fix was written for (issue 35)
    "encoder_decoder",
    "state_space",
    "text_image_encoder",
    "diffusion_transformer",
}
TARGETS = ("cpu", "cuda", "rocm")
MAX_FILE_BYTES = 2 * 1024 * 1024


def _params(*targets):
    """(model, target) per model and target, marked slow where the manifest lists the target."""
    return [
        pytest.param(m, t, id=f"{m.name}-{t}", marks=[pytest.mark.slow] if m.slow(t) else [])
        for m in MODELS
        for t in targets
    ]


# --------------------------------------------------------------------------
# The corpus itself
# --------------------------------------------------------------------------


def test_corpus_covers_every_family():
    assert {m.manifest["family"] for m in MODELS} == FAMILIES
    assert len(MODELS) >= 30


@pytest.mark.parametrize("model", MODELS, ids=IDS)
def test_corpus_files_match_manifest(model):
    m = model.manifest
    assert m["name"] == model.name
    assert f"func.func @{m['function']}(" in model.path.read_text()
    for spec, a in zip(m["inputs"], model.inputs(), strict=True):
        assert (list(a.shape), str(a.dtype)) == (spec["shape"], spec["dtype"])
    for spec, a in zip(m["outputs"], model.expected(), strict=True):
        assert (list(a.shape), str(a.dtype)) == (spec["shape"], spec["dtype"])
    for f in model.dir.iterdir():
        assert f.stat().st_size <= MAX_FILE_BYTES, f"{f.name} is over 2 MB"
    assert m["source"]["library"] in ("transformers", "diffusers")
    assert m["source"]["class"] and m["source"]["config"]
    assert set(m["exported_with"]) == {"torch", "iree-turbine", "transformers", "diffusers"}
    assert set(m["slow"]) <= set(TARGETS), m["slow"]
    for key, status in m["known"].items():
        assert key in (*TARGETS, "cuda-run", "rocm-run", "cpu-fixes"), key
        assert status == "wrong" or status.startswith("compile-error: "), status


def test_moe_manifests_say_routing_may_tie():
    """Each MoE decoder's manifest gives its routers' smallest top-k margin (PyTorch's
    float32 routing is the reference; a near tie could route differently elsewhere)."""
    moe = [m for m in MODELS if m.manifest["family"] == "moe_decoder"]
    assert len(moe) >= 3
    for m in moe:
        assert m.manifest["routing"]["smallest_topk_margin"] > 0, m.name


# The architectures added so that the corpus stops being the set the fixes were written for (issue 35).
FAMILIES_WIDENED = {"encoder_decoder", "state_space", "text_image_encoder", "diffusion_transformer"}
WIDENED_DECODERS = {"opt_sdpa_dyn", "bloom_alibi_dyn", "falcon_alibi_dyn", "gpt_neo_local_dyn"}
# Stock's failures as docs/reports/library-models.md explains them: per model, what each target's pinned error
# is (the manifests hold its text). "front door": torch.aten.diff has no lowering; "bool literal": a 0-d bool
# literal; "scan": a cumulative sum of ones sized by the dim's upper bound (scan-fill-input-as-generic);
# "arg_compare": argmax over a dynamic length on GPUs (arg-compare-dynamic-as-generic).
FAILURE_TEXT = {
    "front door": "'torch.operator'",
    "bool literal": "'torch.vtensor.literal'",
    "scan": "36028797018963",
    "arg_compare": "or a rank-reduced version. (size mismatch)",
}
WIDENED_FAILURES = {
    "opt_sdpa_dyn": dict.fromkeys(TARGETS, "scan"),
    "bloom_alibi_dyn": dict.fromkeys(TARGETS, "bool literal"),
    "falcon_alibi_dyn": dict.fromkeys(TARGETS, "front door"),
    "gpt_neo_local_dyn": dict.fromkeys(TARGETS, "front door"),
    "clip_text_dyn": {"cuda": "arg_compare", "rocm": "arg_compare"},
}
WIDENED_WRONG = {"siglip_text_dyn", "siglip_vision"}  # stock on the CPU: torch-mlir's gelu(tanh) constant, as Gemma2


def test_known_failures_are_pinned():
    """What this corpus documents stays documented. The fixes' own corpus: every transformers decoder fails
    stock at the front door (torch.aten.diff), BERT on a 0-d bool literal, on every target; the rest compile
    and match. The widened corpus: as WIDENED_FAILURES says, the rest compile (SigLIP's text tower wrong on
    the CPU: gelu(tanh)). With --fixes every model matches (Gemma2's and SigLIP's gelu(tanh), which
    torch-mlir lowers with 0.7977240 for sqrt(2/pi), by torch-decompose-gelu-tanh)."""
    widened = {m.name for m in MODELS if m.manifest["family"] in FAMILIES_WIDENED or m.name in WIDENED_DECODERS}
    decoders = {m.name for m in MODELS if m.manifest["family"] in ("dense_decoder", "moe_decoder")} - widened
    for target in TARGETS:
        fails = {m.name: m.known(target) for m in MODELS if m.known(target) not in (None, "wrong")}
        want = {n: "front door" for n in decoders} | {"bert_sdpa_dyn": "bool literal"}
        want |= {n: by_target[target] for n, by_target in WIDENED_FAILURES.items() if target in by_target}
        assert set(fails) == set(want), target
        for name, kind in want.items():
            assert FAILURE_TEXT[kind] in fails[name], (name, target, fails[name])
    assert {m.name for m in MODELS if m.known("cpu") == "wrong"} == WIDENED_WRONG
    assert [m.name for m in MODELS if m.known("cpu-fixes")] == []
    assert all(m.known(key) is None for m in MODELS for key in ("cuda-run", "rocm-run"))


DEFAULT_EXPERTS = [m for m in MODELS if m.name.endswith("_default_dyn")]


@pytest.mark.parametrize("model", DEFAULT_EXPERTS, ids=[m.name for m in DEFAULT_EXPERTS])
def test_default_experts_go_through_their_fixes(model):
    """transformers' default experts (torch.histc counts, grouped_mm_fallback matmuls), which no IREE
    lowering takes, are each rewritten at start by their fix, as --fixes-report says (the input
    phase only: the compile itself is the CPU and GPU tests')."""
    text = model.path.read_text()
    proc = subprocess.run(
        [sys.executable, "-m", "opt_py", "compile", str(model.path), "--fixes", "--fixes-report"]
        + ["--compile-to=input", "-o", os.devnull, *e2e.TARGETS["cpu"].compile_flags],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = {line.split()[0]: line for line in proc.stderr.splitlines() if line.startswith("  torch-")}
    for fix, pattern, op in (
        ("torch-decompose-histc", "decompose_histc", "torch.aten.histc"),
        ("torch-decompose-grouped-mm", "decompose_grouped_mm", "torch.transformers.grouped_mm_fallback"),
    ):
        count = text.count(f'torch.operator "{op}"')
        assert count > 0, f"{model.name} has no {op}: not transformers' default experts"
        assert f"{count} x {pattern}" in rows[fix], rows.get(fix)


@pytest.mark.slow
def test_export_is_reproducible(tmp_path):
    """Re-exporting two models from their seeds gives the committed files (``assert_same_export``;
    the manifests' "known" and "slow" entries are kept by hand)."""
    pytest.importorskip("iree.turbine", reason="exporting needs the `models` extra")
    pytest.importorskip("transformers", reason="exporting needs the `models` extra")
    pytest.importorskip("diffusers", reason="exporting needs the `models` extra")
    from opt_py.corpus import library_models as mod

    assert sorted(s.name for s in mod.SPECS) == sorted(IDS)
    for name in ("mixtral_sdpa_dyn", "llama_decode_static_cache"):
        mod.export(next(s for s in mod.SPECS if s.name == name), str(tmp_path))
        assert_same_export(tmp_path / name, ROOT / name, hand_kept=("known", "slow"))


# --------------------------------------------------------------------------
# CPU: stock (pinned) and --fixes, run and compared with PyTorch
# --------------------------------------------------------------------------


def _run_cpu(model, vmfb):
    return e2e.run_runtime(vmfb, e2e.TARGETS["cpu"], model.function, model.inputs())


def _stock_params():
    """As _params("cpu"), and slow where the manifest pins nothing for stock: a run that
    re-proves IREE right costs CI minutes and tests no opt-py code; the pinned failures stay."""
    return [
        pytest.param(
            m, "cpu", id=f"{m.name}-cpu", marks=[pytest.mark.slow] if m.slow("cpu") or not m.known("cpu") else []
        )
        for m in MODELS
    ]


@pytest.mark.parametrize("model,target", _stock_params())
def test_stock_cpu(model, target, compiled):
    vmfb = expect_compile(compiled, model, target)
    if vmfb is None:
        return
    check_numbers(model, _run_cpu(model, vmfb), "cpu")


@pytest.mark.parametrize("model,target", _params("cpu"))
def test_fixes_cpu_matches_pytorch(model, target, compiled):
    check_numbers(model, _run_cpu(model, compiled.get(model, target, fixes=True)), "cpu-fixes")


# --------------------------------------------------------------------------
# GPUs: compile only (compiling for a GPU needs none)
# --------------------------------------------------------------------------


@pytest.mark.parametrize("model,target", _params("cuda", "rocm"))
def test_stock_compiles_for_gpus(model, target, compiled):
    vmfb = expect_compile(compiled, model, target)
    assert vmfb is None or len(vmfb) > 0


@pytest.mark.parametrize("model,target", _params("cuda", "rocm"))
def test_fixes_compile_for_gpus(model, target, compiled):
    assert len(compiled.get(model, target, fixes=True)) > 0

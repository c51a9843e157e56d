"""``generate()`` on a Hugging Face decoder compiled with opt-py's fixes (``opt_py.torch.compile_generate``).

Greedy tokens from the compiled model equal eager ``generate()``'s (its
default cache), prompt by prompt. In the default run, a one-layer Llama and
one prompt (a prefill and a decode graph); slow: the corpus's dense Llama,
Mixtral and Qwen2-MoE (MoE routers) and DeepSeek-V3 (multi-head latent
attention) from python/corpus/library_models.py's configs, over three prompt
lengths (the second makes the prompt length symbolic; the third compiles
nothing).
"""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("iree.turbine", reason="the backend needs the `models` extra (torch, iree-turbine)")

import opt_py.torch  # noqa: E402 - after the skips
import opt_py.torch.backend as opt_backend  # noqa: E402


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("OPT_PY_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    opt_backend.reset()
    yield
    torch._dynamo.reset()


def greedy_equal(model, lengths, new_tokens):
    """Eager generate() for each prompt, then the compiled model's: the same tokens."""
    g = torch.Generator().manual_seed(1)
    prompts = [torch.randint(0, model.config.vocab_size, (1, n), generator=g) for n in lengths]
    with torch.no_grad():
        want = [model.generate(p, max_new_tokens=new_tokens, do_sample=False) for p in prompts]
        opt_py.torch.compile_generate(model)
        got = [model.generate(p, max_new_tokens=new_tokens, do_sample=False) for p in prompts]
    for p, a, b in zip(prompts, got, want):
        assert a.tolist() == b.tolist(), f"prompt of {p.shape[1]}: {a.tolist()} != {b.tolist()}"
    return opt_backend.graphs()


def test_a_one_layer_llama_generates_the_eager_tokens():
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=64,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=32,
    )
    model = LlamaForCausalLM(config).eval()
    graphs = greedy_equal(model, [6], new_tokens=5)
    assert [g.compile_id for g in graphs] == ["0/0", "0/1"]  # the prefill, then the decode step
    assert type(model).forward is LlamaForCausalLM.forward and "forward" in vars(model)
    del model.forward  # undoes it
    assert "forward" not in vars(model)


DECODERS = {
    "llama": ("LlamaForCausalLM", "LlamaConfig", None),
    "mixtral": ("MixtralForCausalLM", "MixtralConfig", "MIXTRAL"),
    "qwen2_moe": ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", "QWEN2_MOE"),
    "deepseek_v3": ("DeepseekV3ForCausalLM", "DeepseekV3Config", "DEEPSEEK_V3"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", DECODERS)
def test_a_corpus_decoder_generates_the_eager_tokens(name):
    """Three prompt lengths, 8 new tokens each: static prefill and decode, one recompile each with the
    prompt length symbolic, then nothing more to compile."""
    from opt_py.corpus import library_models as lib

    cls, cfg, extra = DECODERS[name]
    torch.manual_seed(0)
    model, _ = lib.transformers_model(cls, cfg, "sdpa", None, **{**lib.TINY, **(getattr(lib, extra) if extra else {})})
    graphs = greedy_equal(model.eval(), [5, 9, 13], new_tokens=8)
    assert [g.compile_id for g in graphs] == ["0/0", "0/1", "0/2", "0/3"]
    print(f"{name}: {len(graphs)} graphs, {sum(g.seconds for g in graphs):.0f} s to compile")

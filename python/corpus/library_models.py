"""The library-model corpus under test/library_models/: the architectures IREE users bring, built the way
they build them (Hugging Face ``transformers`` and ``diffusers`` models from tiny configs, random weights from
a fixed seed, nothing downloaded), each behind a small wrapper that takes and returns tensors; and ``export``,
which writes the same files as ``opt_py.corpus.models`` plus ``source`` (library, class, config) and the
library versions in the manifest. tools/export_library_models.py is the command; the tests and the benches
build models from ``SPECS`` and the tiny configs here.

A decoder's MoE router picks experts with ``torch.topk`` over float32 scores: where two scores nearly tie,
another float32 implementation may pick the other expert. The manifest of each MoE model says so and gives
the smallest top-k margin its routers saw on the test inputs.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch import nn
from torch.export import Dim

from .models import dynamic_dims, flatten_outputs, shapes, turbine_version, write

OUT = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "test", "library_models"
)

VOCAB = 128
MAX_POSITIONS = 64
SEQ = Dim("seq", min=2, max=MAX_POSITIONS - 1)
BATCH = Dim("batch", min=2, max=64)
NEAR_TIE_NOTE = (
    "expected is PyTorch's own float32; the routers pick experts with top-k over float32 scores, "
    "so where two scores nearly tie another float32 implementation may route a token to another expert"
)


@dataclass
class Source:
    """Where a model comes from: its library, class and config (a JSON-able dict)."""

    library: str  # transformers | diffusers
    cls: str
    config: dict
    options: dict = field(default_factory=dict)  # implementation choices set on the config, e.g. attention


@dataclass
class Spec:
    name: str
    family: str
    summary: str
    build: Callable[[], tuple[nn.Module, Source]]  # the wrapped model, seeded by the caller
    example: Callable[[torch.Generator], tuple]  # export args
    run: Callable[[torch.Generator, nn.Module], tuple]  # test args (may run the model, e.g. a prefill)
    dynamic: dict | None = None
    rtol: float = 1e-4
    atol: float = 1e-5
    seed: int = 0
    routing: Callable[[nn.Module], list[nn.Module]] | None = None  # MoE routers, whose margins the manifest gives
    notes: str = ""


SPECS: list[Spec] = []


def spec(**kw):
    SPECS.append(Spec(**kw))


def ids(g, *shape):
    return torch.randint(0, VOCAB, shape, generator=g)


# --------------------------------------------------------------------------
# transformers decoders
# --------------------------------------------------------------------------

TINY = dict(
    vocab_size=VOCAB,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,  # grouped-query attention: 2 query heads per key/value head
    max_position_embeddings=MAX_POSITIONS,
)


class CausalLM(nn.Module):
    """Token ids in, logits out: a full forward without a cache (a prefill or a scoring pass)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids):
        return self.model(input_ids=ids, use_cache=False).logits


def transformers_model(cls_name: str, config_name: str, attention: str, experts: str | None = None, **config):
    """The ``transformers`` model ``cls_name`` from a tiny ``config_name`` with ``attention``
    (eager / sdpa) and, for MoE models, the ``experts`` implementation."""
    import transformers

    cfg = getattr(transformers, config_name)(**config)
    cfg._attn_implementation = attention
    options = {"attn_implementation": attention}
    if experts:
        cfg._experts_implementation = experts
        options["experts_implementation"] = experts
    model = getattr(transformers, cls_name)(cfg).eval()
    moe = any(getattr(cfg, k, None) for k in ("num_local_experts", "num_experts", "n_routed_experts"))
    if experts is None and moe and getattr(model.config, "_experts_implementation", None):
        options["experts_implementation"] = f"{model.config._experts_implementation} (transformers' default)"
    return model, Source("transformers", cls_name, cfg.to_diff_dict(), options)


def transformers_build(wrapper, cls_name, config_name, attention, experts=None, **config):
    """A ``Spec.build``: the model (see ``transformers_model``) inside ``wrapper``."""

    def build():
        model, source = transformers_model(cls_name, config_name, attention, experts, **config)
        return wrapper(model), source

    return build


def moe_routers(wrapper: nn.Module) -> list[nn.Module]:
    """The router modules (``mlp.gate``) of a transformers MoE decoder."""
    return [layer.mlp.gate for layer in wrapper.model.model.layers if hasattr(layer.mlp, "gate")]


def dense_decoder(name, cls_name, config_name, attention, summary, dynamic=True, **config):
    spec(
        name=name,
        family="dense_decoder",
        summary=summary,
        build=transformers_build(CausalLM, cls_name, config_name, attention, **{**TINY, **config}),
        example=lambda g: (ids(g, 1, 16),),
        run=(lambda g, m: (ids(g, 1, 23),)) if dynamic else (lambda g, m: (ids(g, 1, 16),)),
        dynamic={"ids": {1: SEQ}} if dynamic else None,
    )


dense_decoder(
    "llama_eager_dyn",
    "LlamaForCausalLM",
    "LlamaConfig",
    "eager",
    "Llama, GQA (4 query / 2 kv heads), eager attention, dynamic sequence",
)
dense_decoder(
    "llama_sdpa_static",
    "LlamaForCausalLM",
    "LlamaConfig",
    "sdpa",
    "Llama, GQA, SDPA attention, static sequence of 16",
    dynamic=False,
)
dense_decoder(
    "qwen2_sdpa_dyn",
    "Qwen2ForCausalLM",
    "Qwen2Config",
    "sdpa",
    "Qwen2, GQA, q/k/v biases, SDPA attention, dynamic sequence",
)
dense_decoder(
    "mistral_eager_dyn",
    "MistralForCausalLM",
    "MistralConfig",
    "eager",
    "Mistral, GQA, sliding-window (8) causal mask, eager attention, dynamic sequence",
    sliding_window=8,
)
dense_decoder(
    "gemma2_eager_dyn",
    "Gemma2ForCausalLM",
    "Gemma2Config",
    "eager",
    "Gemma2, GQA, alternating sliding-window (8) and global layers, logit soft-capping, eager, dynamic sequence",
    head_dim=16,
    sliding_window=8,
)
dense_decoder(
    "phi3_sdpa_dyn",
    "Phi3ForCausalLM",
    "Phi3Config",
    "sdpa",
    "Phi3, GQA, fused qkv and gate/up projections, SDPA attention, dynamic sequence",
    pad_token_id=0,
)
spec(
    name="gpt2_eager_dyn",
    family="dense_decoder",
    summary="GPT-2, multi-head attention, learned positions, Conv1D projections, eager, dynamic sequence",
    build=transformers_build(
        CausalLM,
        "GPT2LMHeadModel",
        "GPT2Config",
        "eager",
        vocab_size=VOCAB,
        n_embd=64,
        n_layer=2,
        n_head=4,
        n_positions=MAX_POSITIONS,
    ),
    example=lambda g: (ids(g, 1, 16),),
    run=lambda g, m: (ids(g, 1, 23),),
    dynamic={"ids": {1: SEQ}},
)


# --------------------------------------------------------------------------
# transformers MoE decoders (experts as batched matmuls: the exportable implementation)
# --------------------------------------------------------------------------


def moe_decoder(name, cls_name, config_name, attention, summary, experts="batched_mm", **config):
    spec(
        name=name,
        family="moe_decoder",
        summary=summary,
        build=transformers_build(CausalLM, cls_name, config_name, attention, experts, **{**TINY, **config}),
        example=lambda g: (ids(g, 1, 16),),
        run=lambda g, m: (ids(g, 1, 23),),
        dynamic={"ids": {1: SEQ}},
        routing=moe_routers,
    )


MIXTRAL = dict(intermediate_size=64, num_local_experts=4, num_experts_per_tok=2)
QWEN2_MOE = dict(
    num_experts=4,
    num_experts_per_tok=2,
    moe_intermediate_size=32,
    shared_expert_intermediate_size=64,
    decoder_sparse_step=1,
)
DEEPSEEK_V3 = dict(
    num_key_value_heads=4,
    n_routed_experts=8,
    num_experts_per_tok=2,
    n_group=2,
    topk_group=1,
    moe_intermediate_size=32,
    first_k_dense_replace=1,
    n_shared_experts=1,
    kv_lora_rank=16,
    q_lora_rank=24,
    qk_rope_head_dim=8,
    qk_nope_head_dim=8,
    v_head_dim=16,
)

moe_decoder(
    "mixtral_sdpa_dyn",
    "MixtralForCausalLM",
    "MixtralConfig",
    "sdpa",
    "Mixtral, softmax top-2 of 4 experts per token, SDPA, dynamic sequence",
    **MIXTRAL,
)
moe_decoder(
    "qwen2_moe_sdpa_dyn",
    "Qwen2MoeForCausalLM",
    "Qwen2MoeConfig",
    "sdpa",
    "Qwen2-MoE, top-2 of 4 experts plus a gated shared expert, SDPA, dynamic sequence",
    **QWEN2_MOE,
)
moe_decoder(
    "deepseek_v3_eager_dyn",
    "DeepseekV3ForCausalLM",
    "DeepseekV3Config",
    "eager",
    "DeepSeek-V3, multi-head latent attention, sigmoid grouped top-k routing (top-2 of 8 experts in the "
    "best of 2 groups) plus a shared expert after a dense layer, eager, dynamic sequence",
    **DEEPSEEK_V3,
)

# The same three as transformers builds them by default: its experts implementation not chosen, so the
# experts count tokens with torch.histc and multiply through transformers::grouped_mm_fallback.
moe_decoder(
    "mixtral_default_dyn",
    "MixtralForCausalLM",
    "MixtralConfig",
    "sdpa",
    "Mixtral as the previous, with transformers' default experts (histc counts, grouped matmuls)",
    experts=None,
    **MIXTRAL,
)
moe_decoder(
    "qwen2_moe_default_dyn",
    "Qwen2MoeForCausalLM",
    "Qwen2MoeConfig",
    "sdpa",
    "Qwen2-MoE as the previous, with transformers' default experts (histc counts, grouped matmuls)",
    experts=None,
    **QWEN2_MOE,
)
moe_decoder(
    "deepseek_v3_default_dyn",
    "DeepseekV3ForCausalLM",
    "DeepseekV3Config",
    "sdpa",
    "DeepSeek-V3 as the previous, with transformers' defaults: SDPA attention, default experts (histc "
    "counts, grouped matmuls)",
    experts=None,
    **DEEPSEEK_V3,
)


# --------------------------------------------------------------------------
# an LLM with a static KV cache: prefill, then one decode step
# --------------------------------------------------------------------------

CACHE_LEN = 32
PROMPT = 11


class StaticCacheStep(nn.Module):
    """One step of generation over ``transformers``' StaticCache, as a pure function:
    (token ids, their first position, each layer's key and value caches) ->
    (logits, the caches with this step's keys and values written at its positions).
    A prefill is this step over the prompt from position 0 into zero caches; a
    decode step is one token at the prompt's length."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids, pos, *kv):
        from transformers.cache_utils import StaticCache

        cache = StaticCache(config=self.model.config, max_cache_len=CACHE_LEN)
        for layer, k, v in zip(cache.layers, kv[0::2], kv[1::2]):
            layer.lazy_initialization(k, v)
            layer.keys, layer.values = k.clone(), v.clone()
            layer.cumulative_length = pos.clone()
        positions = pos.reshape(1) + torch.arange(ids.shape[1])
        out = self.model(input_ids=ids, cache=cache, use_cache=True, cache_position=positions)
        return (out.logits, *[t for layer in cache.layers for t in (layer.keys, layer.values)])


def llama_step():
    model, source = transformers_model("LlamaForCausalLM", "LlamaConfig", "sdpa", **TINY)
    source.options["cache"] = f"StaticCache(max_cache_len={CACHE_LEN})"
    return StaticCacheStep(model), source


def zero_caches():
    heads, dim = TINY["num_key_value_heads"], TINY["hidden_size"] // TINY["num_attention_heads"]
    return tuple(torch.zeros(1, heads, CACHE_LEN, dim) for _ in range(2 * TINY["num_hidden_layers"]))


def random_caches(g):
    return tuple(torch.randn(c.shape, generator=g) for c in zero_caches())


def prefill_inputs(g):
    return (ids(g, 1, PROMPT), torch.tensor(0), *zero_caches())


def decode_inputs(g, step):
    """The prompt prefilled by PyTorch (the same step module), then the next token at its position."""
    prompt = prefill_inputs(g)
    with torch.no_grad():
        _, *caches = step(*prompt)
    return (ids(g, 1, 1), torch.tensor(PROMPT), *caches)


spec(
    name="llama_prefill_static_cache",
    family="kv_cache",
    summary=f"Llama (GQA, SDPA) prefill of {PROMPT} tokens into zero static KV caches of {CACHE_LEN}: "
    "logits and the filled caches",
    build=llama_step,
    example=lambda g: (ids(g, 1, PROMPT), torch.tensor(5), *random_caches(g)),
    run=lambda g, m: prefill_inputs(g),
)
spec(
    name="llama_decode_static_cache",
    family="kv_cache",
    summary=f"Llama (GQA, SDPA) decode step: one token at position {PROMPT} over static KV caches of "
    f"{CACHE_LEN} (PyTorch's prefill): logits and the caches with the token's keys and values written",
    build=llama_step,
    example=lambda g: (ids(g, 1, 1), torch.tensor(5), *random_caches(g)),
    run=decode_inputs,
)


# --------------------------------------------------------------------------
# transformers encoders and vision
# --------------------------------------------------------------------------


class MaskedEncoder(nn.Module):
    """(token ids, attention mask) -> the last hidden states."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids, mask):
        return self.model(input_ids=ids, attention_mask=mask).last_hidden_state


class ImageClassifier(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, pixels):
        return self.model(pixel_values=pixels).logits


bert = transformers_build(
    MaskedEncoder,
    "BertModel",
    "BertConfig",
    "sdpa",
    vocab_size=VOCAB,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=MAX_POSITIONS,
)


def padded_mask(seq, lengths):
    """1 for the first ``lengths[i]`` tokens of row i, 0 for its padding."""
    return (torch.arange(seq)[None, :] < torch.tensor(lengths)[:, None]).long()


spec(
    name="bert_sdpa_dyn",
    family="encoder",
    summary="BERT encoder (BertModel), padding mask, SDPA attention, dynamic sequence",
    build=bert,
    example=lambda g: (ids(g, 2, 16), padded_mask(16, [16, 12])),
    run=lambda g, m: (ids(g, 2, 21), padded_mask(21, [21, 9])),
    dynamic={"ids": {1: SEQ}, "mask": {1: SEQ}},
)


vit = transformers_build(
    ImageClassifier,
    "ViTForImageClassification",
    "ViTConfig",
    "sdpa",
    image_size=32,
    patch_size=8,
    num_channels=3,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    num_labels=10,
)


spec(
    name="vit_sdpa_dyn",
    family="vision",
    summary="ViT image classifier, 32x32 images in 8x8 patches, SDPA attention, dynamic batch",
    build=vit,
    example=lambda g: (torch.randn(2, 3, 32, 32, generator=g),),
    run=lambda g, m: (torch.randn(3, 3, 32, 32, generator=g),),
    dynamic={"pixels": {0: BATCH}},
)


# --------------------------------------------------------------------------
# diffusers: VAE and UNet
# --------------------------------------------------------------------------


def diffusers_model(cls_name: str, **config):
    import diffusers

    model = getattr(diffusers, cls_name)(**config).eval()
    # Leading-underscore entries are bookkeeping (a set, in no fixed order), not the config.
    cfg = {k: list(v) if isinstance(v, tuple) else v for k, v in model.config.items() if not k.startswith("_")}
    return model, Source("diffusers", cls_name, cfg)


VAE = dict(
    in_channels=3,
    out_channels=3,
    down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
    up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"),
    block_out_channels=(16, 32),
    layers_per_block=1,
    latent_channels=4,
    norm_num_groups=8,
    sample_size=32,
)


class VaeEncode(nn.Module):
    """Images -> the latent distribution's mean and log-variance."""

    def __init__(self, vae):
        super().__init__()
        self.vae = vae

    def forward(self, images):
        dist = self.vae.encode(images).latent_dist
        return dist.mean, dist.logvar


class VaeDecode(nn.Module):
    def __init__(self, vae):
        super().__init__()
        self.vae = vae

    def forward(self, latents):
        return self.vae.decode(latents).sample


def vae(wrapper):
    def build():
        model, source = diffusers_model("AutoencoderKL", **VAE)
        return wrapper(model), source

    return build


spec(
    name="vae_encoder",
    family="vae",
    summary="AutoencoderKL encoder: down blocks (ResNet + GroupNorm), mid-block attention, 1x3x32x32 -> 4x16x16",
    build=vae(VaeEncode),
    example=lambda g: (torch.randn(1, 3, 32, 32, generator=g),),
    run=lambda g, m: (torch.randn(1, 3, 32, 32, generator=g),),
)
spec(
    name="vae_decoder",
    family="vae",
    summary="AutoencoderKL decoder: mid-block attention, up blocks with nearest upsampling, 1x4x16x16 -> 3x32x32",
    build=vae(VaeDecode),
    example=lambda g: (torch.randn(1, 4, 16, 16, generator=g),),
    run=lambda g, m: (torch.randn(1, 4, 16, 16, generator=g),),
)


class UNetStep(nn.Module):
    """(noisy latents, timestep, text states) -> the predicted noise."""

    def __init__(self, unet):
        super().__init__()
        self.unet = unet

    def forward(self, latents, timestep, text):
        return self.unet(latents, timestep, encoder_hidden_states=text).sample


def unet():
    model, source = diffusers_model(
        "UNet2DConditionModel",
        sample_size=16,
        in_channels=4,
        out_channels=4,
        layers_per_block=1,
        block_out_channels=(16, 32),
        down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
        up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"),
        cross_attention_dim=16,
        attention_head_dim=8,
        norm_num_groups=8,
    )
    return UNetStep(model), source


spec(
    name="unet_cross_attention",
    family="unet",
    summary="UNet2DConditionModel: ResNet blocks, timestep embedding, self- and cross-attention transformer "
    "blocks over 7 text states, 1x4x16x16",
    build=unet,
    example=lambda g: (torch.randn(1, 4, 16, 16, generator=g), torch.tensor(10.0), torch.randn(1, 7, 16, generator=g)),
    run=lambda g, m: (torch.randn(1, 4, 16, 16, generator=g), torch.tensor(321.0), torch.randn(1, 7, 16, generator=g)),
    atol=1e-4,
)


# --------------------------------------------------------------------------
# beyond the fixes' own corpus: architectures no fix was written for
# --------------------------------------------------------------------------

# Decoders whose positions come from a cumulative sum over the attention mask (all ones here, no mask given):
# OPT's learned positions, BLOOM's and Falcon's ALiBi slopes.
spec(
    name="opt_sdpa_dyn",
    family="dense_decoder",
    summary="OPT, learned positions from a cumulative sum over the attention mask (torch.cumsum of ones), "
    "ReLU MLP, SDPA, dynamic sequence",
    build=transformers_build(
        CausalLM,
        "OPTForCausalLM",
        "OPTConfig",
        "sdpa",
        vocab_size=VOCAB,
        hidden_size=64,
        ffn_dim=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        max_position_embeddings=MAX_POSITIONS,
    ),
    example=lambda g: (ids(g, 1, 16),),
    run=lambda g, m: (ids(g, 1, 23),),
    dynamic={"ids": {1: SEQ}},
)


class MaskedCausalLM(nn.Module):
    """(token ids, attention mask) -> logits: a forward over right-padded rows, without a cache."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids, mask):
        return self.model(input_ids=ids, attention_mask=mask, use_cache=False).logits


# With a padding mask BLOOM builds its ALiBi biases from the mask (without one it uses an arange).
spec(
    name="bloom_alibi_dyn",
    family="dense_decoder",
    summary="BLOOM, ALiBi position biases from a cumulative sum over a padding mask, eager, dynamic sequence",
    build=transformers_build(
        MaskedCausalLM,
        "BloomForCausalLM",
        "BloomConfig",
        "eager",
        vocab_size=VOCAB,
        hidden_size=64,
        n_layer=2,
        n_head=4,
    ),
    example=lambda g: (ids(g, 2, 16), padded_mask(16, [16, 12])),
    run=lambda g, m: (ids(g, 2, 23), padded_mask(23, [23, 9])),
    dynamic={"ids": {1: SEQ}, "mask": {1: SEQ}},
)
spec(
    name="falcon_alibi_dyn",
    family="dense_decoder",
    summary="Falcon (7B layout: multi-query attention, attention and MLP in parallel) with ALiBi, SDPA, "
    "dynamic sequence",
    build=transformers_build(
        CausalLM,
        "FalconForCausalLM",
        "FalconConfig",
        "sdpa",
        vocab_size=VOCAB,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        alibi=True,
        max_position_embeddings=MAX_POSITIONS,
    ),
    example=lambda g: (ids(g, 1, 16),),
    run=lambda g, m: (ids(g, 1, 23),),
    dynamic={"ids": {1: SEQ}},
)
spec(
    name="gpt_neo_local_dyn",
    family="dense_decoder",
    summary="GPT-Neo, alternating global and local (window 8) attention layers, learned positions, eager, "
    "dynamic sequence",
    build=transformers_build(
        CausalLM,
        "GPTNeoForCausalLM",
        "GPTNeoConfig",
        "eager",
        vocab_size=VOCAB,
        hidden_size=64,
        num_layers=2,
        num_heads=4,
        intermediate_size=128,
        attention_types=[[["global", "local"], 1]],
        window_size=8,
        max_position_embeddings=MAX_POSITIONS,
        bos_token_id=1,
        eos_token_id=2,
    ),
    example=lambda g: (ids(g, 1, 16),),
    run=lambda g, m: (ids(g, 1, 23),),
    dynamic={"ids": {1: SEQ}},
)
# The slow (pure PyTorch) Mamba path loops over the sequence in Python: a static length.
spec(
    name="mamba_static",
    family="state_space",
    summary="Mamba, selective state-space layers (causal depthwise conv, input-dependent discretization, "
    "the recurrence unrolled over 12 tokens), static sequence",
    build=transformers_build(
        CausalLM,
        "MambaForCausalLM",
        "MambaConfig",
        "eager",
        vocab_size=VOCAB,
        hidden_size=64,
        state_size=8,
        num_hidden_layers=2,
        expand=2,
        conv_kernel=4,
        time_step_rank=8,
    ),
    example=lambda g: (ids(g, 1, 12),),
    run=lambda g, m: (ids(g, 1, 12),),
)


class Seq2SeqLM(nn.Module):
    """(source ids, target ids) -> the decoder's logits: a teacher-forced pass of an encoder-decoder."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids, decoder_ids):
        return self.model(input_ids=ids, decoder_input_ids=decoder_ids, use_cache=False).logits


TARGET_SEQ = Dim("target_seq", min=2, max=MAX_POSITIONS - 1)
spec(
    name="t5_dyn",
    family="encoder_decoder",
    summary="T5 encoder-decoder: relative position buckets, RMS layer norm, cross-attention, dynamic source "
    "and target lengths",
    build=transformers_build(
        Seq2SeqLM,
        "T5ForConditionalGeneration",
        "T5Config",
        "eager",
        vocab_size=VOCAB,
        d_model=64,
        d_kv=16,
        d_ff=128,
        num_layers=2,
        num_decoder_layers=2,
        num_heads=4,
        relative_attention_num_buckets=8,
        relative_attention_max_distance=16,
        decoder_start_token_id=0,
    ),
    example=lambda g: (ids(g, 1, 16), ids(g, 1, 9)),
    run=lambda g, m: (ids(g, 1, 21), ids(g, 1, 11)),
    dynamic={"ids": {1: SEQ}, "decoder_ids": {1: TARGET_SEQ}},
)
spec(
    name="bart_sdpa_dyn",
    family="encoder_decoder",
    summary="BART encoder-decoder: learned positions, post-layer-norm, cross-attention, SDPA, dynamic source "
    "and target lengths",
    build=transformers_build(
        Seq2SeqLM,
        "BartForConditionalGeneration",
        "BartConfig",
        "sdpa",
        vocab_size=VOCAB,
        d_model=64,
        encoder_layers=2,
        decoder_layers=2,
        encoder_attention_heads=4,
        decoder_attention_heads=4,
        encoder_ffn_dim=128,
        decoder_ffn_dim=128,
        max_position_embeddings=MAX_POSITIONS,
    ),
    example=lambda g: (ids(g, 1, 16), ids(g, 1, 9)),
    run=lambda g, m: (ids(g, 1, 21), ids(g, 1, 11)),
    dynamic={"ids": {1: SEQ}, "decoder_ids": {1: TARGET_SEQ}},
)


class TextEncoder(nn.Module):
    """Token ids -> the last hidden states and the pooled embedding."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids):
        out = self.model(input_ids=ids)
        return out.last_hidden_state, out.pooler_output


class ImageEncoder(nn.Module):
    """Images -> the last hidden states and the pooled embedding."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, pixels):
        out = self.model(pixel_values=pixels)
        return out.last_hidden_state, out.pooler_output


TEXT_TOWER = dict(
    vocab_size=VOCAB,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    max_position_embeddings=MAX_POSITIONS,
)
VISION_TOWER = dict(
    hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, image_size=32, patch_size=8
)
spec(
    name="clip_text_dyn",
    family="text_image_encoder",
    summary="CLIP text tower: causal self-attention, quick-gelu, pooled at each row's end-of-text token "
    "(an argmax over the ids), SDPA, dynamic sequence",
    build=transformers_build(
        TextEncoder, "CLIPTextModel", "CLIPTextConfig", "sdpa", bos_token_id=1, eos_token_id=2, **TEXT_TOWER
    ),
    example=lambda g: (ids(g, 2, 16),),
    run=lambda g, m: (ids(g, 2, 21),),
    dynamic={"ids": {1: SEQ}},
)
spec(
    name="clip_vision_dyn",
    family="text_image_encoder",
    summary="CLIP vision tower: 8x8 patches of 32x32 images, a class token, pre-layer-norm, SDPA, dynamic batch",
    build=transformers_build(ImageEncoder, "CLIPVisionModel", "CLIPVisionConfig", "sdpa", **VISION_TOWER),
    example=lambda g: (torch.randn(2, 3, 32, 32, generator=g),),
    run=lambda g, m: (torch.randn(3, 3, 32, 32, generator=g),),
    dynamic={"pixels": {0: BATCH}},
)
spec(
    name="siglip_text_dyn",
    family="text_image_encoder",
    summary="SigLIP text tower: bidirectional attention, pooled at the last token through a projection head, "
    "SDPA, dynamic sequence",
    build=transformers_build(
        TextEncoder, "SiglipTextModel", "SiglipTextConfig", "sdpa", bos_token_id=1, eos_token_id=2, **TEXT_TOWER
    ),
    example=lambda g: (ids(g, 2, 16),),
    run=lambda g, m: (ids(g, 2, 21),),
    dynamic={"ids": {1: SEQ}},
)
spec(
    name="siglip_vision",
    family="text_image_encoder",
    summary="SigLIP vision tower: 8x8 patches of 32x32 images, no class token, attention-pooling head, SDPA",
    build=transformers_build(ImageEncoder, "SiglipVisionModel", "SiglipVisionConfig", "sdpa", **VISION_TOWER),
    example=lambda g: (torch.randn(2, 3, 32, 32, generator=g),),
    run=lambda g, m: (torch.randn(2, 3, 32, 32, generator=g),),
)


class DiTStep(nn.Module):
    """(noisy latents, timestep, class labels) -> the predicted noise and variance."""

    def __init__(self, dit):
        super().__init__()
        self.dit = dit

    def forward(self, latents, timestep, labels):
        return self.dit(latents, timestep=timestep, class_labels=labels).sample


def dit():
    model, source = diffusers_model(
        "DiTTransformer2DModel",
        num_attention_heads=2,
        attention_head_dim=16,
        in_channels=4,
        num_layers=2,
        sample_size=8,
        patch_size=2,
        num_embeds_ada_norm=10,
    )
    return DiTStep(model), source


spec(
    name="dit_class_conditional",
    family="diffusion_transformer",
    summary="DiT: 2x2 patches of 4x8x8 latents, adaLN-Zero blocks conditioned on the timestep and a class "
    "label, unpatchify to noise and variance",
    build=dit,
    example=lambda g: (torch.randn(1, 4, 8, 8, generator=g), torch.tensor([10]), torch.tensor([3])),
    run=lambda g, m: (torch.randn(1, 4, 8, 8, generator=g), torch.tensor([321]), torch.tensor([7])),
)


# --------------------------------------------------------------------------


def topk_margin(scores: torch.Tensor, k: int) -> float:
    """The smallest gap between the k-th and the (k+1)-th largest score of any row."""
    top = scores.topk(k + 1, dim=-1).values
    return float((top[..., k - 1] - top[..., k]).min())


def router_margin(router: nn.Module, hidden: torch.Tensor) -> float:
    """The smallest top-k margin of ``router`` on ``hidden``, in the scores its top-k compares:
    softmax probabilities (Mixtral, Qwen2-MoE) or, for grouped routing (DeepSeek-V3), the
    group scores and the expert scores within the chosen groups."""
    logits = torch.nn.functional.linear(hidden.reshape(-1, router.weight.shape[1]).float(), router.weight.float())
    if not hasattr(router, "num_group"):
        return topk_margin(logits.softmax(-1), router.top_k)
    scores = logits.sigmoid() + router.e_score_correction_bias
    grouped = scores.view(-1, router.num_group, scores.shape[-1] // router.num_group)
    group_scores = grouped.topk(2, dim=-1).values.sum(-1)
    margins = [topk_margin(group_scores, router.topk_group)] if router.topk_group < router.num_group else []
    chosen = group_scores.topk(router.topk_group, dim=-1).indices
    within = grouped.gather(1, chosen[..., None].expand(-1, -1, grouped.shape[-1])).flatten(1)
    return min([*margins, topk_margin(within, router.top_k)])


def routing_margins(routers: list[nn.Module], model: nn.Module, args: tuple) -> float:
    """The smallest top-k margin of any of ``routers`` while ``model`` runs on ``args``."""
    seen = []
    hooks = [r.register_forward_hook(lambda mod, inp, out: seen.append(router_margin(mod, inp[0]))) for r in routers]
    try:
        with torch.no_grad():
            model(*args)
    finally:
        for h in hooks:
            h.remove()
    return min(seen)


def library_versions() -> dict:
    from importlib.metadata import version

    return {
        "torch": torch.__version__,
        "iree-turbine": turbine_version(),
        "transformers": version("transformers"),
        "diffusers": version("diffusers"),
    }


def export(s: Spec, out_root: str = OUT) -> dict:
    import iree.turbine.aot as aot

    torch.manual_seed(s.seed)
    model, source = s.build()
    model = model.eval()
    g = torch.Generator().manual_seed(1000 + s.seed)
    example = s.example(g)
    args = s.run(g, model)
    with torch.no_grad():
        expected = flatten_outputs(model(*args))
        exported = aot.export(model, args=example, dynamic_shapes=s.dynamic, strict_export=False)
    margin = routing_margins(s.routing(model), model, args) if s.routing else None

    def manifest(old: dict) -> dict:
        m = {
            "name": s.name,
            "family": s.family,
            "summary": s.summary,
            "source": {"library": source.library, "class": source.cls, **source.options, "config": source.config},
            "function": "main",
            "seed": s.seed,
            "dynamic_dims": dynamic_dims(s.dynamic),
            **shapes(args, expected),
            "tolerance": {"rtol": s.rtol, "atol": s.atol},
            "slow": old.get("slow", []),  # targets whose compile is slow (hand-kept)
            "known": old.get("known", {}),  # stock IREE's failures (hand-kept)
            "exported_with": library_versions(),
        }
        if margin is not None:
            m["routing"] = {"smallest_topk_margin": float(f"{margin:.3g}"), "near_ties": NEAR_TIE_NOTE}
        if s.notes:
            m["notes"] = s.notes
        return m

    return write(os.path.join(out_root, s.name), exported, args, expected, manifest)

"""Figures of the PyTorch front doors: the module cache, generate() per token, the backend on the corpus.

    python tools/bench_torch.py cache              # first and cached compile, each in a fresh process
    python tools/bench_torch.py generate           # ms per new token: compiled decode step vs eager
    python tools/bench_torch.py backend            # the corpus under torch.compile: graphs, recompiles
    python tools/bench_torch.py generate --threads 1   # one thread for PyTorch and IREE alike
    python tools/bench_torch.py generate --target cuda --device cuda   # on a machine with a GPU

Each part prints a markdown table for docs/reports/pytorch.md. ``cache``
runs the README's tiny Llama twice through ``opt_py.torch.compile`` and
twice through ``torch.compile(backend="opt_py")``, each run a new Python
process over one cache folder: the second process finds every module in the
cache. ``generate`` times greedy ``generate()`` of the corpus's decoders
(python/corpus/library_models.py configs) on one prompt, after a warm-up that
compiles; a new token's time is (time for N+1 new tokens - time for 1) / N,
the prefill left out. Needs the `models` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

LLAMA = dict(
    vocab_size=128,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
)

CACHE_RUN = """
import json, sys, time
start = time.perf_counter()
import torch
from transformers import LlamaConfig, LlamaForCausalLM
import opt_py.torch
import opt_py.torch.backend as backend
imported = time.perf_counter()
torch.manual_seed(0)
llama = LlamaForCausalLM(LlamaConfig(**json.loads(sys.argv[2]))).eval()
ids = torch.randint(0, 128, (1, 16))
t = time.perf_counter()
if sys.argv[1] == "export":
    compiled = opt_py.torch.compile(llama, (ids,), {"use_cache": False})
    out = compiled(ids).logits  # a CausalLMOutputWithPast, as the model returns it
    cached, compile_s = compiled.cached, compiled.seconds
else:
    compiled = torch.compile(llama, backend="opt_py")
    with torch.no_grad():
        out = compiled(ids, use_cache=False).logits
    [g] = backend.graphs()
    cached, compile_s = g.cached, g.seconds
first_call = time.perf_counter() - t
assert torch.allclose(out, llama(ids, use_cache=False).logits, rtol=1e-4, atol=1e-5)
print(json.dumps({"cached": cached, "compile_s": compile_s, "first_call_s": first_call,
                  "imports_s": imported - start}))
"""


def cache_part(args) -> None:
    rows = []
    with tempfile.TemporaryDirectory(prefix="opt-py-bench-cache-") as folder:
        env = {**os.environ, "OPT_PY_CACHE_DIR": folder}
        for door in ("export", "backend"):
            for run in ("first", "second"):
                proc = subprocess.run(
                    [sys.executable, "-c", CACHE_RUN, door, json.dumps(LLAMA)],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                r = json.loads(proc.stdout.strip().splitlines()[-1])
                rows.append((door, run, r))
    print("| front door | process | module | compile or cache load (s) | first call, tracing included (s) |")
    print("| --- | --- | --- | --- | --- |")
    names = {"export": "`opt_py.torch.compile`", "backend": '`torch.compile(backend="opt_py")`'}
    for door, run, r in rows:
        how = "from the cache" if r["cached"] else "compiled"
        print(f"| {names[door]} | {run} | {how} | {r['compile_s']:.3f} | {r['first_call_s']:.2f} |")


DECODERS = {
    "llama": ("LlamaForCausalLM", "LlamaConfig", None, "dense, GQA"),
    "mixtral": ("MixtralForCausalLM", "MixtralConfig", "MIXTRAL", "MoE, top-2 of 4"),
    "qwen2_moe": ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", "QWEN2_MOE", "MoE + shared expert"),
    "deepseek_v3": ("DeepseekV3ForCausalLM", "DeepseekV3Config", "DEEPSEEK_V3", "MLA, grouped routing"),
}


def per_token_ms(model, prompt, tokens: int, repeat: int) -> float:
    """Median over ``repeat`` of (time for tokens+1 new tokens - time for 1) / tokens, in ms."""
    import torch

    def timed(n):
        start = time.perf_counter()
        with torch.no_grad():
            model.generate(prompt, max_new_tokens=n, min_new_tokens=n, do_sample=False)
        return time.perf_counter() - start

    samples = []
    for _ in range(repeat):
        one, many = timed(1), timed(tokens + 1)
        samples.append((many - one) / tokens * 1e3)
    return statistics.median(samples)


def generate_part(args) -> None:
    import opt_py.corpus.library_models as lib
    import opt_py.torch
    import torch

    print(f"| decoder | what | eager (ms/token) | opt_py {args.target} (ms/token) | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for name in args.decoders:
        cls, cfg, extra, what = DECODERS[name]
        torch.manual_seed(0)
        model, _ = lib.transformers_model(
            cls, cfg, "sdpa", None, **{**lib.TINY, **(getattr(lib, extra) if extra else {})}
        )
        model = model.eval().to(args.device)
        prompt = torch.randint(0, lib.VOCAB, (1, 9), generator=torch.Generator().manual_seed(1)).to(args.device)
        eager = per_token_ms(model, prompt, args.tokens, args.repeat)
        torch._dynamo.reset()
        opt_py.torch.compile_generate(model, target=args.target, max_cache_len=prompt.shape[1] + args.tokens + 1)
        per_token_ms(model, prompt, 2, 1)  # compiles the prefill and the decode step
        compiled = per_token_ms(model, prompt, args.tokens, args.repeat)
        print(f"| {name} | {what} | {eager:.2f} | {compiled:.2f} | {compiled / eager:.2f}x |", flush=True)


BACKEND_SPECS = [
    "llama_eager_dyn",
    "qwen2_sdpa_dyn",
    "gemma2_eager_dyn",
    "mixtral_sdpa_dyn",
    "deepseek_v3_eager_dyn",
    "bert_sdpa_dyn",
    "vit_sdpa_dyn",
    "vae_decoder",
]


def backend_part(args) -> None:
    import opt_py.corpus.library_models as lib
    import opt_py.torch.backend as backend
    import torch

    print("| model | graphs | frames | recompiles | compile (s) | largest difference from eager |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in args.specs:
        s = next(x for x in lib.SPECS if x.name == name)
        torch._dynamo.reset()
        backend.reset()
        torch.manual_seed(s.seed)
        model, _ = s.build()
        model = model.eval()
        g = torch.Generator().manual_seed(1000 + s.seed)
        example = s.example(g)
        run = s.run(g, model)
        compiled = torch.compile(model, backend="opt_py", options={"target": args.target, "cache": False})
        worst = 0.0
        with torch.no_grad():
            for inputs in (example, run):
                got, want = compiled(*inputs), model(*inputs)
                got = got if isinstance(got, tuple) else (got,)
                want = want if isinstance(want, tuple) else (want,)
                worst = max([worst, *[float((a - b).abs().max()) for a, b in zip(got, want)]])
        graphs = backend.graphs()
        frames = len({x.compile_id.split("/")[0] for x in graphs})
        recompiles = sum(1 for x in graphs if not x.compile_id.endswith("/0"))
        seconds = sum(x.seconds for x in graphs)
        print(f"| {name} | {len(graphs)} | {frames} | {recompiles} | {seconds:.1f} | {worst:.1e} |", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("part", choices=["cache", "generate", "backend"])
    p.add_argument("--target", default="cpu")
    p.add_argument("--device", default="cpu", help="torch device of the model (generate)")
    p.add_argument("--decoders", nargs="*", default=list(DECODERS), choices=list(DECODERS))
    p.add_argument("--specs", nargs="*", default=BACKEND_SPECS)
    p.add_argument("--tokens", type=int, default=32)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument(
        "--threads", type=int, default=0, help="CPU threads for PyTorch and IREE's local-task alike (0: their defaults)"
    )
    args = p.parse_args(argv)
    if args.threads:
        import iree.runtime as rt
        import torch

        torch.set_num_threads(args.threads)
        rt.flags.parse_flags(f"--task_topology_group_count={args.threads}")
    {"cache": cache_part, "generate": generate_part, "backend": backend_part}[args.part](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

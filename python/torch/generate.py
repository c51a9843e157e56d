"""Hugging Face ``generate()`` on a causal LM whose every forward is compiled with opt-py's fixes.

    opt_py.torch.compile_generate(model, target="cpu")
    tokens = model.generate(ids, max_new_tokens=16, do_sample=False)

The model's ``forward`` becomes ``torch.compile(forward, backend="opt_py")``
(an attribute of this model alone; ``del model.forward`` undoes it), and its
generation config asks for a static KV cache: the prefill and each decode
step are then graphs of fixed shapes over cache tensors that live across
steps. The first prompt length compiles a prefill and a decode step, the
second makes the prompt length symbolic (one more of each), and every later
prompt reuses them. transformers' own compilation in ``generate`` is turned
off, so nothing compiles the compiled forward again with Inductor.
"""

from __future__ import annotations

import dataclasses

from .options import Options


def compile_generate(model, *, dynamic: bool | None = None, max_cache_len: int | None = None, **options):
    """Make ``model.generate(...)`` run every forward through the ``opt_py`` backend; returns ``model``.

    ``options`` are the backend's (target, fixes, iree_flags, ...), checked here; ``dynamic`` is
    ``torch.compile``'s (None: static shapes first, symbolic after a size changes). ``max_cache_len``
    sizes the static cache for every call (prompt + new tokens at most), so that no call recompiles for
    a longer cache; without it transformers sizes it by the longest call so far."""
    import torch

    opts = Options.from_mapping(options, "opt_py.torch.compile_generate")
    chosen = {f.name: getattr(opts, f.name) for f in dataclasses.fields(opts) if getattr(opts, f.name) != f.default}
    forward = type(model).forward.__get__(model)  # the class's forward, even if compiled before
    model.forward = torch.compile(forward, backend="opt_py", options=chosen or None, dynamic=dynamic)
    config = model.generation_config
    config.cache_implementation = "static"
    config.disable_compile = True
    if max_cache_len is not None:
        config.max_cache_len = max_cache_len
    return model

"""The PyTorch front doors to opt-py: ``torch.compile(model, backend="opt_py")`` and ``opt_py.torch.compile``.

``backend.py`` is the dynamo backend (found by PyTorch through the
``torch_dynamo_backends`` entry point, no import needed); ``export.py``
exports a module with iree-turbine and compiles it in one call; both compile
through ``build.py`` (the module cache, errors a user can act on) and call
through ``runtime.py`` (tensors by DLPack). ``generate.py`` runs Hugging Face
``generate()`` on a decoder compiled with the fixes. torch is imported only
when one of them is used.
"""

from .export import Compiled, compile
from .generate import compile_generate
from .options import Options

__all__ = ["Compiled", "Options", "clear_cache", "compile", "compile_generate"]


def clear_cache(cache_dir: str | None = None) -> int:
    """Remove every compiled module from the cache (``cache_dir`` or the default); how many there were."""
    from ..iree.module_cache import ModuleCache

    return ModuleCache(cache_dir).clear()

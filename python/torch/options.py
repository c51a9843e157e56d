"""What a PyTorch user chooses about a compile, as one checked value for both front doors.

``torch.compile(model, backend="opt_py", options={...})`` hands the backend a
dict; ``opt_py.torch.compile(model, ..., target=..., fixes=...)`` keyword
arguments. Both become an ``Options``: an unknown name is an error naming the
known ones, and each value is checked here, before anything is traced.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import OptPyError

# IREE demotes f64 to f32 by default, and a module whose f64 inputs were demoted then fails at run time
# (hal.buffer_view.create: half the bytes an f64 view needs); a program with f64 keeps it.
KEEP_F64 = "--iree-input-demote-f64-to-f32=false"


@dataclass(frozen=True)
class Options:
    """How opt-py compiles a PyTorch program (every field has a default)."""

    target: str = "cpu"  # cpu | cuda | rocm (execution/e2e.py's TARGETS)
    fixes: bool | str = True  # True: every opt-py fix; a comma-separated list: those; False: stock IREE
    iree_flags: tuple[str, ...] = ()  # more iree-compile flags, after the target's
    device: str | None = None  # the IREE runtime device (e.g. "cuda://1"); default: the target's, or the tensors'
    cache: bool = True  # load a module compiled before from the on-disk cache (iree/module_cache.py)
    cache_dir: str | None = None  # the cache's folder (default $OPT_PY_CACHE_DIR or the XDG cache)
    fallback: bool = False  # backend only: run a graph that fails to compile in eager PyTorch, with a warning

    def __post_init__(self):
        from ..execution.e2e import TARGETS

        if self.target not in TARGETS:
            raise OptPyError(f"unknown target '{self.target}' (targets: {', '.join(TARGETS)})")
        if not isinstance(self.fixes, (bool, str)):
            raise OptPyError(f"option 'fixes' is True, False or a comma-separated list of fixes, not {self.fixes!r}")
        if isinstance(self.fixes, str):
            from ..iree import fixes as fix_table

            fix_table.select(self.fixes)  # an unknown fix is an error naming the known ones
        flags = (self.iree_flags,) if isinstance(self.iree_flags, str) else self.iree_flags
        if not isinstance(flags, (list, tuple)) or not all(isinstance(f, str) for f in flags):
            raise OptPyError(f"option 'iree_flags' is a list of iree-compile flags, not {self.iree_flags!r}")
        object.__setattr__(self, "iree_flags", tuple(flags))
        for name in ("cache", "fallback"):
            if not isinstance(getattr(self, name), bool):
                raise OptPyError(f"option '{name}' is True or False, not {getattr(self, name)!r}")
        for name in ("device", "cache_dir"):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), str):
                raise OptPyError(f"option '{name}' is a string, not {getattr(self, name)!r}")

    @classmethod
    def from_mapping(cls, options, where: str) -> Options:
        """``options`` (a dict, an Options or None) checked: unknown names are an error naming the known."""
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options
        if not isinstance(options, dict):
            raise OptPyError(f"{where}: options are a dict, not {type(options).__name__}")
        known = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise OptPyError(
                f"{where}: unknown option(s) {', '.join(map(repr, unknown))} (options: {', '.join(known)})"
            )
        return cls(**options)

    def fix_spec(self) -> str | None:
        """The ``--fixes`` spec (``all`` or names), or None for stock IREE."""
        if self.fixes is False:
            return None
        return "all" if self.fixes is True else self.fixes

    def flags(self, f64: bool) -> list[str]:
        """iree-compile's flags: the target's, f64 kept when the program has any (``f64``), the user's."""
        from ..execution.e2e import TARGETS

        chosen = any(f.split("=")[0] == KEEP_F64.split("=")[0] for f in self.iree_flags)
        keep_f64 = [KEEP_F64] if f64 and not chosen else []
        return [*TARGETS[self.target].compile_flags, *keep_f64, *self.iree_flags]

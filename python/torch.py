"""A PyTorch ``nn.Module`` to a compiled, loaded IREE module with opt-py's fixes, in one call.

    compiled = opt_py.torch.compile(model, (x,), dynamic_shapes={"x": {0: Dim("n")}}, target="cpu")
    y = compiled(x)

The model is exported with iree-turbine (``aot.export``, non-strict, as the
library-model corpus is), compiled in process by ``opt-py compile`` with
``--fixes`` for the target (or only the fixes named, or none), and loaded
with the IREE runtime. torch and iree-turbine are imported only here, when
this module is used (``pip install 'opt-py[models]'``).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field

from .errors import OptPyError


@dataclass
class Compiled:
    """A loaded module: call it with tensors like the model; ``vmfb`` holds the module's bytes."""

    vmfb: bytes
    target: str
    function: str = "main"
    messages: list[str] = field(default_factory=list)  # what the compiler said (warnings)
    _call: object = None

    def __call__(self, *args):
        """Tensors in, tensors out (NumPy arrays in, arrays out); one result alone, several as a tuple."""
        import numpy as np

        if self._call is None:
            self._call = _load(self.vmfb, self.target, self.function)
        torch_in = any(type(a).__module__.startswith("torch") for a in args)
        outs = self._call(*[a.detach().cpu().numpy() if hasattr(a, "detach") else a for a in args])
        outs = [
            np.array(o.to_host() if hasattr(o, "to_host") else o)
            for o in (outs if isinstance(outs, (list, tuple)) else [outs])
        ]
        if torch_in:
            import torch

            outs = [torch.from_numpy(o) for o in outs]
        return outs[0] if len(outs) == 1 else tuple(outs)


def _load(vmfb: bytes, target: str, function: str):
    """The module's ``function``, loaded into a runtime context of its own on ``target``'s device."""
    import iree.runtime as rt

    from .iree import e2e

    config = rt.Config(e2e.TARGETS[target].device)
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.copy_buffer(config.vm_instance, vmfb))
    return ctx.modules.module[function]


def compile(
    model,
    args: tuple = (),
    kwargs: dict | None = None,
    *,
    dynamic_shapes=None,
    target: str = "cpu",
    fixes: bool | str = True,
    iree_flags: tuple[str, ...] = (),
    strict_export: bool = False,
) -> Compiled:
    """Export ``model`` on ``args``/``kwargs``, compile it for ``target`` (cpu, cuda, rocm) and load it.

    ``fixes``: True for every opt-py fix, a comma-separated list for some, False for stock IREE.
    A compile failure raises ``OptPyError`` with IREE's diagnostics.
    """
    from iree.turbine import aot

    from .iree import const_eval, e2e
    from .iree import fixes as fix_table
    from .iree.phases import compile_with_injections

    if target not in e2e.TARGETS:
        raise OptPyError(f"unknown target '{target}' (targets: {', '.join(e2e.TARGETS)})")
    exported = aot.export(
        model, args=tuple(args), kwargs=kwargs, dynamic_shapes=dynamic_shapes, strict_export=strict_export
    )
    flags = [*e2e.TARGETS[target].compile_flags, *iree_flags]
    phases, codegen, ours, notes = [], [], None, []
    if fixes:  # the fixes at their points, and inside the constants IREE evaluates at compile time
        chosen = fix_table.select("all" if fixes is True else fixes)
        phases, codegen = fix_table.injections(chosen, flags)
        ours, flags, notes = const_eval.takeover(chosen, flags)
    with tempfile.TemporaryDirectory(prefix="opt-py-torch-") as tmp:
        path = os.path.join(tmp, "model.mlirbc")
        exported.save_mlir(path)
        result = compile_with_injections(path, flags, phases, codegen_injections=codegen, const_eval=ours)
    if not result.ok:
        raise OptPyError("compiling the exported model failed:\n" + "\n".join(result.messages))
    return Compiled(result.output, target, messages=[*notes, *result.messages])

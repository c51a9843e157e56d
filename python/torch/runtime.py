"""A compiled module loaded on an IREE device and called with PyTorch tensors, without copies where the runtime allows.

Tensors cross by DLPack: a tensor on the module's device is handed to IREE as
it is (``HalDevice.from_dlpack_capsule``: the CPU's memory for ``cpu``, the
GPU's for ``cuda``/``rocm``), and each result comes back as a tensor over
the buffer IREE wrote (``create_dlpack_capsule``), on the device it was
computed on, unless the caller asks for another. A tensor on another device
than the module's crosses by a copy, and so does an argument the module
writes in place (IREE may reuse an argument's buffer at its last use, IREE
#16168; iree/written_arguments.py says which after compiling), unless the
caller overwrites it afterwards anyway. On a GPU, PyTorch's pending work
on the tensors' stream is waited for before IREE reads them; IREE's call
returns when its results are written. NumPy arrays in give NumPy arrays out
(copied, no torch needed). IREE may hand back an input's own buffer, or one
buffer for two results, where PyTorch would give new tensors: such results
are copied, so no result aliases what PyTorch would not.
"""

from __future__ import annotations

from ..errors import OptPyError

DLPACK_DEVICE = {"cpu": 1, "cuda": 2, "rocm": 10}  # DLPack's device type codes (kDLCPU, kDLCUDA, kDLROCM)


class Loaded:
    """``function`` of a module, loaded on ``target``'s device (or ``device``, an IREE device URI)."""

    def __init__(
        self,
        vmfb: bytes,
        target: str,
        device: str | None = None,
        function: str = "main",
        written=None,
        may_clobber=(),
        keep_outputs=None,
    ):
        """``written``: the arguments the module may write in place (iree/written_arguments.py; None: not
        known), lent only as copies, but for those in ``may_clobber`` (the caller overwrites them after
        the call anyway); a result in ``keep_outputs`` (output index -> argument index) may be that
        argument's own buffer (the caller copies it there)."""
        import iree.runtime as rt

        from ..execution.e2e import TARGETS

        self.target = target
        self.uri = device or TARGETS[target].device
        try:
            self.device = rt.get_device(self.uri)
        except Exception as e:
            raise OptPyError(f"the IREE runtime cannot open device '{self.uri}' for target '{target}': {e}") from e
        self.config = rt.Config(device=self.device)
        self.context = rt.SystemContext(config=self.config)
        module = rt.VmModule.copy_buffer(self.config.vm_instance, vmfb)
        self.context.add_vm_module(module)
        self.function = module.lookup_function(function)
        if self.function is None:
            raise OptPyError(f"the compiled module has no function '{function}' (it has {module.function_names})")
        self.device_id = _device_ordinal(self.uri)
        self.copied = None if written is None else set(written) - set(may_clobber)
        self.keep_outputs = dict(keep_outputs or {})

    def __call__(self, args, to=None, torch_out: bool | None = None) -> list:
        """``args`` (tensors, arrays, Python numbers) in, the results out: tensors where any argument is one
        or ``torch_out`` says so (on ``to``, a torch device, when given; else where IREE computed them),
        NumPy arrays otherwise."""
        import iree.runtime as rt

        torch_in = any(_is_torch(a) for a in args) if torch_out is None else torch_out
        if torch_in:
            _wait_for_torch(args)
        arg_list = rt.VmVariantList(len(args))
        keep = []  # what the buffers handed to IREE live in, until the call returns
        for i, a in enumerate(args):
            self._push(arg_list, a, keep, copy=self.copied is None or i in self.copied)
        results = rt.VmVariantList(8)
        self.context.vm_context.invoke(self.function, arg_list, results)
        outs = [self._result(results, i, torch_in) for i in range(results.size)]
        if torch_in:
            outs = _unaliased(outs, args, self.keep_outputs)
            if to is not None:
                outs = [o.to(to) if _is_torch(o) and o.device != to else o for o in outs]
        return outs

    def _push(self, arg_list, a, keep, copy: bool) -> None:
        import numpy as np

        if isinstance(a, (bool, int)) or type(a).__name__ in ("SymInt", "SymBool"):
            arg_list.push_int(int(a))
        elif isinstance(a, float):
            arg_list.push_float(a)
        elif _is_torch(a):
            arg_list.push_ref(self._import_tensor(a, keep, copy))
        elif isinstance(a, (np.ndarray, np.generic)):
            arg_list.push_ref(self._import_array(np.ascontiguousarray(a)))
        else:
            raise OptPyError(f"cannot pass a {type(a).__name__} to a compiled module (tensors, arrays and numbers)")

    def _import_tensor(self, t, keep, copy: bool):
        """``t`` as a buffer view on the module's device: its own memory when it is there and the module
        does not write it (``copy``), else a copy (a CPU tensor for a GPU module is moved there by PyTorch)."""
        own = t = t.detach()
        if self.target != "cpu" and t.device.type == "cpu":
            t = t.to(f"cuda:{self.device_id}")
        wanted = "cpu" if self.target == "cpu" else "cuda"
        if t.device.type != wanted:
            raise OptPyError(f"a tensor on {t.device} cannot reach a module compiled for '{self.target}'")
        if wanted == "cuda" and (t.device.index or 0) != self.device_id:
            raise OptPyError(
                f"a tensor on {t.device} reached the module on IREE device '{self.uri}' (GPU {self.device_id}):"
                f" pass options device='{self.uri.split(':')[0]}://{t.device.index}'"
            )
        t = t.contiguous()
        if copy and t.data_ptr() == own.data_ptr() and t.device == own.device:
            t = t.clone()  # IREE writes this argument in place: it gets a copy, the caller's stays as it is
        keep.append(t)
        return self.device.from_dlpack_capsule(t.__dlpack__())

    def _import_array(self, a):
        import iree.runtime as rt
        from iree.runtime.array_interop import map_dtype_to_element_type

        if a.dtype == bool:
            a = a.view("uint8")
            element = rt.HalElementType.BOOL_8
        else:
            element = map_dtype_to_element_type(a.dtype)
        return self.device.allocator.allocate_buffer_copy(
            memory_type=rt.MemoryType.DEVICE_LOCAL,
            allowed_usage=rt.BufferUsage.DEFAULT,
            device=self.device,
            buffer=a,
            element_type=element,
        )

    def _result(self, results, i: int, torch_out: bool):
        import iree.runtime as rt

        value = results.get_variant(i)
        if not isinstance(value, rt.VmRef):
            return value  # an i64 or f64 result: a Python number
        view = results.get_as_object(i, rt.HalBufferView)
        if not torch_out:
            import numpy as np

            return np.array(rt.DeviceArray(self.device, view, implicit_host_transfer=True).to_host())
        import torch

        return torch.from_dlpack(self.device.create_dlpack_capsule(view, DLPACK_DEVICE[self.target], self.device_id))

    def __repr__(self) -> str:
        return f"Loaded(target={self.target!r}, device={self.uri!r})"


def _is_torch(a) -> bool:
    return type(a).__module__.startswith("torch") and hasattr(a, "detach")


def _device_ordinal(uri: str) -> int:
    """The device index in an IREE device URI such as ``cuda://1`` (0 when it names none)."""
    tail = uri.partition("://")[2]
    return int(tail) if tail.isdigit() else 0


def _wait_for_torch(args) -> None:
    """Wait for PyTorch's queued work on the GPU tensors among ``args``: IREE reads them on its own stream."""
    devices = {a.device for a in args if _is_torch(a) and a.device.type == "cuda"}
    if devices:
        import torch

        for d in devices:
            torch.cuda.current_stream(d).synchronize()


def _unaliased(outs: list, args: list, keep=None) -> list:
    """``outs`` with a copy of each tensor whose memory an argument or an earlier result also holds, but
    for a result ``keep`` maps to an argument (output index -> argument index) when that argument's
    memory is the only other it meets."""
    import numpy as np

    keep = keep or {}
    spans = [(i, *_span(a)) for i, a in enumerate(args) if _is_torch(a) and a.numel()]
    owners = np.array([s[0] for s in spans], dtype=np.int64)
    starts = np.array([s[1] for s in spans], dtype=np.int64)
    ends = np.array([s[2] for s in spans], dtype=np.int64)
    fixed = []
    for j, o in enumerate(outs):
        if _is_torch(o) and o.numel():
            start, end = _span(o)
            met = owners[(starts < end) & (start < ends)]  # one address space (CUDA/ROCm unified addressing)
            if len(met) and not (j in keep and set(met.tolist()) == {keep[j]}):
                o = o.clone()
                start, end = _span(o)
            owners, starts, ends = np.append(owners, -1 - j), np.append(starts, start), np.append(ends, end)
        fixed.append(o)
    return fixed


def _span(t) -> tuple[int, int]:
    """The bytes a tensor reads: from its first element's address, as far as its last one."""
    start = t.data_ptr()
    last = sum((size - 1) * stride for size, stride in zip(t.shape, t.stride()) if size > 0)
    return start, start + (last + 1) * t.element_size()

"""Compiling a program with its dispatches traced, and running it to collect every trace.

The values come from IREE's own dispatch tracing: its pass
``iree-flow-inject-dispatch-tracing`` (what ``--iree-flow-trace-dispatch-tensors``
adds at the end of the flow phase; that flag is global, which the in-process
compiler cannot set per compilation, so the hunter injects the pass after the
``flow`` phase, where it places the same traces), labelled there by
``hunt_labels.label_traces``. At run time each trace reaches the HAL module's
debug sink; ``iree.runtime.HalModuleDebugSink`` hands over the buffer views
themselves, so the values are exact and arrive in execution order. The
program runs in a child process: a miscompiled dispatch may crash.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass

import numpy as np

from ..errors import OptPyError
from . import e2e
from .hunt_labels import Labels, label_traces

LABEL_PHASE = "flow"
TRACE_INJECTION = f"{LABEL_PHASE}:builtin.module(util.func(iree-flow-inject-dispatch-tracing))"


@dataclass
class Build:
    """How to compile one side: a target and injections."""

    target: e2e.Target
    inject: tuple = ()
    inject_codegen: tuple = ()
    flags: tuple = ()


def compile_traced(path: str, build: Build, trace: bool = True) -> tuple[bytes, Labels]:
    """The .vmfb of ``path`` with dispatch traces labelled, and the labels."""
    got: list[Labels] = []
    inject = (*build.inject, TRACE_INJECTION) if trace else build.inject
    vmfb = e2e.compile_program(
        path,
        build.target,
        inject=inject,
        inject_codegen=build.inject_codegen,
        extra_flags=build.flags,
        after_phase={LABEL_PHASE: [lambda m: got.append(label_traces(m))]} if trace else None,
    )
    return vmfb, (got[0] if got else Labels())


_RUNNER = r"""
import os, sys
import numpy as np
import iree.runtime as rt

vmfb, device, function, out = sys.argv[1:5]
dev = rt.get_device(device)
inst = rt.VmInstance()
keys = open(os.path.join(out, "keys.txt"), "w")
count = [0]

def sink(key, views):
    arrays = [np.asarray(rt.DeviceArray(dev, v, implicit_host_transfer=True).to_host()) for v in views]
    np.savez(os.path.join(out, "e%d.npz" % count[0]), *arrays)
    keys.write(key + "\n")
    keys.flush()
    count[0] += 1

hal = rt.create_hal_module(inst, dev, debug_sink=rt.HalModuleDebugSink(sink))
with open(vmfb, "rb") as f:
    module = rt.VmModule.copy_buffer(inst, f.read())
ctx = rt.VmContext(inst, modules=[hal, module])
fn = module.lookup_function(function)
if fn is None:
    sys.stderr.write("no function '%s' in the module\n" % function)
    sys.stderr.flush()
    os._exit(3)
args = []
for a in sys.argv[5:]:
    kind, path = a.split(":", 1)
    x = np.load(path)
    args.append(x.item() if kind == "s" else x)
res = rt.FunctionInvoker(ctx, dev, fn)(*args)
res = list(res) if isinstance(res, (list, tuple)) else [res]
np.savez(os.path.join(out, "results.npz"), *[np.asarray(r.to_host() if hasattr(r, "to_host") else r) for r in res])
keys.close()
sys.stdout.flush()
os._exit(0)  # skip interpreter teardown: the runtime's objects outlive it
"""


@dataclass
class Event:
    site: int
    arrays: list


@dataclass
class Trace:
    events: list[Event]
    results: list


def run_traced(vmfb: bytes, target: e2e.Target, function: str, inputs, timeout: float = 600) -> Trace:
    """Run in a child process; every trace's arrays in execution order, and the results."""
    with tempfile.TemporaryDirectory() as tmp:
        module = os.path.join(tmp, "m.vmfb")
        with open(module, "wb") as f:
            f.write(vmfb)
        args = [sys.executable, "-c", _RUNNER, module, target.device, function, tmp]
        for i, a in enumerate(inputs):
            p = os.path.join(tmp, f"in{i}.npy")
            np.save(p, a)
            args.append(("s:" if isinstance(a, np.generic) else "t:") + p)
        try:
            proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise OptPyError(f"the traced program did not finish in {timeout} s") from None
        if proc.returncode != 0:
            tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
            raise OptPyError(f"the traced program failed (exit {proc.returncode}):\n{tail}")
        events = []
        with open(os.path.join(tmp, "keys.txt")) as f:
            for i, key in enumerate(f.read().splitlines()):
                words = key.split(" ", 2)
                if words[0] != "hunt":
                    continue  # a trace the program makes itself
                with np.load(os.path.join(tmp, f"e{i}.npz")) as z:
                    events.append(Event(int(words[1]), [z[f"arr_{j}"] for j in range(len(z.files))]))
        with np.load(os.path.join(tmp, "results.npz")) as z:
            results = [z[f"arr_{j}"] for j in range(len(z.files))]
    return Trace(events, results)

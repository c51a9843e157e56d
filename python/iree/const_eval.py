"""IREE's constant evaluation, done by opt-py so that the fixes run inside it.

IREE's ``iree-consteval-jit-globals`` (near the end of global-optimization)
compiles each eligible ``util.initializer`` as a function of a module of its
own, with default options for the host CPU, runs it, and makes the values it
stores the globals' initial values. Passes injected into the outer compile
never reach that compilation. With ``--fixes``, opt-py turns IREE's off
(``--iree-opt-const-eval=false``) and does the same at the global-optimization
stop: the initializers IREE would pick, the module IREE would build, compiled
by opt-py's in-process compile with the fixes for the CPU, run with the IREE
runtime, the results written back as IREE writes them, then the cleanup IREE
runs after const-eval. An initializer opt-py cannot prove IREE would evaluate
(IREE's const-expr analysis is C++ only) is left to run time, with a note.
What reaches the nested compile and what does not: docs/reference/const-eval.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..errors import CompileError, OptPyError
from .const_eval_analysis import Analysis, as_resource, attribute, op_name, text_of, top_ops
from .const_eval_plan import HAL_ELEMENTS, WIDTHS, Jit, Plan, element_key, plan

PHASE = "global-optimization"  # IREE's const-eval runs near its end; the step runs at its stop

# The cleanup IREE runs after const-eval (GlobalOptimization/Passes.cpp, on util.initializer and util.func).
TAIL = "iree-flow-canonicalize,cse,iree-global-opt-raise-special-ops"
TAIL_PIPELINE = f"builtin.module(util.initializer({TAIL}),util.func({TAIL}))"

# The JIT's compile options (ConstEval/JitGlobals.cpp): default-constructed option structs, the host CPU
# through the local device, f32/f64 in the VM, 64-bit index, no float truncation or f64 demotion, no
# recursive const-eval. Default-constructed structs see no optimization level, so the options a level
# sets are given at the structs' defaults; the outer --iree-opt-level reaches only the CPU codegen
# options, as for IREE's JIT (whose llvm-cpu backend is the outer session's).
JIT_FLAGS = (
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
    "--iree-opt-const-eval=false",
    "--iree-opt-const-expr-hoisting=false",
    "--iree-vm-target-extension-f32=true",
    "--iree-vm-target-extension-f64=true",
    "--iree-vm-target-index-bits=64",
    "--iree-vm-target-truncate-unsupported-floats=false",
    "--iree-input-demote-f64-to-f32=false",
    "--iree-global-optimization-opt-level=O0",
    "--iree-opt-aggressively-propagate-transposes=false",
    "--iree-opt-outer-dim-concat=false",
    "--iree-opt-strip-assertions=false",
    "--iree-opt-generalize-matmul=false",
    "--iree-dispatch-creation-opt-level=O2",
    "--iree-dispatch-creation-enable-aggressive-fusion=false",
)
# Outer flags that reach IREE's JIT through the outer session's llvm-cpu backend: the optimization level
# (its CPU codegen defaults), the CPU codegen options and the linkers. The llvm-cpu target flags (triple,
# cpu, features, ...) do not: the JIT compiles for the host.
PASSED_ON = (
    "--iree-opt-level",
    "--iree-llvmcpu-mlir-opt-level",
    "--iree-llvmcpu-disable-distribution",
    "--iree-llvmcpu-experimental-vectorize-to-transfer-gather",
    "--iree-llvmcpu-fail-on-out-of-bounds-stack-allocation",
    "--iree-llvmcpu-instrument-memory-accesses",
    "--iree-llvmcpu-reassociate-fp-reductions",
    "--iree-llvmcpu-skip-intermediate-roundings",
    "--iree-llvmcpu-use-decompose-softmax-fuse",
    "--iree-llvmcpu-use-fast-min-max-ops",
    "--iree-codegen-add-tuner-attributes",
    "--iree-codegen-emit-pipeline-constraints",
    "--iree-codegen-experimental-verify-pipeline-constraints",
    "--iree-codegen-tuning-spec-path",
    "--iree-config-add-tuner-attributes",
    "--iree-llvmcpu-embedded-linker-path",
    "--iree-llvmcpu-system-linker-path",
    "--iree-llvmcpu-wasm-linker-path",
    "--iree-llvmcpu-keep-linker-artifacts",
)
# Outer flags under which opt-py leaves const-eval to IREE: passes IREE runs between its const-eval and the
# end of the phase, or a JIT on another device than the host CPU.
KEPT_BY_IREE = {
    "--iree-opt-numeric-precision-reduction": "numeric precision reduction runs right after IREE's const-eval",
    "--iree-parameter-export": "parameters are exported right after IREE's const-eval",
    "--iree-opt-export-parameters": "parameters are exported right after IREE's const-eval",
    "--iree-parameter-splat": "the splat parameter archive is written right after IREE's const-eval",
    "--iree-opt-splat-parameters": "the splat parameter archive is written right after IREE's const-eval",
    "--iree-consteval-jit-target-device": "IREE's const-eval is asked for another device",
    "--iree-hal-local-host-device-backends": "IREE's const-eval is asked for another host backend",
}
DEFAULTS_OF_KEPT = ("", "false", "local", "llvm-cpu")  # values of those flags that change nothing


@dataclass
class ConstEval:
    """How opt-py evaluates constants in one compile: the nested compile's flags and injections."""

    OPS = ("util.initializer",)  # the ops its step has work on: a module without one needs no export

    flags: list[str]
    injections: list = field(default_factory=list)  # phases.Injection: the fixes for the host CPU
    codegen: list = field(default_factory=list)  # codegen.CodegenInjection
    rewrites: list = field(default_factory=list)  # what the fixes rewrote in the nested compiles
    evaluated: list = field(default_factory=list)  # the labels of the initializers evaluated
    seconds: dict = field(default_factory=dict)  # wall time of each part: plan, compile, run, cleanup

    def __call__(self, c, module):
        """The step at the global-optimization stop (``compile_with_injections(const_eval=self)``)."""
        return evaluate(self, c, module)


def _value(flags, name: str) -> str | None:
    """The value of the last ``name`` in ``flags`` ('true' for a bare flag), None when absent."""
    found = None
    for f in flags:
        key, eq, value = f.partition("=")
        if key == name:
            found = value if eq else "true"
    return found


def takeover(fixes_for, iree_flags, compile_to: str | None = None) -> tuple[ConstEval | None, list[str], list[str]]:
    """(the const-eval opt-py runs, the outer flags, notes); ``fixes_for(nested_flags)`` gives the phase and
    codegen injections of the fixes for the nested compile (fixes.const_eval_takeover passes the chosen ones).

    None when const-eval stays IREE's: the user turned it off, the compile stops at or before
    global-optimization (the fixes of that phase are left out then too), or a flag needs IREE's own
    const-eval (a note says which)."""
    from . import compiler_api
    from .phases import PHASES

    flags = list(iree_flags)
    if (_value(flags, "--iree-opt-const-eval") or "true").lower() in ("false", "0"):
        return None, flags, []
    if compile_to in PHASES and PHASES.index(compile_to) <= PHASES.index(PHASE):
        return None, flags, []
    for name, why in KEPT_BY_IREE.items():
        value = _value(flags, name)
        if value is not None and value.lower() not in DEFAULTS_OF_KEPT:
            note = f"opt-py: note: const-eval is left to IREE, where the fixes do not reach it: {name} ({why})"
            return None, flags, [note]
    passed = [f for f in flags if f.partition("=")[0] in PASSED_ON]
    nested = [*JIT_FLAGS, *passed, *[f for f in compiler_api.process_wide_set() if f not in passed]]
    injections, codegen = fixes_for(nested)
    return ConstEval(nested, injections, codegen), [*flags, "--iree-opt-const-eval=false"], []


# --------------------------------------------------------------------------
# Values between the compiler and the runtime: ConstEval/Runtime.cpp
# --------------------------------------------------------------------------


def _serialized(attrs: list) -> list[bytes]:
    """The bytes IREE's JIT hands the runtime for each tensor value (``SerializableAttrInterface``: splats
    expanded, i1 a byte each): serialized by IREE itself, its parameter export writing them into an
    archive (as mutable globals: every entry whole), read back with the runtime. The bindings read
    neither ``dense_resource`` blobs nor bf16 elements."""
    import iree.runtime as rt
    from iree.compiler import ir, passmanager

    if not attrs:  # the export writes no archive then
        return []
    scratch = ir.Module.create()
    with ir.InsertionPoint(scratch.body):
        for i, a in enumerate(attrs):
            t = a.type if isinstance(a, ir.DenseElementsAttr) else as_resource(a).type
            attributes = {
                "sym_name": ir.StringAttr.get(f"v{i}"),
                "sym_visibility": ir.StringAttr.get("private"),
                "type": ir.TypeAttr.get(t),
                "initial_value": a,
                "is_mutable": ir.UnitAttr.get(),
            }
            ir.Operation.create("util.global", attributes=attributes)
    with tempfile.TemporaryDirectory(prefix="opt-py-const-eval-") as tmp:
        path = os.path.join(tmp, "arguments.irpa")
        passmanager.PassManager.parse(f"builtin.module(iree-io-export-parameters{{path={path}}})").run(
            scratch.operation
        )
        index = rt.ParameterIndex()
        index.load(path, mmap=False)
        entries = dict(index.items())
        return [
            bytes(memoryview(rt.parameter_index_entry_as_numpy_flat_ndarray(entries[f"v{i}"])))
            for i in range(len(attrs))
        ]


def _to_runtime(rt, device, attr, data: bytes | None):
    """``attr`` as IREE's JIT passes it: a buffer view of its serialized ``data``, or an i8..i64/f32/f64 value."""
    import numpy as np
    from iree.compiler import ir

    if isinstance(attr, ir.IntegerAttr):
        return int(attr.value)
    if isinstance(attr, ir.FloatAttr):
        return float(attr.value)
    t = attr.type if isinstance(attr, ir.DenseElementsAttr) else as_resource(attr).type
    key = element_key(t)
    return device.allocator.allocate_buffer_copy(
        memory_type=rt.MemoryType.DEVICE_LOCAL,
        allowed_usage=rt.BufferUsage.DEFAULT,
        device=device,
        buffer=np.frombuffer(data, dtype=f"u{WIDTHS[key]}").reshape(t.shape),
        element_type=getattr(rt.HalElementType, HAL_ELEMENTS[key]),
    )


def _from_runtime(rt, value, global_type):
    """A result as IREE's JIT writes it back (convertVariantToAttribute): a buffer view to
    ``DenseElementsAttr::getFromRawBuffer`` of its bytes; a value to an integer or float attribute."""
    import numpy as np
    from iree.compiler import ir

    if isinstance(value, bool | int):
        return ir.IntegerAttr.get(global_type, int(value))
    if isinstance(value, float):
        return ir.FloatAttr.get(global_type, value)
    name = rt.HalElementType(value.element_type).name
    element = _ELEMENT_TYPES.get(name) or (f"i{name.split('_')[-1]}" if name.split("_")[0] in _INTS else None)
    if element is None:
        raise CompileError(f"unrecognized evaluated buffer view element type: {name}")
    t = ir.RankedTensorType.get(list(value.shape), ir.Type.parse(element))
    data = np.array(value.map().asarray([value.byte_length], np.dtype(np.uint8)), copy=True)
    return ir.DenseElementsAttr.get(data, type=t)


_ELEMENT_TYPES = {"BOOL_8": "i1", "FLOAT_16": "f16", "FLOAT_32": "f32", "FLOAT_64": "f64", "BFLOAT_16": "bf16"}
_INTS = ("INT", "SINT", "UINT")


# --------------------------------------------------------------------------
# The step
# --------------------------------------------------------------------------


def evaluate(cfg: ConstEval, c, module):
    """Evaluate what IREE's const-eval would, with the fixes inside; None to go on, or the failed result."""
    from iree.compiler import ir

    clock = _Clock(cfg.seconds)
    with c.ctx, ir.Location.unknown():
        with clock("plan"):
            chosen = plan(module)
        c.messages += chosen.notes
        if not chosen.jits:
            return None
        with clock("compile"):
            vmfb, culprits, nested = _compile(cfg, chosen)
        for name, took in nested.seconds.items():
            c.hooks.seconds[name] = c.hooks.seconds.get(name, 0.0) + took
        if c.hooks.rewrites is not None:
            c.hooks.rewrites += nested.rewrites
        if not nested.ok:
            c.messages += _with_sources(nested.messages, c.sources)
            why = next((m for m in reversed(nested.messages) if m.startswith(ERROR)), ERROR)[len(ERROR) :]
            why = why.replace("IREE compilation failed", "compiling it for the host CPU failed")
            return c.failed(f"const-eval of {' and '.join(j.label() for j in culprits)} failed: {why}")
        try:
            with clock("run"):
                _run(vmfb, chosen.jits, Analysis.globals_of(module))
        except _JitFailed as e:
            return c.failed(str(e))
        for jit in chosen.jits:
            jit.init.operation.erase()
        cfg.evaluated += [jit.label() for jit in chosen.jits]
    with clock("cleanup"):
        if not c.run_pipeline(TAIL_PIPELINE, module):
            return c.failed("IREE's cleanup after const-eval failed")
    return None


class _Clock:
    def __init__(self, seconds: dict):
        self.seconds = seconds

    @contextmanager
    def __call__(self, part: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[part] = self.seconds.get(part, 0.0) + time.perf_counter() - start


ERROR = "opt-py: error: "


class _JitFailed(Exception):
    pass


def _compile(cfg: ConstEval, chosen: Plan):
    """The JIT module compiled by opt-py's in-process compile with the fixes: (vmfb, [], result), or on
    failure (b'', the initializers whose functions fail, the failed result: its diagnostics)."""
    result = _compile_module(cfg, chosen.jit_module)
    if result.ok:
        return result.output, [], result
    culprits = list(chosen.jits)
    if len(chosen.jits) > 1:  # compile the functions one at a time to name the one that fails
        for jit in chosen.jits:
            alone = _compile_module(cfg, _only(chosen.jit_module, jit.name))
            if not alone.ok:
                culprits, result = [jit], alone
                break
    messages = [m for m in result.messages if not m.startswith(ERROR)] + [
        m for m in result.messages if m.startswith(ERROR)
    ][-1:]
    result.messages = messages
    return b"", culprits, result


def _with_sources(messages: list[str], sources: dict) -> list[str]:
    """The nested compile's diagnostics, each with its line of the user's source (the nested compile read
    only the JIT module); its own last error is left out."""
    import re

    from ..run.diagnostics import Diag, render

    out = []
    for m in messages:
        if m.startswith(ERROR):
            continue
        found = re.match(r"^(.+?):(\d+):(\d+): (error|warning|note|remark): (.*)$", m, re.S)
        if found and "\n" not in m:
            f, line, col, severity, text = found.groups()
            m = render(Diag(severity, text, f, int(line), int(col)), {}, sources)
        out.append(m)
    return out


def _only(jit_module, name: str):
    """A copy of ``jit_module`` with the function ``name`` alone (and every object)."""
    copy = jit_module.operation.clone()
    for op in top_ops(copy):
        if op_name(op) == "util.func" and text_of(attribute(op, "sym_name")) != name:
            op.erase()
    return copy


def _compile_module(cfg: ConstEval, jit_module):
    from ..run import progress
    from .phases import CompileResult, compile_with_injections

    with tempfile.TemporaryDirectory(prefix="opt-py-const-eval-") as tmp:
        path = os.path.join(tmp, "jit.mlirbc")
        with open(path, "wb") as f:
            jit_module.operation.write_bytecode(f)
        if progress.diagnosis:  # a crash re-run set IREE's options for this whole process: compile elsewhere
            return _compile_in_child(cfg, path, os.path.join(tmp, "jit.vmfb"))
        with progress.step("stop", "const-eval: the nested compile"):
            try:
                result = compile_with_injections(
                    path, cfg.flags, cfg.injections, codegen_injections=cfg.codegen, record_rewrites=True
                )
            except OptPyError as e:
                result = CompileResult(False, messages=[f"{ERROR}{e}"])
    cfg.rewrites += result.rewrites
    return result


def _compile_in_child(cfg: ConstEval, path: str, out: str):
    """The nested compile as ``opt-py compile`` in a process of its own (a crash re-run's)."""
    from .phases import CompileResult

    inject = [a for j in cfg.injections for a in ("--inject", f"{j.phase}:{j.pipeline}")]
    inject += [
        a
        for x in cfg.codegen
        for a in ("--inject-codegen", f"{x.where}:{x.pass_name}#{x.occurrence or '*'}:{x.pipeline}")
    ]
    env = dict(os.environ, OPT_PY_NO_SERVER="1")
    cmd = [sys.executable, "-m", "opt_py", "compile", path, "-o", out, *inject, *cfg.flags]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    messages = proc.stderr.splitlines()
    if proc.returncode != 0:
        return CompileResult(False, messages=messages or [f"{ERROR}the nested compile exited {proc.returncode}"])
    with open(out, "rb") as f:
        return CompileResult(True, f.read(), messages)


def _run(vmfb: bytes, jits: list[Jit], globals_: dict) -> None:
    """Run each function in order on local-task, as IREE's JIT does, setting the globals it stores."""
    import iree.runtime as rt
    from iree.compiler import ir

    device = rt.get_device("local-task")
    instance = rt.VmInstance()
    main = rt.VmModule.copy_buffer(instance, vmfb)
    context = rt.VmContext(instance, modules=[rt.create_hal_module(instance, device), main])
    for jit in jits:
        values = [attribute(globals_[g], "initial_value") for g in jit.loads]
        for g, value in zip(jit.loads, values):
            if value is None:  # as IREE's JIT fails when an initializer it refused left a global unset
                raise _JitFailed(
                    f"const-eval of {jit.label()} failed: internal error: jit global source initialization order "
                    f"invalid: global @{g} has no value"
                )
        values += jit.constants
        tensors = [v for v in values if not isinstance(v, (ir.IntegerAttr, ir.FloatAttr))]
        try:
            serialized = dict(zip(map(id, tensors), _serialized(tensors)))
        except (ir.MLIRError, ValueError, RuntimeError) as e:  # IREE's export, the runtime's reading
            raise _JitFailed(f"const-eval of {jit.label()} failed: serializing its arguments: {e}") from None
        args = rt.VmVariantList(len(values))
        for value in values:
            arg = _to_runtime(rt, device, value, serialized.get(id(value)))
            if isinstance(arg, int):
                args.push_int(arg)
            elif isinstance(arg, float):
                args.push_float(arg)
            else:
                args.push_ref(arg)
        rets = rt.VmVariantList(len(jit.globals))
        try:
            context.invoke(main.lookup_function(jit.name), args, rets)
        except (RuntimeError, ValueError) as e:  # the runtime's status, as the bindings raise it
            raise _JitFailed(f"const-eval of {jit.label()} failed: runtime error in consteval: {e}") from None
        for i, g in enumerate(jit.globals):
            global_type = ir_type(attribute(globals_[g], "type"))
            value = rets.get_variant(i)
            if not isinstance(value, int | float):
                value = rets.get_as_object(i, rt.HalBufferView)
            try:
                globals_[g].operation.attributes["initial_value"] = _from_runtime(rt, value, global_type)
            except (CompileError, ValueError) as e:
                raise _JitFailed(f"const-eval of {jit.label()} failed: {e}") from None


def ir_type(attr):
    from iree.compiler import ir

    return attr.value if isinstance(attr, ir.TypeAttr) else attr

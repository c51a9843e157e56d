"""Compile a program, run it through the IREE runtime, compare with a reference.

Shared by ``opt-py compare`` and the test/e2e harness. Programs run two ways,
both the ways users run them: the ``iree-run-module`` CLI (``--module``,
``--device``, ``--function``, ``--input=@x.npy``, ``--output=@y.npy``) and the
``iree.runtime`` Python API (in worker.py's child process, loaded read-only
and called twice, so that a module that faults or writes its own constants is
reported, not a crash or a silently wrong number).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass

import numpy as np

from ..errors import OptPyError


@dataclass(frozen=True)
class Target:
    name: str
    compile_flags: tuple[str, ...]
    device: str  # runtime device (iree-run-module --device)
    driver: str  # runtime driver whose presence decides whether it can run


TARGETS = {
    "cpu": Target(
        "cpu",
        (
            "--iree-hal-target-device=local",
            "--iree-hal-local-target-device-backends=llvm-cpu",
            "--iree-llvmcpu-target-cpu=host",
        ),
        "local-task",
        "local-task",
    ),
    "cuda": Target("cuda", ("--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"), "cuda", "cuda"),
    "rocm": Target("rocm", ("--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"), "hip", "hip"),
}


def device_available(target: Target) -> tuple[bool, str]:
    """Whether the runtime can create ``target``'s device here, and why not."""
    import iree.runtime as rt

    if target.driver not in rt.query_available_drivers():
        return False, f"the IREE runtime has no '{target.driver}' driver"
    try:
        rt.get_device(target.device, cache=False)
    except Exception as e:  # noqa: BLE001 - any failure to open the device means "absent"
        return False, f"no '{target.device}' device: {str(e).splitlines()[0]}"
    return True, ""


# --------------------------------------------------------------------------
# Compiling
# --------------------------------------------------------------------------


def compile_program(
    path: str, target: Target, *, inject=(), inject_codegen=(), extra_flags=(), after_phase=None, fixes=None
) -> bytes:
    """The .vmfb of ``path`` for ``target`` with the injections (opt-py compile), after ``--fixes=fixes``
    when given; ``after_phase``: see ``phases.compile_with_injections``."""
    result = compile_result(
        path,
        target,
        inject=inject,
        inject_codegen=inject_codegen,
        extra_flags=extra_flags,
        after_phase=after_phase,
        fixes=fixes,
    )
    if not result.ok:
        raise OptPyError("compilation failed:\n" + "\n".join(result.messages))
    return result.output


def compile_result(
    path: str,
    target: Target,
    *,
    inject=(),
    inject_codegen=(),
    extra_flags=(),
    after_phase=None,
    fixes=None,
    leave_out=(),
    record_rewrites=False,
):
    """``compile_program``'s compile, its ``phases.CompileResult`` as it is (failed or not); ``leave_out``
    and ``record_rewrites``: see ``fixes.compile_with_fixes`` and ``phases.compile_with_injections``."""
    from ..iree.codegen import CodegenInjection
    from ..iree.phases import Injection, compile_with_injections

    flags = [*target.compile_flags, *extra_flags]
    phase = [Injection.parse(s) for s in inject]
    codegen = [CodegenInjection.parse(s) for s in inject_codegen]
    if fixes is None:
        return compile_with_injections(
            path, flags, phase, codegen_injections=codegen, after_phase=after_phase, record_rewrites=record_rewrites
        )
    from ..iree.fixes import compile_with_fixes

    result, _ = compile_with_fixes(
        path,
        flags,
        fixes,
        injections_after=tuple(phase),
        codegen_after=tuple(codegen),
        after_phase=after_phase,
        leave_out=tuple(leave_out),
        record_rewrites=record_rewrites,
    )
    return result


WORKGROUP_MEMORY_LIMIT = 65536  # bytes, gfx942 and sm_80 (IREE's target info)


def workgroup_memory_bytes(dump_dir, targets_ir: str) -> int:
    """An upper bound of any kernel's workgroup (shared) memory: the largest
    static allocation in IREE's dumped intermediates (LDS in the ROCm
    assembly, addrspace(3) globals in the LLVM IR) plus the largest dynamic
    one an export declares (``workgroup_local_memory``, how the CUDA target
    sizes it). ``dump_dir``: ``--iree-hal-dump-executable-intermediates-to``;
    ``targets_ir``: the program compiled to executable-targets."""
    import re
    from pathlib import Path

    dump_dir = Path(dump_dir)
    static = [0]
    for p in dump_dir.glob("*.rocmasm"):
        static += [int(n) for n in re.findall(r"\.amdhsa_group_segment_fixed_size (\d+)", p.read_text())]
    elem = {"float": 4, "half": 2, "bfloat": 2, "double": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8}
    for p in dump_dir.glob("*.optimized.ll"):
        total = 0
        for ty in re.findall(r"addrspace\(3\) global (\[[^=]*?\]) ", p.read_text()):
            dims = [int(d) for d in re.findall(r"(\d+) x", ty)]
            total += int(np.prod(dims)) * elem[re.search(r"x (\w+)\]+$", ty).group(1)]
        static.append(total)
    dynamic = [0] + [int(n) for n in re.findall(r"workgroup_local_memory = (\d+)", targets_ir)]
    return max(static) + max(dynamic)


def workgroup_memory(path: str, target: Target, *, inject=(), extra_flags=()) -> int:
    """Compile ``path`` for a GPU ``target`` and measure it (workgroup_memory_bytes)."""
    from ..iree.phases import Injection, compile_with_injections

    with tempfile.TemporaryDirectory() as dump:
        flags = [*target.compile_flags, *extra_flags]
        compile_program(
            path,
            target,
            inject=inject,
            extra_flags=[*extra_flags, f"--iree-hal-dump-executable-intermediates-to={dump}"],
        )
        res = compile_with_injections(
            path, flags, [Injection.parse(s) for s in inject], compile_to="executable-targets"
        )
        if not res.ok:
            raise OptPyError("compilation failed:\n" + "\n".join(res.messages))
        return workgroup_memory_bytes(dump, res.output.decode())


def machine_code(path: str, target: Target, *, inject=(), extra_flags=()) -> list[str]:
    """The instructions of ``path``'s executables compiled for a CPU ``target``
    (the ``.s`` IREE dumps), without directives and debug locations, and with
    each function renamed by its position: two compilations that lower to the
    same code compare equal even where IREE names the dispatches differently."""
    import re
    from pathlib import Path

    with tempfile.TemporaryDirectory() as dump:
        compile_program(
            path,
            target,
            inject=inject,
            extra_flags=[*extra_flags, f"--iree-hal-dump-executable-intermediates-to={dump}"],
        )
        files = sorted(Path(dump).glob("*.s"))
        if not files:
            raise OptPyError(f"no assembly dumped for target {target.name}: machine_code needs a CPU target")
        code = []
        for p in files:
            text = p.read_text()
            names = re.findall(r"^\s*\.type\s+([^,\s]+),@function", text, re.M)
            rename = {n: f"fn{i}" for i, n in enumerate(names)}
            symbol = (
                re.compile(
                    r"(?<![\w.$])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w.$])"
                )
                if names
                else None
            )
            for line in text.splitlines():
                if line.startswith("\t") and not line.lstrip().startswith("."):
                    ins = line.strip()
                    code.append(symbol.sub(lambda m, rename=rename: rename[m.group(1)], ins) if symbol else ins)
        return code


# --------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------

_NP_TYPES = {
    "f32": np.float32,
    "f16": np.float16,
    "f64": np.float64,
    "i32": np.int32,
    "i64": np.int64,
    "i8": np.int8,
    "i16": np.int16,
    "i1": np.bool_,
}


def signature(program_text: str, function: str) -> list[tuple[list[int | None] | None, str]]:
    """(shape with None for dynamic dims, element type) of each argument; shape None for a scalar."""
    from iree.compiler import ir

    from ..patterns.ir_utils import operation

    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(program_text)
        for op in module.body.operations:
            if operation(op).name in ("func.func", "util.func") and op.attributes["sym_name"].value == function:
                ftype = op.attributes["function_type"].value
                out = []
                for t in ftype.inputs:
                    if str(t) in _NP_TYPES:
                        out.append((None, str(t)))
                        continue
                    if not isinstance(t, ir.RankedTensorType):
                        raise OptPyError(f"argument of type {t} is neither a ranked tensor nor a scalar")
                    rt_ = t
                    shape = [None if rt_.is_dynamic_dim(i) else rt_.get_dim_size(i) for i in range(rt_.rank)]
                    out.append((shape, str(rt_.element_type)))
                return out
    raise OptPyError(f"no function '@{function}' in the program")


def random_inputs(sig, seed: int = 0, dynamic_size: int = 7) -> list[np.ndarray]:
    """Arrays for tensor arguments; numpy scalars (not 0-d arrays) for scalar ones."""
    rng = np.random.default_rng(seed)
    arrays = []
    for shape, elem in sig:
        dims = [] if shape is None else [dynamic_size if d is None else d for d in shape]
        if elem == "bf16":
            raise OptPyError("random bf16 inputs are not supported; give inputs with --input")
        dtype = _NP_TYPES.get(elem)
        if dtype is None:
            raise OptPyError(f"no random generator for element type {elem}")
        if np.issubdtype(dtype, np.floating):
            arrays.append(rng.standard_normal(dims).astype(dtype))
        elif dtype is np.bool_:
            arrays.append(rng.integers(0, 2, dims).astype(np.bool_))
        else:
            arrays.append(rng.integers(-50, 50, dims).astype(dtype))
        if shape is None:
            arrays[-1] = arrays[-1][()]  # a numpy scalar: passed to the function as a primitive value
    return arrays


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


def run_cli(
    vmfb: bytes, target: Target, function: str, inputs, n_outputs: int, timeout: float | None = None
) -> list[np.ndarray]:
    """Run through ``iree-run-module`` with .npy files in and out (a crash or
    a hang, say of a miscompiled program, stays in that process)."""
    tool = runtime_tool("iree-run-module")
    with tempfile.TemporaryDirectory() as tmp:
        module = os.path.join(tmp, "m.vmfb")
        with open(module, "wb") as f:
            f.write(vmfb)
        args = [tool, f"--module={module}", f"--device={target.device}", f"--function={function}"]
        for i, a in enumerate(inputs):
            p = os.path.join(tmp, f"in{i}.npy")
            np.save(p, a)
            args.append(f"--input=@{p}")
        outs = [os.path.join(tmp, f"out{i}.npy") for i in range(n_outputs)]
        args += [f"--output=@{p}" for p in outs]
        try:
            proc = subprocess.run(args, capture_output=True, text=True, check=False, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise OptPyError(f"iree-run-module did not finish in {timeout} s") from None
        if proc.returncode != 0:
            raise OptPyError(f"iree-run-module failed ({proc.returncode}):\n{proc.stderr.strip()}")
        return [np.load(p) for p in outs]


def runtime_tool(name: str) -> str:
    """An iree-base-runtime tool: beside this interpreter (a venv's bin/), else on PATH."""
    import shutil
    import sys

    here = os.path.join(os.path.dirname(sys.executable), name)
    found = here if os.path.exists(here) else shutil.which(name)
    if not found:
        raise OptPyError(f"'{name}' (from iree-base-runtime) is not on PATH")
    return found


class ModuleMisbehaved(OptPyError):
    """The module faulted, or its results changed between two calls: whatever it returned is wrong."""


def run_runtime(vmfb: bytes, target: Target, function: str, inputs, timeout: float | None = None) -> list[np.ndarray]:
    """Run through the ``iree.runtime`` Python API, in worker.py's child process: loaded read-only,
    called twice. Raises ModuleMisbehaved when the module faults or its results change between the
    calls, OptPyError when the runtime fails; else the results."""
    from . import worker

    outcome = worker.run(worker.Request(vmfb, target.device, function, list(inputs)), timeout)
    problem = outcome.problem()
    if outcome.error and not outcome.fault:
        raise OptPyError(f"running @{function} failed: {problem}")
    if problem:
        raise ModuleMisbehaved(f"@{function} {problem}")
    return outcome.calls[0]["results"]


# --------------------------------------------------------------------------
# Comparing
# --------------------------------------------------------------------------


def tolerances(dtype) -> tuple[float, float]:
    """(rtol, atol) for comparing results of ``dtype``: exact for integers."""
    dtype = np.dtype(dtype)
    if dtype == np.float16:
        return 1e-2, 1e-3
    if dtype.name == "bfloat16":
        return 2e-2, 1e-2
    if dtype == np.float32:
        return 1e-5, 1e-6
    if dtype == np.float64:
        return 1e-10, 1e-12
    return 0.0, 0.0


@dataclass
class Difference:
    index: int
    shape: tuple
    dtype: str
    max_abs: float
    max_rel: float
    mismatched: int
    total: int
    same: bool
    note: str = ""


def compare(a, b, rtol=None, atol=None) -> list[Difference]:
    """Per-output differences between result lists ``a`` and ``b``."""
    diffs = []
    for i, (x, y) in enumerate(zip(a, b)):
        x, y = np.asarray(x), np.asarray(y)
        if x.shape != y.shape or x.dtype != y.dtype:
            diffs.append(
                Difference(
                    i,
                    x.shape,
                    str(x.dtype),
                    float("inf"),
                    float("inf"),
                    x.size,
                    x.size,
                    False,
                    f"shape/dtype {x.shape}/{x.dtype} vs {y.shape}/{y.dtype}",
                )
            )
            continue
        r, t = tolerances(x.dtype)
        r = r if rtol is None else rtol
        t = t if atol is None else atol
        xf, yf = x.astype(np.float64), y.astype(np.float64)
        close = np.isclose(xf, yf, rtol=r, atol=t, equal_nan=True)
        err = np.abs(xf - yf)
        err = np.where(np.isnan(err) & close, 0.0, err)
        rel = err / np.maximum(np.abs(yf), np.finfo(np.float64).tiny)
        diffs.append(
            Difference(
                i,
                x.shape,
                str(x.dtype),
                float(np.nanmax(err)) if err.size else 0.0,
                float(np.nanmax(np.where(close, 0.0, rel))) if rel.size else 0.0,
                int((~close).sum()),
                int(x.size),
                bool(close.all()),
            )
        )
    if len(a) != len(b):
        diffs.append(
            Difference(len(diffs), (), "", float("inf"), float("inf"), 0, 0, False, f"{len(a)} outputs vs {len(b)}")
        )
    return diffs


def format_report(diffs: list[Difference], label_a="A", label_b="B") -> str:
    lines = [
        f"| output | shape | dtype | max abs diff | max rel diff | mismatched | {label_a} vs {label_b} |",
        "| ---: | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for d in diffs:
        verdict = "same" if d.same else ("DIFFERENT" + (f" ({d.note})" if d.note else ""))
        lines.append(
            f"| {d.index} | {'x'.join(map(str, d.shape)) or 'scalar'} | {d.dtype} | {d.max_abs:.3g} | "
            f"{d.max_rel:.3g} | {d.mismatched}/{d.total} | {verdict} |"
        )
    return "\n".join(lines)

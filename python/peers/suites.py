"""The peers' suites as cases: which programs, with which flags, run how, and what happened.

Shared by ``tools/sweep_peer_suites.py`` (the sweep, with ``opt_py.peers.sweep``) and
``test/unit/test_peer_sweep.py`` (its CI sample). Two suites, read from
``../shared/peer`` beside the checkout (its README says what they are):

``onnx_ops``
    iree-test-suites' ONNX operator tests, one folder each: compiled with the
    flags of IREE's own configuration for the target (the ``iree_xfails``
    JSON that also lists what IREE expects to fail), then run by
    ``iree-run-module --flagfile=run_module_io_flags.txt`` in the folder, which
    compares the expected outputs itself and exits non-zero on a mismatch.
``iree_e2e``
    IREE's ``tests/e2e`` check-test files, per ``iree_check_single_backend_test_suite``
    of each folder's ``CMakeLists.txt`` for the backend, with its
    ``COMPILER_FLAGS``: run by ``opt-py check`` (exit 0 every expectation
    holds, 1 one fails, 2 error).
``torch_mlir``
    torch-mlir's e2e PyTorch programs, exported once each with iree-turbine
    (``opt_py.peers.torch_mlir_suite``: how, and how results are judged), compiled
    with the project's flags for the target (``opt_py.execution.e2e.TARGETS``) and
    run on the same inputs by ``opt_py.execution.worker`` (loaded read-only, called
    twice, a fault is the case's outcome), against PyTorch's outputs.

Each case runs in a child process per step, so an IREE crash, a hang or a
Python traceback is the case's outcome, not the sweep's. GPU targets are
compile-only (no device is assumed). A variant is ``stock`` (``iree-compile``;
for e2e files ``opt-py check`` without fixes), ``fixes`` (``--fixes``),
``fixes=NAME,...`` (a subset, to find which fix is to blame) or ``opt-py``
(``opt-py compile`` with no fix: is opt-py itself to blame?).

Outcomes: ``pass``; ``compile-fail`` (the first error line kept); ``run-fail``
(a wrong number: iree-run-module's mismatch, or a failed ``check.expect_*``;
for torch_mlir, the runtime's error); ``error`` (``opt-py check`` exit 2);
``crash`` (a signal, with the frame and pass of IREE's stack dump when it
printed one); ``timeout``. torch_mlir adds ``wrong`` (numbers unlike
PyTorch's, with the error measure), ``random`` (a program with random-number
ops: it ran and its results have PyTorch's shapes and dtypes, the values are
not compared) and ``export-fail`` (the test did not load or export: both
variants, the same reason).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

# the outcome helpers the sweep shares with opt-py fuzz, re-exported for opt_py.peers.sweep and its tests
from opt_py.execution.outcomes import (
    crash_site,
    family,
    first_error,
    signal_name,
    signal_of,
    traceback_of,
)

from . import torch_mlir_suite as tm  # it imports torch only in its own child processes

ROOT = Path(__file__).resolve().parents[2]  # the checkout
PEER = ROOT.parent / "shared" / "peer"
ONNX_CASES = Path("onnx_ops") / "onnx" / "node" / "generated"
ONNX_PREFIX = "onnx/node/generated/"  # how IREE's lists name a case
E2E = Path("iree_e2e")
XFAILS = Path("iree_xfails")

SUITES = ("onnx_ops", "iree_e2e", "torch_mlir")
TARGETS = ("cpu", "cuda", "rocm")
COMPILE_ONLY = frozenset({"cuda", "rocm"})
# IREE's own configurations for onnx_ops, one per target (the lists of expected failures come with them)
ONNX_CONFIGS = {
    "cpu": "onnx_ops_cpu_llvm_sync_O2.json",
    "cuda": "onnx_ops_gpu_cuda_O0.json",
    "rocm": "onnx_ops_gpu_hip_rdna3_O3.json",
}
E2E_BACKENDS = {"cpu": "llvm-cpu", "cuda": "cuda", "rocm": "rocm"}
OUTCOMES = ("pass", "compile-fail", "run-fail", "error", "crash", "timeout")
TORCH_OUTCOMES = ("pass", "random", "compile-fail", "run-fail", "wrong", "crash", "timeout", "export-fail")
GOOD = ("pass", "random")  # ran to the end as far as can be judged (random: shapes and dtypes only)
# how far a variant got: a failure later in the pipeline is a better failure
REACH = {
    "export-fail": -1,
    "timeout": 0,
    "crash": 0,
    "compile-fail": 1,
    "error": 1,
    "run-fail": 2,
    "wrong": 2,
    "random": 3,
    "pass": 3,
}


@dataclass(frozen=True)
class Case:
    suite: str
    target: str
    name: str  # the case's id within its suite
    program: str  # the .mlir file
    cwd: str  # where it runs (onnx_ops: the test folder, for the flagfile's relative paths)
    flags: tuple[str, ...] = ()  # iree-compile flags
    run_flags: tuple[str, ...] = ()  # iree-run-module flags (onnx_ops)
    compile_only: bool = False
    cache: str = ""  # torch_mlir: the folder of the exports (cwd is this test's folder in it)
    peer: str = ""  # torch_mlir: the peers' suites, to export from


@dataclass(frozen=True)
class Config:
    """One of IREE's onnx_ops configurations: its flags and what it expects to fail."""

    name: str
    compile_flags: tuple[str, ...]
    run_flags: tuple[str, ...]
    expected_compile_failures: frozenset = field(default_factory=frozenset)
    expected_run_failures: frozenset = field(default_factory=frozenset)
    skipped: frozenset = field(default_factory=frozenset)  # skip_compile_tests + skip_run_tests


# --------------------------------------------------------------------------
# The cases
# --------------------------------------------------------------------------


def _short(entry: str) -> str:
    return entry.removeprefix(ONNX_PREFIX)


def load_config(path: Path) -> Config:
    data = json.loads(Path(path).read_text())
    return Config(
        name=Path(path).stem,
        compile_flags=tuple(data["iree_compile_flags"]),
        run_flags=tuple(data["iree_run_module_flags"]),
        expected_compile_failures=frozenset(map(_short, data.get("expected_compile_failures", ()))),
        expected_run_failures=frozenset(map(_short, data.get("expected_run_failures", ()))),
        skipped=frozenset(map(_short, data.get("skip_compile_tests", []) + data.get("skip_run_tests", []))),
    )


def onnx_config(target: str, peer: Path = PEER) -> Config:
    return load_config(Path(peer) / XFAILS / ONNX_CONFIGS[target])


def onnx_cases(target: str, peer: Path = PEER, config: Config | None = None) -> list[Case]:
    """Every onnx_ops test folder holding a model, in name order."""
    config = config or onnx_config(target, peer)
    root = Path(peer) / ONNX_CASES
    return [
        Case(
            suite="onnx_ops",
            target=target,
            name=d.name,
            program=str(d / "model.mlir"),
            cwd=str(d),
            flags=config.compile_flags,
            run_flags=config.run_flags,
            compile_only=target in COMPILE_ONLY,
        )
        for d in sorted(root.iterdir())
        if (d / "model.mlir").is_file()
    ]


_SUITE_CALL = re.compile(r"^iree_check_single_backend_test_suite\((.*?)^\)", re.S | re.M)
_KEYWORD = re.compile(r"^\s+([A-Z_]+)\s*$")


def cmake_suites(text: str) -> list[dict[str, list[str]]]:
    """The keyword arguments of each ``iree_check_single_backend_test_suite`` call, CMake escapes undone."""
    suites = []
    for m in _SUITE_CALL.finditer(text):
        args: dict[str, list[str]] = {}
        key = None
        for line in m.group(1).splitlines():
            if k := _KEYWORD.match(line):
                key = k.group(1)
                args[key] = []
            elif key and (v := re.fullmatch(r'\s*(?:"(.*)"|(\S+))\s*', line)):
                args[key].append(re.sub(r"\\(.)", r"\1", v.group(1) if v.group(1) is not None else v.group(2)))
        suites.append(args)
    return suites


def e2e_cases(target: str, peer: Path = PEER) -> list[Case]:
    """IREE's check tests for the target's backend: one case per (file, suite), named ``DIR/FILE@SUITE``."""
    root = Path(peer) / E2E
    backend = E2E_BACKENDS[target]
    cases = []
    for cmake in sorted(root.rglob("CMakeLists.txt")):
        folder = cmake.parent
        for suite in cmake_suites(cmake.read_text()):
            if suite.get("TARGET_BACKEND") != [backend]:
                continue
            for src in suite.get("SRCS", []):
                path = folder / src
                if not path.is_file():
                    continue
                cases.append(
                    Case(
                        suite="iree_e2e",
                        target=target,
                        name=f"{path.relative_to(root)}@{suite['NAME'][0]}",
                        program=str(path),
                        cwd=str(folder),
                        flags=tuple(suite.get("COMPILER_FLAGS", ())),
                        compile_only=target in COMPILE_ONLY,
                    )
                )
    return sorted(cases, key=lambda c: c.name)


def torch_mlir_cases(target: str, peer: Path = PEER, cache: Path | None = None) -> list[Case]:
    """torch-mlir's registered tests in name order, each exported into ``cache/NAME`` (on first use)."""
    cache = Path(cache or default_cache())
    return [
        Case(
            suite="torch_mlir",
            target=target,
            name=row["name"],
            program=str(cache / row["name"] / "model.mlir"),
            cwd=str(cache / row["name"]),
            flags=tuple(gpu_target_flags(target)),
            compile_only=target in COMPILE_ONLY,
            cache=str(cache),
            peer=str(peer),
        )
        for row in tm.registry(peer)
    ]


def default_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "opt-py" / "torch-mlir-export"


def cases_of(suite: str, target: str, peer: Path = PEER, cache: Path | None = None) -> list[Case]:
    if suite == "torch_mlir":
        return torch_mlir_cases(target, peer, cache)
    return onnx_cases(target, peer) if suite == "onnx_ops" else e2e_cases(target, peer)


def outcomes_of(suite: str) -> tuple[str, ...]:
    return TORCH_OUTCOMES if suite == "torch_mlir" else OUTCOMES


# --------------------------------------------------------------------------
# The commands
# --------------------------------------------------------------------------


def tool(name: str) -> str:
    """An IREE command-line tool, preferably the one installed beside this Python."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.is_file() else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} is not installed (pip install iree-base-compiler iree-base-runtime)")
    return found


def opt_py() -> list[str]:
    return [sys.executable, "-m", "opt_py"]


def fixes_flag(variant: str) -> list[str]:
    """``--fixes`` / ``--fixes=NAME,...`` for a variant, nothing for stock or ``opt-py`` (no fix)."""
    if variant in ("stock", "opt-py"):
        return []
    if variant == "fixes":
        return ["--fixes"]
    if variant.startswith("fixes="):
        return [f"--{variant}"]
    raise ValueError(f"unknown variant {variant!r} (stock, fixes or fixes=NAME,...)")


def gpu_target_flags(target: str) -> tuple[str, ...]:
    """The project's compile flags for a GPU target (e2e files name only a backend)."""
    from opt_py.execution.e2e import TARGETS as E2E_TARGETS

    return E2E_TARGETS[target].compile_flags


def compile_command(case: Case, variant: str, output: str) -> list[str]:
    flags = list(case.flags)
    if case.suite == "iree_e2e":
        flags = list(gpu_target_flags(case.target)) + flags
    front = [tool("iree-compile")] if variant == "stock" else [*opt_py(), "compile", *fixes_flag(variant)]
    return [*front, *flags, os.path.relpath(case.program, case.cwd), "-o", output]


def run_command(case: Case, module: str) -> list[str]:
    return [tool("iree-run-module"), f"--module={module}", *case.run_flags, "--flagfile=run_module_io_flags.txt"]


def check_command(case: Case, variant: str, check: list[str] | None = None) -> list[str]:
    """``opt-py check FILE --target T [--fixes] COMPILER_FLAGS`` (``check`` replaces ``opt-py check``)."""
    front = check or [*opt_py(), "check"]
    return [*front, os.path.relpath(case.program, case.cwd), "--target", case.target, *fixes_flag(variant), *case.flags]


# --------------------------------------------------------------------------
# Running a step
# --------------------------------------------------------------------------


@dataclass
class Step:
    rc: int | None  # None: timed out
    stdout: str
    stderr: str
    seconds: float


def run_step(cmd: list[str], cwd: str, timeout: float, env: dict | None = None) -> Step:
    """Run one command in its own process group; on timeout the group is terminated, then killed."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, env=env, start_new_session=True)
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(proc)
            rc = None
        out.seek(0)
        err.seek(0)
        return Step(rc, _text(out.read()), _text(err.read()), time.monotonic() - t0)


def _stop(proc: subprocess.Popen) -> None:
    for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 30)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


def _text(data: bytes, limit: int = 200_000) -> str:
    return data[-limit:].decode(errors="replace")


# --------------------------------------------------------------------------
# What happened
# --------------------------------------------------------------------------


def mismatch(text: str) -> str:
    """iree-run-module's report of a wrong result (``[FAILED] result[0]: ...``) or its error."""
    for line in text.splitlines():
        if line.startswith("[FAILED]"):
            return line.strip()
    return first_error(text)


def check_failure(text: str) -> str:
    """``opt-py check``'s first failing function (``FAIL  FILE @FUNCTION``) with the first line of its why."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("FAIL"):
            why = lines[i + 1].strip() if i + 1 < len(lines) and lines[i + 1][:1].isspace() else ""
            return " ".join(filter(None, [line.strip(), why]))
    return first_error(text)


def failed_step(step: Step, phase: str) -> dict | None:
    """The record of a step that did not succeed, None when it did."""
    both = step.stdout + "\n" + step.stderr
    if step.rc is None:
        return {"outcome": "timeout", "phase": phase, "error": f"{phase} timed out after {step.seconds:.0f} s"}
    if step.rc == 0:
        return None
    sig = signal_of(step.rc, step.stderr)
    if sig is not None:
        site = crash_site(step.stderr)
        error = f"{signal_name(sig)} in {site}" if site else f"{signal_name(sig)} (no message)"
        return {"outcome": "crash", "phase": phase, "error": error, "signal": sig}
    tb = traceback_of(both)
    rec = {"phase": phase, "traceback": tb} if tb else {"phase": phase}
    if phase == "compile":
        return {**rec, "outcome": "compile-fail", "error": tb or first_error(step.stderr)}
    if phase == "run":
        return {**rec, "outcome": "run-fail", "error": mismatch(both)}
    # opt-py check: 1 an expectation failed, 2 an error (compile or load)
    if step.rc == 1:
        return {**rec, "outcome": "run-fail", "error": tb or check_failure(both)}
    return {**rec, "outcome": "error", "error": tb or first_error(both)}


def run_case(
    case: Case,
    variant: str,
    *,
    compile_timeout: float = 600,
    run_timeout: float = 120,
    check: list[str] | None = None,
    env: dict | None = None,
) -> dict:
    """Compile and run one case one way; the record the sweep appends (outcome, error, seconds)."""
    rec = {"case": case.name, "suite": case.suite, "target": case.target, "variant": variant}
    if case.suite == "torch_mlir":
        return {**rec, **run_torch_case(case, variant, compile_timeout, run_timeout, env)}
    if case.suite == "iree_e2e" and not case.compile_only:
        step = run_step(check_command(case, variant, check), case.cwd, compile_timeout + run_timeout, env)
        return {**rec, "seconds": round(step.seconds, 2), **(failed_step(step, "check") or {"outcome": "pass"})}
    with tempfile.TemporaryDirectory(prefix="peer-sweep-") as tmp:
        module = os.path.join(tmp, "module.vmfb")
        step = run_step(compile_command(case, variant, module), case.cwd, compile_timeout, env)
        rec["compile_s"] = round(step.seconds, 2)
        failed = failed_step(step, "compile")
        if failed or case.compile_only:
            return {**rec, **(failed or {"outcome": "pass"})}
        step = run_step(run_command(case, module), case.cwd, run_timeout, env)
        rec["run_s"] = round(step.seconds, 2)
        return {**rec, **(failed_step(step, "run") or {"outcome": "pass"})}


# --------------------------------------------------------------------------
# torch-mlir's programs
# --------------------------------------------------------------------------

_LOCAL = threading.local()  # each sweep thread's runtime worker (a Worker runs one request at a time)
_EXPORTING: dict[str, threading.Lock] = {}
_EXPORTING_LOCK = threading.Lock()


def exported(case: Case) -> dict:
    """The test's export record, exporting it now when the cache has none (one thread at a time per test)."""
    with _EXPORTING_LOCK:
        lock = _EXPORTING.setdefault(case.name, threading.Lock())
    with lock:
        meta = tm.export_record(case.cache, case.name)
        if meta is None:
            row = next(r for r in tm.registry(case.peer) if r["name"] == case.name)
            tm.export_all([row], Path(case.peer), Path(case.cache), log=None)
            meta = tm.export_record(case.cache, case.name) or {"outcome": "export-fail", "error": "no record"}
        return meta


def run_torch_case(case: Case, variant: str, compile_timeout: float, run_timeout: float, env: dict | None) -> dict:
    """Export (cached), compile one way, run on PyTorch's inputs and judge: the record's outcome fields."""
    meta = exported(case)
    if meta["outcome"] != tm.EXPORTED:
        # export_phase: where it failed (eager: PyTorch itself; export; save; load: the test file), as export.json says
        where = {k: meta[k] for k in ("error", "where") if k in meta}
        return {"outcome": "export-fail", "phase": "export", "export_phase": meta.get("phase", ""), **where}
    rec: dict = {"random": True} if meta.get("random") else {}
    if any("float64" in call["inputs"] + call["outputs"] for call in meta["calls"]):
        rec["f64"] = True  # IREE demotes f64 to f32 unless told not to: a family of its own when it fails at run time
    with tempfile.TemporaryDirectory(prefix="peer-sweep-") as tmp:
        module = os.path.join(tmp, "module.vmfb")
        step = run_step(compile_command(case, variant, module), case.cwd, compile_timeout, env)
        rec["compile_s"] = round(step.seconds, 2)
        failed = failed_step(step, "compile")
        if failed or case.compile_only:
            return {**rec, **(failed or {"outcome": "pass"})}
        t0 = time.monotonic()
        judged = run_and_judge(case, meta, module, run_timeout)
        return {**rec, "run_s": round(time.monotonic() - t0, 2), **judged}


def run_and_judge(case: Case, meta: dict, module: str, timeout: float) -> dict:
    """Every call of the test, twice, in one context: pass, random, wrong, run-fail, crash or timeout."""
    from opt_py.execution import e2e, worker

    if not hasattr(_LOCAL, "worker"):
        _LOCAL.worker = worker.Worker()
    calls = tm.load_call_arrays(case.cwd, meta)
    request = worker.Request(
        module=module,
        device=e2e.TARGETS[case.target].device,
        function=meta["function"],
        sequence=[(meta["function"], inputs) for inputs, _ in calls],
    )
    outcome = worker.run(request, timeout, _LOCAL.worker)
    if outcome.fault:
        return {"outcome": "crash", "phase": "run", "error": outcome.reason, "signal": outcome.fault}
    if outcome.error.startswith("timed out"):
        return {"outcome": "timeout", "phase": "run", "error": f"run {outcome.error}"}
    if outcome.error and not outcome.calls:
        return {"outcome": "run-fail", "phase": "run", "error": runtime_error(outcome.error)}
    expected = [o for _, outs in calls for o in outs]
    got = outcome.calls[0]["results"]
    if meta.get("random"):
        differs = tm.shapes_match(expected, got)
        if differs:
            return {"outcome": "wrong", "phase": "run", "error": differs, "kind": "shape or dtype"}
        return {"outcome": "random"}
    kind, what = tm.compare(expected, got)
    if kind:
        return {"outcome": "wrong", "phase": "run", "error": what, "kind": kind}
    if outcome.error:  # the second call failed
        return {"outcome": "run-fail", "phase": "run", "error": runtime_error(outcome.error)}
    changed = worker.changed_between_calls(outcome.calls)
    if changed:
        kind = "results change between two calls"
        return {"outcome": "wrong", "phase": "run", "error": changed, "kind": kind}
    return {"outcome": "pass"}


def runtime_error(text: str) -> str:
    """The runtime's message in one line: the status and its first line of detail."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return " ".join(lines[:2])[:400]


def torch_family(rec: dict) -> str:
    """A torch_mlir record's family: why it did not export, the kind of wrong numbers, the runtime's status."""
    if rec["outcome"] == "export-fail":
        return tm.export_family({**rec, "phase": rec.get("export_phase", "")})
    f64 = " (f64 inputs or results)" if rec.get("f64") else ""
    if rec["outcome"] == "wrong":
        return rec.get("kind", "") + f64
    if rec["outcome"] == "run-fail":  # "IndexError: Error invoking function: <file>:<line>: STATUS; why; while ..."
        text = re.sub(r"^\w+: Error invoking function: ", "", rec.get("error", ""))
        text = re.sub(r"\S+\.(c|cc|h):\d+: ", "", text).split("; while ")[0]
        return family(text) + f64
    return family(rec.get("error", ""))

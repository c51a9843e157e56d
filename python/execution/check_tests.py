"""``opt-py check FILE.mlir...``: IREE's check tests, compiled stock or with opt-py's passes, really checked.

A check test (IREE's ``tests/e2e/**/*.mlir``) is a module of functions with
no arguments and no results that call ``check.expect_*`` on values computed
from ``util.unfoldable_constant`` inputs. Each file is compiled the way
``opt-py compare`` compiles (``e2e.compile_program``: in process, with the
``--inject``/``--inject-codegen`` pipelines and the ``--fixes`` table of
iree/fixes.py), then every exported function runs like ``iree-check-module`` runs
it (in a fresh context, in ordinal order, skipping ``__`` names and names
with ``$``) through worker.py, with opt-py's ``check`` module
(check_runner.py). Each function is called twice; a result that changes
between the calls, or a fault (the module is loaded read-only), fails it.

Exit status: 0 when every expectation holds, 1 when one fails (or a function
faults), 2 when a file cannot be checked (it does not compile, it is not a
check test, a flag is wrong).
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass, field

from ..errors import OptPyError
from . import e2e, worker
from .check_runner import describe

SKIPPED_PREFIX, SKIPPED_CHAR = "__", "$"  # iree-check-module runs neither


@dataclass
class FunctionResult:
    name: str
    problems: list[str] = field(default_factory=list)  # each a block of lines; none when it passed


@dataclass
class FileResult:
    path: str
    functions: list[FunctionResult] = field(default_factory=list)
    error: str = ""  # why the file could not be checked

    @property
    def failed(self) -> list[FunctionResult]:
        return [f for f in self.functions if f.problems]


def check_files(paths: list[str], target: e2e.Target, build: dict, compile_only: bool, timeout: float, out) -> int:
    """Check each file in turn and print the summary; the exit status (0, 1 or 2, as the module says)."""
    results = [check_file(path, target, build, compile_only, timeout, out) for path in paths]
    return _summary(results, compile_only, out)


def check_file(path: str, target: e2e.Target, build: dict, compile_only: bool, timeout: float, out) -> FileResult:
    """Compile ``path`` and (unless ``compile_only``) run each of its check functions, printing each verdict."""
    with tempfile.TemporaryDirectory() as tmp:
        vmfb = os.path.join(tmp, "module.vmfb")
        try:
            data = e2e.compile_program(path, target, **build)
        except OptPyError as e:
            return _not_checked(path, str(e))
        if compile_only:
            print(f"COMPILED  {path}", file=out, flush=True)
            return FileResult(path)
        with open(vmfb, "wb") as f:
            f.write(data)
        return check_module(path, vmfb, target.device, timeout, out)


def check_module(path: str, vmfb: str, device: str, timeout: float | None = None, out=None) -> FileResult:
    """Run each check function of ``vmfb`` (compiled from ``path``) on ``device``, printing each verdict."""
    out = out or sys.stdout
    try:
        names = check_functions(vmfb)
    except OptPyError as e:
        return _not_checked(path, str(e))
    result = FileResult(path)
    for name in names:
        fn = FunctionResult(name, problems(worker.run(worker.Request(vmfb, device, name, check=True), timeout)))
        result.functions.append(fn)
        _print_function(path, fn, out)
    return result


def check_functions(vmfb: str) -> list[str]:
    """The functions of the module iree-check-module would run; an error when one is not a check
    function (it takes arguments or returns results), or when there is none."""
    try:
        exported = worker.shared().functions(vmfb)
    except RuntimeError as e:
        raise OptPyError(f"cannot read the compiled module: {e}") from None
    names = []
    for name, cconv in exported:
        if name.startswith(SKIPPED_PREFIX) or SKIPPED_CHAR in name:
            continue
        if cconv != "0v_v":
            raise OptPyError(
                f"expected functions with no inputs or outputs, but export '{name}' has signature '{cconv}': "
                "not a check test"
            )
        names.append(name)
    if not names:
        raise OptPyError("no exported functions to check: not a check test")
    return names


def problems(outcome: worker.Outcome) -> list[str]:
    """Why a check function failed: each failed expectation of its first call, a result that changed
    on its second, an error or a fault; empty when it passed."""
    if outcome.fault or (outcome.error and not outcome.calls):
        return [outcome.problem()]
    found = []
    records = outcome.calls[0]["checks"] if outcome.calls else []
    for i, record in enumerate(records):
        if not record["ok"]:
            op = record["op"] + (" (or its _const form)" if record["op"] in ("expect_eq", "expect_almost_eq") else "")
            found.append("\n".join([f"expectation {i + 1} of {len(records)}, check.{op}:", *describe(record)]))
    problem = outcome.problem()  # an error on the second call, or values that changed between the calls
    if problem:
        found.append(problem)
    return found


def _print_function(path: str, fn: FunctionResult, out) -> None:
    print(f"{'FAIL' if fn.problems else 'PASS'}  {path} @{fn.name}", file=out, flush=True)
    for p in fn.problems:
        print("\n".join("      " + line for line in p.splitlines()), file=out, flush=True)


def _not_checked(path: str, why: str) -> FileResult:
    result = FileResult(path, error=f"{path}: {why}")
    _print_error(result.error)
    return result


def _print_error(message: str) -> None:
    print(f"opt-py check: error: {message}", file=sys.stderr, flush=True)


def error(message: str) -> int:
    """Say why nothing can be checked; exit status 2."""
    _print_error(message)
    return 2


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _summary(results: list[FileResult], compile_only: bool, out) -> int:
    errors = [r for r in results if r.error]
    functions = [f for r in results for f in r.functions]
    failed = [f for r in results for f in r.failed]
    checked = len(results) - len(errors)
    if compile_only:
        print(f"{checked} of {_count(len(results), 'file')} compiled", file=out)
    else:
        print(
            f"{_count(len(functions), 'function')} in {_count(checked, 'file')}: "
            f"{len(functions) - len(failed)} passed, {len(failed)} failed"
            + (f"; {_count(len(errors), 'file')} not checked (errors above)" if errors else ""),
            file=out,
        )
    return 2 if errors else 1 if failed else 0

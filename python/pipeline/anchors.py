"""Where a C++ pass must be nested, learned once per pass in a subprocess.

A bare pipeline list nests each pass to its anchor op. MLIR says a pass's
anchor only in two ways: a restricted pass added at the wrong level is
refused at parse time ("restricted to 'X'"), and an interface pass (in
practice FunctionOpInterface) fails to schedule when run on a module. The
second needs a run, and running an arbitrary C++ pass is not harmless (some
crash on an empty module, some print), and a pass pipeline's builder can
abort at parse time. So the probe runs in a child process, whose crash only
means "run it at the root", and its answer is cached on disk per pass name
and compiler version.

    python -m opt_py.pipeline.anchors PASS-NAME   ->  prints the anchor
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

PROBE_VERSION = 2
UNKNOWN = "unknown"

# Passes whose anchor is known without a probe (op-agnostic in MLIR).
KNOWN_ANCHORS = {
    name: "any"
    for name in (
        "canonicalize",
        "cse",
        "symbol-dce",
        "sccp",
        "inline",
        "loop-invariant-code-motion",
        "control-flow-sink",
    )
}


def _cache_path() -> str:
    from iree.compiler import version

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    v = getattr(version, "VERSION", None) or getattr(version, "__version__", "unknown")
    # The probe's version is in the name: answers of an older probe are not reused.
    return os.path.join(base, "opt-py", f"anchors-{v}-probe{PROBE_VERSION}.json")


def _load_cache(path: str) -> dict:
    try:
        with open(path) as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _store(path: str, name: str, anchor: str) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = _load_cache(path)
        data[name] = anchor
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".anchors-")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except OSError:
        pass  # a cache we cannot write only costs time


def anchor_of(name: str) -> str:
    """'any', 'function' or an op name, for the registered C++ pass ``name``."""
    if name in KNOWN_ANCHORS:
        return KNOWN_ANCHORS[name]
    path = _cache_path()
    cached = _load_cache(path).get(name)
    if isinstance(cached, str):
        return cached
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "opt_py.pipeline.anchors", name],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        lines = proc.stdout.strip().splitlines()
        # A probe that crashed (some pipeline builders abort when added at
        # the wrong level) leaves the anchor unknown: the planner then asks
        # for explicit nesting rather than risk the same abort in process.
        anchor = lines[-1] if proc.returncode == 0 and lines else UNKNOWN
    except (OSError, subprocess.SubprocessError):
        anchor = UNKNOWN
    _store(path, name, anchor)
    return anchor


def _probe(name: str) -> str:
    from iree.compiler import ir, passmanager

    ctx = ir.Context()
    with ctx, ir.Location.unknown():
        try:
            pm = passmanager.PassManager.parse(f"builtin.module({name})")
        except ValueError as e:
            m = re.search(r"restricted to '([^']+)'", str(e))
            return m.group(1) if m else "any"
        try:
            pm.run(ir.Module.parse("func.func @probe() { return }").operation)
            return "any"
        except ir.MLIRError as e:
            if "unsupported operation" not in str(e) and "unable to schedule" not in str(e):
                return "any"
        try:
            nested = passmanager.PassManager.parse(f"builtin.module(func.func({name}))")
            nested.run(ir.Module.parse("func.func @probe() { return }").operation)
            return "function"
        except (ValueError, ir.MLIRError):
            return "any"


if __name__ == "__main__":
    # Whatever the pass prints while probed is not the answer: keep it off stdout.
    real_stdout = os.dup(1)
    os.dup2(2, 1)
    answer = _probe(sys.argv[1])
    os.dup2(real_stdout, 1)
    print(answer, flush=True)

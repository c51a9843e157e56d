#!/usr/bin/env python3
"""torch-mlir's e2e suite as peer cases: its tests loaded, exported as a PyTorch user would, judged.

``../shared/peer/torch_mlir_e2e`` holds torch-mlir's PyTorch programs (small
``nn.Module``s registered by ``@register_test_case``, inputs from ``tu.rand``...).
Its files import three names of torch-mlir's framework, whose own modules need
packages not installed here; ``install_shim`` provides them (and a stand-in
for ``torchvision`` and ``torch_mlir`` that fails when a test uses it), so
every file loads and every test has an outcome.

Each test is exported once into ``CACHE/NAME/``: ``model.mlir`` (iree-turbine
``aot.export(..., strict_export=False)``, a ``-1`` of ``@annotate_args`` as
``Dim.AUTO``, static when that export fails), each call's inputs and PyTorch's
outputs as ``.npy``, and ``export.json`` (outcome, reason, dtypes, whether the
program is random: run again on the same inputs in the test's own context,
with other seeds, its results differ). Exports run
in a child process, many tests in turn (torch imports once); a test that
hangs or kills it is that test's outcome, and a new child takes the rest.

``compare`` judges IREE's results as torch-mlir's own framework does
(``reporting.py``: same shape and dtype, ``allclose(rtol=1e-3, atol=1e-7,
equal_nan=True)``), floats in float64 (f64 programs keep their precision),
integers and booleans exactly. Only this module imports torch, and only in
the export child.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

SUITE = Path("torch_mlir_e2e")
RTOL, ATOL = 1e-3, 1e-7  # torch-mlir's reporting.py
EXPORTED = "exported"
ABSENT = ("torchvision", "torch_mlir")  # what the tests import that is not installed here
BATCH = 100  # tests per export child before a fresh one (bounds what a test may leak into the next)
# export.json's format, raised when what an export records changes (2: "random" compares two eager runs bit for
# bit, where 1 used the comparison's tolerance and called random programs with steady statistics deterministic).
# A record of another format is stale: the test is exported again, not judged by an older harness's reading.
EXPORT_FORMAT = 2


# --------------------------------------------------------------------------
# The shim: the names the test files import
# --------------------------------------------------------------------------


class _TestUtils:
    """``tu``: inputs drawn after seeding 0, as the suite's own TestUtils draws them."""

    def __init__(self):
        import torch

        torch.manual_seed(0)

    def rand(self, *sizes, low=0.0, high=1.0):
        import torch

        return torch.empty(sizes).uniform_(low, high)

    def randint(self, *sizes, low=0, high=10, dtype=None):
        import torch

        return torch.randint(low, high, sizes, dtype=dtype or torch.int64)

    def nans(self, *sizes):
        import torch

        return torch.full(sizes, float("nan"))


class Test(types.SimpleNamespace):
    """A registered test: ``name``, ``file``, ``factory`` (makes the module), ``invoker``, ``timeout``."""


REGISTRY: list[Test] = []


def _register_test_case(module_factory, timeout_seconds: int = 120):
    def decorator(invoker):
        file = Path(invoker.__code__.co_filename).name
        REGISTRY.append(
            Test(name=invoker.__name__, file=file, factory=module_factory, invoker=invoker, timeout=timeout_seconds)
        )
        return invoker

    return decorator


def _annotate_args(annotations):
    def decorator(fn):
        fn._torch_mlir_arg_annotations = annotations
        return fn

    return decorator


def _export(fn):
    return fn


class _Absent(types.ModuleType):
    """A module that is not installed: importing it works, using it raises ModuleNotFoundError."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        root = self.__name__.split(".")[0]
        raise ModuleNotFoundError(f"No module named '{root}' (needed for {self.__name__}.{name})")


class _AbsentFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] in self.roots:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return _Absent(spec.name)

    def exec_module(self, module):
        module.__path__ = []

    def __init__(self, roots):
        self.roots = roots


def install_shim() -> None:
    """``torch_mlir_e2e_test.{framework,registry,annotations}`` in ``sys.modules``, stand-ins for what is absent."""
    package = types.ModuleType("torch_mlir_e2e_test")
    package.__path__ = []
    parts = {
        "framework": {"TestUtils": _TestUtils},
        "registry": {"register_test_case": _register_test_case, "GLOBAL_TEST_REGISTRY": REGISTRY},
        "annotations": {"annotate_args": _annotate_args, "export": _export},
        "test_suite": {"__path__": []},
    }
    sys.modules["torch_mlir_e2e_test"] = package
    for name, attrs in parts.items():
        module = types.ModuleType(f"torch_mlir_e2e_test.{name}")
        module.__dict__.update(attrs)
        sys.modules[module.__name__] = module
        setattr(package, name, module)
    absent = tuple(n for n in ABSENT if importlib.util.find_spec(n) is None)
    if absent:
        sys.meta_path.insert(0, _AbsentFinder(absent))


def load_tests(peer: Path, files: set[str] | None = None) -> tuple[list[Test], dict[str, str]]:
    """The tests the suite's files (or those named) register, in name order, and each file that failed
    to load -> why."""
    install_shim()
    REGISTRY.clear()
    failed = {}
    for path in test_files(peer):
        if files is not None and path.name not in files:
            continue
        name = f"torch_mlir_e2e_test.test_suite.{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as e:  # noqa: BLE001 - a file that does not load is recorded, its tests with it
            failed[path.name] = f"{type(e).__name__}: {e}"
    return sorted(REGISTRY, key=lambda t: t.name), failed


def test_files(peer: Path) -> list[Path]:
    """The files the suite's ``register_all_tests`` imports, read from its text (running it needs torch_mlir)."""
    folder = Path(peer) / SUITE / "test_suite"
    names = re.findall(r"^\s+from \. import (\w+)\s*$", (folder / "__init__.py").read_text(), re.M)
    return [folder / f"{n}.py" for n in sorted(set(names))]


_REGISTERED = re.compile(r"^[ \t]*@register_test_case\b(.*?)^[ \t]*def (\w+)\(", re.S | re.M)
_TIMEOUT = re.compile(r"timeout_seconds\s*=\s*(\d+)")


def registry(peer: Path) -> list[dict]:
    """``[{name, file, timeout}]`` of every test the suite registers, in name order, read from its files'
    text: the sweep's process never imports torch (the export child loads the files)."""
    rows = []
    for path in test_files(peer):
        for m in _REGISTERED.finditer(path.read_text()):
            timeout = _TIMEOUT.search(m.group(1))
            rows.append({"name": m.group(2), "file": path.name, "timeout": int(timeout.group(1)) if timeout else 120})
    return sorted(rows, key=lambda r: r["name"])


# --------------------------------------------------------------------------
# Exporting one test (in the export child)
# --------------------------------------------------------------------------


def _clone(value):
    import torch

    if isinstance(value, torch.Tensor):
        return value.clone()
    if isinstance(value, (list, tuple)):
        return type(value)(_clone(v) for v in value)
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    return value


class _Tracer:
    """Stands for the module in the test's invoker: records each ``forward`` call's inputs and output.

    With ``reseed``, each call draws its random numbers from another seed, and the generator is put back
    after it: the invoker draws the same inputs, a random program's results change.
    """

    def __init__(self, module, reseed: bool = False):
        self.module, self.calls, self.reseed = module, [], reseed

    def forward(self, *args):
        import torch

        inputs = _clone(list(args))  # before the call: forward may write into them
        state = torch.get_rng_state()
        if self.reseed:
            torch.manual_seed(1000 + len(self.calls))
        output = self.module.forward(*args)
        if self.reseed:
            torch.set_rng_state(state)
        self.calls.append((inputs, _clone(output)))
        return output


def _fresh(test: Test, pristine):
    import copy

    import torch

    try:
        return copy.deepcopy(pristine)
    except Exception:  # noqa: BLE001 - a module that cannot be copied is made again, from the same seed
        torch.manual_seed(0)
        return test.factory()


def _leaves(value) -> list:
    from torch.utils import _pytree

    return _pytree.tree_flatten(value)[0]


def _same(a, b) -> bool:
    """Bit for bit, NaN equal to NaN: two eager runs of a deterministic program on the same inputs, in the
    same context (a random program's statistics may agree within the tolerance, its bits do not)."""
    import torch

    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return type(a) is type(b) and (a == b or (a != a and b != b))
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.is_floating_point() or a.is_complex():
        return bool(
            torch.equal(torch.nan_to_num(a, 0.5), torch.nan_to_num(b, 0.5)) and torch.equal(a.isnan(), b.isnan())
        )
    return bool(torch.equal(a, b))


def _dynamic_shapes(module, args: list):
    """One entry per argument: ``{dim: Dim.AUTO}`` where ``@annotate_args`` says ``-1``; None when it says none."""
    from torch.export import Dim

    annotations = getattr(type(module).forward, "_torch_mlir_arg_annotations", None)
    if not annotations or len(annotations) != len(args) + 1:
        return None
    shapes = []
    for annotation, arg in zip(annotations[1:], args):
        dims = {d: Dim.AUTO for d, size in enumerate(annotation[0]) if size == -1} if annotation else {}
        shapes.append((dims or None) if hasattr(arg, "shape") else None)
    return tuple(shapes) if any(shapes) else None


def _to_numpy(t):
    """A tensor as a NumPy array (bfloat16 through ml_dtypes); a Python scalar leaf raises TypeError."""
    import torch

    if not isinstance(t, torch.Tensor):
        raise TypeError(f"a {type(t).__name__} where a tensor is expected")
    t = t.detach().resolve_conj().resolve_neg().contiguous()
    if t.dtype == torch.bfloat16:
        import ml_dtypes

        return t.view(torch.uint16).numpy().view(ml_dtypes.bfloat16)
    return t.numpy()


def _save(folder: Path, name: str, t) -> str:
    import numpy as np

    array = _to_numpy(t)
    if array.dtype.name == "bfloat16":  # .npy cannot say bfloat16: its bits, with the name in export.json
        np.save(folder / name, array.view(np.uint16))
    else:
        np.save(folder / name, array)
    return array.dtype.name


def export_test(test: Test, folder: Path) -> dict:
    """Export ``test`` into ``folder``: its ``export.json`` record (also written there)."""
    import torch
    from iree.turbine import aot

    folder.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    meta = {"name": test.name, "file": test.file}
    phase = "eager"  # where a failure happened: PyTorch itself, the export, or saving what it gave
    try:
        torch.manual_seed(0)
        pristine = test.factory()
        tracer = _Tracer(_fresh(test, pristine))
        test.invoker(tracer, _TestUtils())
        if not tracer.calls:
            raise RuntimeError("the test calls no forward")
        again = _Tracer(_fresh(test, pristine), reseed=True)
        torch.manual_seed(0)
        test.invoker(again, _TestUtils())  # the same inputs, in the invoker's own context (backend flags...)
        meta["random"] = len(again.calls) != len(tracer.calls) or not all(
            len(_leaves(o)) == len(_leaves(r)) and all(map(_same, _leaves(o), _leaves(r)))
            for (_, o), (_, r) in zip(tracer.calls, again.calls)
        )
        phase = "export"
        args = _clone(tracer.calls[0][0])
        dynamic = _dynamic_shapes(pristine, args)
        exported, meta["shapes"] = None, "static"
        if dynamic:
            try:
                exported = aot.export(
                    _fresh(test, pristine), args=tuple(args), dynamic_shapes=dynamic, strict_export=False
                )
                meta["shapes"] = "dynamic"
            except Exception as e:  # noqa: BLE001 - a user retries without dynamic dims
                meta["shapes"] = f"static (the dynamic export failed: {_first_line(e)})"
        if exported is None:
            exported = aot.export(_fresh(test, pristine), args=tuple(args), strict_export=False)
        exported.save_mlir(str(folder / "model.mlir"))
        phase = "save"
        meta["calls"] = []
        for c, (inputs, output) in enumerate(tracer.calls):
            tensors = [a for a in _leaves(inputs) if isinstance(a, torch.Tensor)]
            meta["calls"].append(
                {
                    "inputs": [_save(folder, f"call{c}_in{i}.npy", a) for i, a in enumerate(tensors)],
                    "outputs": [_save(folder, f"call{c}_out{i}.npy", o) for i, o in enumerate(_leaves(output))],
                }
            )
        meta["function"], arity = _signature(folder / "model.mlir")
        if arity != len(meta["calls"][0]["inputs"]):
            raise RuntimeError(
                f"the exported function takes {arity} arguments, the call passes "
                f"{len(meta['calls'][0]['inputs'])} tensors"
            )
        meta["outcome"] = EXPORTED
    except Exception as e:  # noqa: BLE001 - every failure to load or export is the test's outcome
        meta.update(outcome="export-fail", error=f"{type(e).__name__}: {_first_line(e)}", phase=phase, where=_where(e))
    meta["seconds"] = round(time.monotonic() - t0, 2)
    _write_json(folder / "export.json", meta)
    return meta


def _first_line(e: BaseException) -> str:
    """The exception's first line; when it ends in a colon (MLIR's "Verification failed:"), the diagnostic after it."""
    lines = [line.strip() for line in str(e).strip().splitlines() if line.strip()]
    if not lines:
        return ""
    text = lines[0]
    if text.endswith(":") and len(lines) > 1:
        text += " " + re.sub(r'^error: "[^"]*":\d+:\d+: ', "error: ", lines[1])
    return text[:500]


def _where(e: BaseException) -> str:
    """``file:line`` of the innermost frame of the exception's traceback (which library raised it)."""
    import traceback

    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return ""
    f = frames[-1]
    parts = Path(f.filename).parts
    short = "/".join(parts[parts.index("site-packages") + 1 :]) if "site-packages" in parts else Path(f.filename).name
    return f"{short}:{f.lineno}"


_FUNC = re.compile(r"func\.func @(\w+)\(([^)]*)\)")


def _signature(path: Path) -> tuple[str, int]:
    """The exported (public) function's name and its number of arguments."""
    text = Path(path).read_text()
    for m in _FUNC.finditer(text):
        if "private" not in text[max(0, m.start() - 20) : m.start()]:
            return m.group(1), len(re.findall(r"%arg\d+\s*:", m.group(2)))
    raise RuntimeError("no public function in the exported module")


def _write_json(path: Path, data: dict) -> None:
    """An ``export.json`` record, stamped with ``EXPORT_FORMAT``, written whole or not at all."""
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(json.dumps({**data, "format": EXPORT_FORMAT}, indent=1))
    tmp.replace(path)


def _export_main(peer: str, cache: str, names_file: str) -> int:
    """The export child: each test (a ``NAME FILE`` line) in turn, ``START``/``DONE`` lines on the original stdout."""
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # what the tests and the exporter print goes to stderr, not into the protocol
    rows = [line.split() + [""] for line in Path(names_file).read_text().splitlines() if line.strip()]
    files = {file for _, file, *_ in rows}
    tests, failed = load_tests(Path(peer), None if "" in files else files)
    by_name = {t.name: t for t in tests}
    for name, file, *_ in rows:
        protocol.write(f"START {name}\n")
        if name in by_name:
            export_test(by_name[name], Path(cache) / name)
        else:  # its file failed before registering it
            why = failed.get(file, "not registered when the suite's files load")
            meta = {"name": name, "file": file, "outcome": "export-fail", "error": f"the file does not load: {why}"}
            _write_json_mkdir(cache, name, {**meta, "phase": "load"})
        protocol.write(f"DONE {name}\n")
    protocol.close()
    os._exit(0)  # skip teardown: torch's and the compiler's objects outlive it


# --------------------------------------------------------------------------
# Exporting many (in the sweep)
# --------------------------------------------------------------------------


def export_record(cache: Path, name: str) -> dict | None:
    """The test's ``export.json`` record; None where there is none, or it is of another ``EXPORT_FORMAT``."""
    path = Path(cache) / name / "export.json"
    try:
        record = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None
    return record if record.get("format") == EXPORT_FORMAT else None


def export_all(
    tests: list[dict],
    peer: Path,
    cache: Path,
    *,
    timeout: float = 300,
    deadline: float | None = None,
    log=sys.stderr,
    python: str = sys.executable,
) -> int:
    """Export every test of ``tests`` (registry rows) not yet in ``cache``; the number exported now.

    A test past its timeout (its own when smaller than ``timeout``) or killing
    the child is recorded as such, and a new child takes the rest.
    """
    todo = [row for row in tests if export_record(cache, row["name"]) is None]
    done = 0
    while todo and (deadline is None or time.time() < deadline):
        batch, todo = todo[:BATCH], todo[BATCH:]
        left = _export_batch(batch, peer, cache, timeout, deadline, log, python)
        done += len(batch) - len(left)
        todo = left + todo
    return done


def _row_meta(row: dict) -> dict:
    return {"name": row["name"], "file": row["file"]}


def _write_json_mkdir(cache: Path, name: str, meta: dict) -> None:
    (Path(cache) / name).mkdir(parents=True, exist_ok=True)
    _write_json(Path(cache) / name / "export.json", meta)


def _export_batch(batch, peer, cache, timeout, deadline, log, python) -> list[dict]:
    """Run one child over ``batch``; the rows it did not get to (after a hang or a death, or the deadline)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as names, tempfile.TemporaryFile() as err:
        names.write("\n".join(f"{r['name']} {r['file']}" for r in batch))
        names.close()
        proc = subprocess.Popen(
            [python, __file__, "export", str(peer), str(cache), names.name],
            stdout=subprocess.PIPE,
            stderr=err,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        rows = {r["name"]: r for r in batch}
        left = list(batch)
        current, started = None, time.monotonic()
        buffer = b""
        try:
            while True:
                limit = timeout
                if current is not None and rows[current]["timeout"] < 120:
                    limit = rows[current]["timeout"]  # the test's own, smaller limit (TimeOutModule)
                wait = max(0.1, limit - (time.monotonic() - started)) if current else 60
                ready, _, _ = select.select([proc.stdout], [], [], wait)
                if not ready:
                    if current is None:
                        continue
                    _kill(proc)
                    _write_json_mkdir(
                        cache,
                        current,
                        {
                            **_row_meta(rows[current]),
                            "outcome": "export-fail",
                            "error": f"timed out after {limit:g} s",
                            "timeout": True,
                        },
                    )
                    _log(log, current, "timeout")
                    left = [r for r in left if r["name"] != current]
                    return left
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    kind, _, name = line.decode().partition(" ")
                    if kind == "START":
                        current, started = name, time.monotonic()
                        if deadline is not None and time.time() >= deadline:
                            _kill(proc)
                            return left
                    elif kind == "DONE":
                        meta = export_record(cache, name) or {}
                        _log(
                            log,
                            name,
                            meta.get("outcome", "?") + (f"  {meta['error'][:120]}" if meta.get("error") else ""),
                        )
                        left = [r for r in left if r["name"] != name]
                        current = None
            code = proc.wait()
            if current is not None:  # it died during a test
                err.seek(0)
                tail = err.read().decode(errors="replace").strip().splitlines()[-5:]
                sig = signal.Signals(-code).name if code < 0 else f"exit status {code}"
                _write_json_mkdir(
                    cache,
                    current,
                    {
                        **_row_meta(rows[current]),
                        "outcome": "export-fail",
                        "error": f"the exporter died: {sig}",
                        "crash": True,
                        "log": "\n".join(tail),
                    },
                )
                _log(log, current, f"crash ({sig})")
                left = [r for r in left if r["name"] != current]
            elif left and code != 0:
                err.seek(0)
                tail = err.read().decode(errors="replace").strip().splitlines()[-3:]
                raise RuntimeError(f"the export child failed before any test: {' | '.join(tail)}")
            return left
        finally:
            if proc.poll() is None:
                _kill(proc)
            os.unlink(names.name)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _log(log, name: str, what: str) -> None:
    if log:
        print(f"[export] {name}: {what}", file=log, flush=True)


# --------------------------------------------------------------------------
# Export failures, by family
# --------------------------------------------------------------------------

# (family, pattern on "Type: message" or the frame that raised it), first match wins
EXPORT_FAMILIES = [
    ("torchvision is not installed", r"No module named 'torchvision'"),
    ("torch-mlir's custom-op library is not installed", r"_torch_mlir_custom_op_example|No module named 'torch_mlir'"),
    (
        "the module returns a Python scalar (a constant): iree-turbine's importer raises KeyError",
        r"^KeyError: .*@\S*exported_program",
    ),
    (
        "the module returns a Python scalar read from a tensor (a SymInt): iree-turbine's importer raises AttributeError",
        r"^AttributeError: 'SymInt' object has no attribute 'dtype' @\S*exported_program",
    ),
    ("data-dependent shape or value (GuardOnDataDependentSymNode)", r"GuardOnDataDependent|data.dependent"),
    (
        "quantized tensors: torch.export's fake tensors lack them",
        r"quantized|int_repr|fake_quantize|LinearPackedParams",
    ),
    (
        "a prims op whose result aliases its input: functionalization refuses it",
        r"custom \(non-ATen\) operator whose output has alias annotations",
    ),
    ("timed out", r"^timed out"),
    ("the exporter died", r"^the exporter died"),
]


def export_family(meta: dict) -> str:
    """An export failure's family: named for the common causes, else (PyTorch eager failing first, or the
    export) its exception and normalised message."""
    error = meta.get("error", "")
    text = f"{error} @{meta.get('where', '')}"
    for name, pattern in EXPORT_FAMILIES:
        if re.search(pattern, text):
            return name
    error = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", error)
    error = re.sub(r"\d+", "N", error)[:160]
    return f"PyTorch eager fails: {error}" if meta.get("phase") == "eager" else error


# --------------------------------------------------------------------------
# Judging IREE's results
# --------------------------------------------------------------------------


def load_call_arrays(folder: Path, meta: dict) -> list[tuple[list, list]]:
    """Each call's (inputs, PyTorch's outputs) as NumPy arrays, bfloat16 restored."""
    import numpy as np

    def read(name, dtype):
        a = np.load(Path(folder) / name)
        if dtype == "bfloat16":
            import ml_dtypes

            a = a.view(ml_dtypes.bfloat16)
        return a

    return [
        (
            [read(f"call{c}_in{i}.npy", d) for i, d in enumerate(call["inputs"])],
            [read(f"call{c}_out{i}.npy", d) for i, d in enumerate(call["outputs"])],
        )
        for c, call in enumerate(meta["calls"])
    ]


def signless_as(e, g):
    """``g`` read as PyTorch's ``e``: IREE's ABI is signless, so the runtime reads an unsigned result (torch's
    uint8) as the signed integer of its width; its bytes are the module's, read as torch's dtype. Any other
    difference in dtype is left for the comparison to report."""
    if e.dtype.kind == "u" and g.dtype.kind == "i" and e.dtype.itemsize == g.dtype.itemsize:
        return g.view(e.dtype)
    return g


def compare(expected: list, got: list) -> tuple[str, str]:
    """("", "") when ``got`` matches PyTorch's ``expected`` outputs, else (kind, what differs first)."""
    import numpy as np

    if len(got) != len(expected):
        return "result count", f"{len(got)} results, PyTorch {len(expected)}"
    for i, (e, g) in enumerate(zip(expected, got)):
        e, g = np.asarray(e), signless_as(np.asarray(e), np.asarray(g))
        where = f"result {i} ({e.dtype} {list(e.shape)})"
        if g.shape != e.shape:
            return "shape", f"{where}: shape {list(g.shape)}"
        if g.dtype != e.dtype:
            return "dtype", f"{where}: dtype {g.dtype}"
        if e.size == 0:
            continue
        if e.dtype.kind in "biu":
            bad = g != e
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                return "integers differ", (
                    f"{where}: {int(bad.sum())} of {e.size} elements differ, first at "
                    f"{k}: {g.reshape(-1)[k]} vs {e.reshape(-1)[k]}"
                )
            continue
        stats = _float_differences(e, g)
        if stats["bad"]:
            kind = (
                "NaN where PyTorch has a number"
                if stats["nan_got"]
                else "a number where PyTorch has NaN"
                if stats["nan_want"]
                else "infinities differ"
                if stats["inf"]
                else "floats differ"
            )
            k = stats["first"]
            measure = f", max abs error {stats['abs']:.3g}, max rel error {stats['rel']:.3g}" if stats["finite"] else ""
            return kind, (
                f"{where}: {stats['bad']} of {e.size} elements beyond rtol {RTOL:g} atol {ATOL:g}"
                f"{measure}; first at {k}: {g.reshape(-1)[k]} vs {e.reshape(-1)[k]}"
            )
    return "", ""


CHUNK = 1 << 22  # elements compared at a time: a 268M-element f16 result upcast at once would take GBs


def _float_differences(e, g) -> dict:
    """Where ``g`` is not within tolerance of ``e`` (both upcast to float64 or complex128, a chunk at a time)."""
    import numpy as np

    wide = np.complex128 if e.dtype.kind == "c" else np.float64
    e, g = e.reshape(-1), g.reshape(-1)
    out = {
        "bad": 0,
        "first": -1,
        "nan_got": False,
        "nan_want": False,
        "inf": False,
        "finite": 0,
        "abs": 0.0,
        "rel": 0.0,
    }
    for start in range(0, e.size, CHUNK):
        e64, g64 = e[start : start + CHUNK].astype(wide), g[start : start + CHUNK].astype(wide)
        bad = ~np.isclose(g64, e64, rtol=RTOL, atol=ATOL, equal_nan=True)
        if not bad.any():
            continue
        if out["first"] < 0:
            out["first"] = start + int(np.flatnonzero(bad)[0])
        out["bad"] += int(bad.sum())
        nan = bad & (np.isnan(g64) != np.isnan(e64))
        out["nan_got"] |= bool((nan & np.isnan(g64)).any())
        out["nan_want"] |= bool(nan.any())
        out["inf"] |= bool((bad & ~nan & (np.isinf(g64) | np.isinf(e64))).any())
        finite = bad & np.isfinite(g64) & np.isfinite(e64)
        if finite.any():
            err = np.abs(g64 - e64)[finite]
            out["finite"] += int(finite.sum())
            out["abs"] = max(out["abs"], float(err.max()))
            out["rel"] = max(out["rel"], float((err / np.maximum(np.abs(e64[finite]), ATOL)).max()))
    return out


def shapes_match(expected: list, got: list) -> str:
    """For a random program: "" when shapes and dtypes match PyTorch's, else what differs."""
    import numpy as np

    if len(got) != len(expected):
        return f"{len(got)} results, PyTorch {len(expected)}"
    for i, (e, g) in enumerate(zip(expected, got)):
        e, g = np.asarray(e), signless_as(np.asarray(e), np.asarray(g))
        if (g.shape, g.dtype) != (e.shape, e.dtype):
            return f"result {i}: {g.dtype} {list(g.shape)}, PyTorch {e.dtype} {list(e.shape)}"
    return ""


if __name__ == "__main__":
    command, rest = sys.argv[1], sys.argv[2:]
    if command == "export":
        sys.exit(_export_main(*rest))
    print(f"usage: {sys.argv[0]} export PEER CACHE NAMES.txt (NAME FILE lines)", file=sys.stderr)
    sys.exit(2)

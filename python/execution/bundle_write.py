"""Write a bundle: modules compiled here for a device that is elsewhere.

``opt-py bundle`` writes one: a directory that a machine with only
``iree-base-runtime`` and numpy can run (``python DIR/run_bundle.py DIR
--device cuda``, or ``python -m opt_py.execution.bundle_run DIR``): for each case
its inputs, its reference outputs and one .vmfb per variant (stock IREE, and
IREE with Python pipelines injected; a module another variant of the case has
byte for byte is that one's file, ``same_as`` it), and manifest.json saying
what is what.
A variant that does not compile is recorded with its error, so the run
counts it as failed. With ``--fixes-minus-one`` a case also has, for each fix
that rewrote something in its ``--fixes`` compile, ``fixes-minus-NAME``:
``--fixes`` without that fix, so that a timed run there shows what each costs.

The cases come from model corpora, found by ``--corpus DIR`` (repeatable;
default: ``$OPT_PY_CORPUS``, else ``test/models`` under the current
directory, a checkout's root), and from random program generators, which
the caller passes in (``generator_cases``: ``opt-py bundle``, tool/bundle.py,
passes ``opt_py.cases.generators()``).
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from ..errors import OptPyError
from .bundle_run import FORMAT

CORPUS_ENV = "OPT_PY_CORPUS"
DEFAULT_CORPUS = os.path.join("test", "models")  # under the current directory: a checkout's root


def default_corpus() -> Path:
    """``$OPT_PY_CORPUS``, else ``test/models`` under the current directory."""
    return Path(os.environ.get(CORPUS_ENV) or DEFAULT_CORPUS)


class Generator(Protocol):
    """A random program generator (a module of python/cases/): a case from a seed, its program,
    its inputs, and numpy's outputs for them."""

    def random_case(self, seed: int): ...

    def program(self, case) -> str: ...

    def inputs(self, case) -> list: ...

    def expected(self, case, args): ...


@dataclass(frozen=True)
class Variant:
    """A way of compiling: stock (no injections), with opt-py's fixes (``--fixes=fixes``, less the fixes
    ``leave_out`` names) and pipelines."""

    name: str
    inject: tuple[str, ...] = ()
    inject_codegen: tuple[str, ...] = ()
    extra_flags: tuple[str, ...] = ()
    fixes: str | None = None
    leave_out: tuple[str, ...] = ()

    def described(self) -> dict:
        """The variant as the manifest lists it."""
        return {
            "fixes": self.fixes,
            "leaves_out": list(self.leave_out),
            "inject": list(self.inject),
            "inject_codegen": list(self.inject_codegen),
            "extra_flags": list(self.extra_flags),
        }


STOCK = Variant("stock")
FIXES = Variant("fixes", fixes="all")
MINUS = "fixes-minus-"  # fixes-minus-NAME: --fixes without the fix NAME


def minus_one(fix: str) -> Variant:
    """``--fixes`` without ``fix``, the held-back fixes still held back (fixes.compile_with_fixes' leave_out)."""
    return Variant(MINUS + fix, fixes=FIXES.fixes, leave_out=(fix,))


@dataclass
class Case:
    """A program, its inputs and reference outputs, and what stock IREE is
    known to do with it (``known``: target or ``<target>-run`` -> "wrong" or
    "compile-error: <text>", as in test/models manifests)."""

    name: str
    family: str
    program: str  # path to an MLIR file
    function: str
    inputs: list
    expected: list
    rtol: float = 1e-5
    atol: float = 1e-6
    known: dict = field(default_factory=dict)


def corpus_cases(root=None, names=None, families=None) -> list[Case]:
    """The model corpus ``root`` (a directory or a list of them; default ``default_corpus()``) as bundle cases."""
    roots = [default_corpus()] if root is None else [root] if isinstance(root, (str, Path)) else list(root)
    cases = [c for r in roots for c in _corpus_cases(Path(r), names, families)]
    repeated = sorted({c.name for c in cases if [d.name for d in cases].count(c.name) > 1})
    if repeated:
        raise OptPyError(f"models named alike in {', '.join(map(str, roots))}: {', '.join(repeated)}")
    missing = set(names or ()) - {c.name for c in cases}
    if missing:
        raise OptPyError(f"no such cases in {', '.join(map(str, roots))}: {', '.join(sorted(missing))}")
    return cases


def _corpus_cases(root: Path, names, families) -> list[Case]:
    if not root.is_dir():
        raise OptPyError(
            f"no model corpus at '{root}': give --corpus DIR or set {CORPUS_ENV} "
            f"(the default is {DEFAULT_CORPUS} under the current directory), or leave it out with --no-corpus"
        )
    cases = []
    for mpath in sorted(root.glob("*/manifest.json")):
        m = json.loads(mpath.read_text())
        if (names and m["name"] not in names) or (families and m["family"] not in families):
            continue
        d = mpath.parent
        cases.append(
            Case(
                m["name"],
                m["family"],
                str(d / "model.mlir"),
                m["function"],
                [np.load(d / f"input{i}.npy") for i in range(len(m["inputs"]))],
                [np.load(d / f"expected{i}.npy") for i in range(len(m["outputs"]))],
                m["tolerance"]["rtol"],
                m["tolerance"]["atol"],
                m.get("known", {}),
            )
        )
    return cases


def _stock_expectation(case: Case, target: str) -> str:
    """What a run of stock IREE's module is expected to give on ``target``."""
    for key in (target, f"{target}-run"):
        status = case.known.get(key, "")
        if status.startswith("compile-error"):
            return "compile-error"
        if status == "wrong":
            return "wrong"
    return "right"


def _versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for pkg in ("iree-base-compiler", "iree-base-runtime", "opt-py"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            pass
    return out


def write_bundle(
    out_dir, cases: list[Case], *, target: str = "cuda", variants=(STOCK,), minus_one_fixes=False, log=None
) -> dict:
    """Compile every case in every variant for ``target`` into ``out_dir``;
    returns the manifest (also written as out_dir/manifest.json).

    ``minus_one_fixes``: also, per case, ``fixes-minus-NAME`` for each fix that rewrote something in the
    case's ``fixes`` variant (which must be among ``variants``): where leaving a fix out can differ."""
    from . import e2e

    tgt = e2e.TARGETS[target]
    names = [v.name for v in variants]
    if len(set(names)) != len(names):
        raise OptPyError(f"variant names repeat: {names}")
    if minus_one_fixes and FIXES not in variants:
        raise OptPyError("the fixes-minus-one variants leave one fix out of the fixes variant: keep it")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    listed = list(variants)
    for case in cases:
        entry, minus = _write_case(out, case, tgt, variants, minus_one_fixes, log)
        listed += [v for v in minus if v not in listed]
        if "stock" in names:  # a generated program's stock outcome is what the bundle measures
            entry["known"]["stock"] = "any" if case.family.startswith("random ") else _stock_expectation(case, target)
        entries.append(entry)
    manifest = {
        "format": FORMAT,
        "target": target,
        "device": tgt.device,
        "compile_flags": list(tgt.compile_flags),
        "created_with": _versions(),
        "variants": {v.name: v.described() for v in listed},
        "cases": entries,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    shutil.copyfile(Path(__file__).with_name("bundle_run.py"), out / "run_bundle.py")
    shutil.copyfile(Path(__file__).with_name("worker.py"), out / "worker.py")  # the runner runs each module through it
    return manifest


def _write_case(out: Path, case: Case, tgt, variants, minus_one_fixes: bool, log) -> tuple[dict, list[Variant]]:
    """Write one case's arrays and modules under ``out``: its manifest entry, and the minus-one variants
    it has (``write_bundle``'s ``minus_one_fixes``)."""
    (out / "cases" / case.name).mkdir(parents=True, exist_ok=True)
    entry = {
        "name": case.name,
        "family": case.family,
        "function": case.function,
        "inputs": [],
        "expected": [],
        "tolerance": {"rtol": case.rtol, "atol": case.atol},
        "modules": {},
        "known": {},
    }
    for kind, arrays in (("input", case.inputs), ("expected", case.expected)):
        for i, a in enumerate(arrays):
            rel = f"cases/{case.name}/{kind}{i}.npy"
            np.save(out / rel, np.asarray(a))
            entry["inputs" if kind == "input" else "expected"].append(rel)
    minus: list[Variant] = []
    for v in variants:
        rewrote = _write_module(out, case, tgt, v, entry, minus_one_fixes and v == FIXES, log)
        minus += [minus_one(name) for name in rewrote]
    for v in minus:
        _write_module(out, case, tgt, v, entry, False, log)
    return entry, minus


def _write_module(out: Path, case: Case, tgt, v: Variant, entry: dict, record: bool, log) -> list[str]:
    """Compile ``case`` as ``v`` into the bundle and record it in ``entry``; with ``record``, the fixes
    that rewrote something, in the table's order (also recorded, with their counts)."""
    from ..iree import fixes
    from . import e2e

    rel = f"cases/{case.name}/{v.name}.vmfb"
    module: dict = {"leaves_out": list(v.leave_out)} if v.leave_out else {}
    rewrote: dict[str, int] = {}
    try:
        result = e2e.compile_result(
            case.program,
            tgt,
            inject=v.inject,
            inject_codegen=v.inject_codegen,
            extra_flags=v.extra_flags,
            fixes=v.fixes,
            leave_out=v.leave_out,
            record_rewrites=record,
        )
        ok, error = result.ok, "" if result.ok else "\n".join(result.messages)
    except Exception as e:  # noqa: BLE001 - a compile failure is this variant's outcome
        ok, error = False, str(e)
    if ok:
        same = _same_module(out, entry, result.output)
        if same:  # one file, timed once there: the bundle is smaller and the device's time goes further
            module.update(vmfb=entry["modules"][same]["vmfb"], same_as=same)
        else:
            (out / rel).write_bytes(result.output)
            module["vmfb"] = rel
        if record:
            for r in result.rewrites:
                rewrote[r.pass_name] = rewrote.get(r.pass_name, 0) + 1
            rewrote = {f.name: rewrote[f.name] for f in fixes.FIXES if f.name in rewrote}
            module["rewrote"] = rewrote
    else:
        module["compile_error"] = first_error(error.strip())
    entry["modules"][v.name] = module
    if log:
        status = f"compiled, the same module as {module['same_as']}" if "same_as" in module else "compiled"
        log(f"{case.name:34} {v.name:12} {status if ok else 'compile error'}")
    return list(rewrote)


def _same_module(out: Path, entry: dict, data: bytes) -> str | None:
    """The earlier variant of the case whose module has these bytes, if one has."""
    for name, m in entry["modules"].items():
        if "vmfb" in m and "same_as" not in m and (out / m["vmfb"]).read_bytes() == data:
            return name
    return None


def first_error(msg: str) -> str:
    """The first 'error:' line of a compiler message (all of it when none)."""
    for line in msg.splitlines():
        if "error:" in line:
            return line.strip()[:500]
    return msg[:500]


def generator_cases(name: str, gen: Generator, n: int, seed: int = 0) -> list[Case]:
    """``n`` cases of the random program generator ``gen``, named ``name`` (exact references from numpy)."""
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix=f"opt-py-bundle-{name}-"))
    out = []
    for i in range(n):
        case = gen.random_case(seed + i)
        text = gen.program(case)
        path = tmp / f"{name}_{seed + i}.mlir"
        path.write_text(text)
        args = gen.inputs(case)
        want = gen.expected(case, args)
        want = list(want) if isinstance(want, (list, tuple)) else [want]
        out.append(
            Case(
                f"{name}_{seed + i}",
                f"random {name}",
                str(path),
                _first_function(text),
                list(args),
                want,
                rtol=0.0,
                atol=0.0,
            )
        )
    return out


def _first_function(text: str) -> str:
    import re

    m = re.search(r"func\.func @([\w$.\-]+)", text)
    if m is None:
        raise OptPyError("a generated program has no function")
    return m.group(1)

"""The real-model corpora (test/models/, test/library_models/): their manifests
and files, a per-session cache of compiled modules (used by each conftest.py's
fixture), and the checks of a manifest's pinned stock failures."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent


class Model:
    def __init__(self, d: Path):
        self.dir = d
        self.name = d.name
        self.manifest = json.loads((d / "manifest.json").read_text())
        self.path = d / "model.mlir"

    @property
    def function(self):
        return self.manifest["function"]

    def inputs(self):
        return [np.load(self.dir / f"input{i}.npy") for i in range(len(self.manifest["inputs"]))]

    def expected(self):
        return [np.load(self.dir / f"expected{i}.npy") for i in range(len(self.manifest["outputs"]))]

    def known(self, key):
        return self.manifest.get("known", {}).get(key)

    def slow(self, target):
        return target in self.manifest.get("slow", [])


def all_models(root: Path = ROOT):
    return [Model(p.parent) for p in sorted(root.glob("*/manifest.json"))]


class Compiled:
    """Compiled modules of this session, on disk in a tmp dir; a compile error
    is cached too and raised again to every test that asks."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.done = {}

    def get(self, model: Model, target_name: str, inject=(), fixes: bool = False) -> bytes:
        """The module compiled for ``target_name``: stock, with ``inject``, or with opt-py compile --fixes."""
        from opt_py.execution import e2e

        key = (model.name, target_name, tuple(inject), fixes)
        if key not in self.done:
            target = e2e.TARGETS[target_name]
            try:
                vmfb = e2e.compile_program(str(model.path), target, inject=inject, fixes="all" if fixes else None)
                path = self.tmp / f"{model.name}.{target_name}.{len(self.done)}.vmfb"
                path.write_bytes(vmfb)
                self.done[key] = path
            except Exception as e:  # noqa: BLE001 - cached and re-raised
                self.done[key] = e
        got = self.done[key]
        if isinstance(got, Exception):
            raise got
        return got.read_bytes()


def mismatches(model: Model, outs):
    """The outputs that differ from PyTorch's beyond the manifest's tolerance."""
    from opt_py.execution import e2e

    tol = model.manifest["tolerance"]
    diffs = e2e.compare(outs, model.expected(), rtol=tol["rtol"], atol=tol["atol"])
    return [d for d in diffs if not d.same]


def expect_compile(compiled: Compiled, model: Model, target: str):
    """The module stock IREE compiles, or (when the manifest pins a compile error
    for ``target``) None after checking that the error is still there."""
    from opt_py import OptPyError

    known = model.known(target) or ""
    if known.startswith("compile-error:"):
        text = known.split(":", 1)[1].strip()
        with pytest.raises(OptPyError, match=re.escape(text)):
            compiled.get(model, target)
        return None
    return compiled.get(model, target)


def check_numbers(model: Model, outs, key: str):
    """The outputs match PyTorch, or still do not where the manifest pins ``key`` as "wrong"."""
    from opt_py.execution import e2e

    bad = mismatches(model, outs)
    if model.known(key) == "wrong":
        assert bad, f"{model.name}: IREE is pinned as wrong on {key} but now matches PyTorch: update the manifest"
    else:
        assert not bad, f"{model.name} on {key}:\n" + e2e.format_report(bad, "IREE", "PyTorch")


def assert_same_export(got: Path, want: Path, hand_kept=()) -> None:
    """A re-export ``got`` gives the committed files ``want``: the program and integer arrays byte for
    byte, the manifest but its ``hand_kept`` entries, and float arrays (PyTorch's outputs, and inputs a
    model computed, such as the caches a prefill filled for a decode step) to the rounding of its float32
    kernels, which follows the CPU (softmax_mul's committed output differs by 1 ulp on an AMD EPYC,
    llama_decode_static_cache's prefilled cache in its last bits when re-exported here: bytes would
    test the machine)."""
    for f in want.iterdir():
        new = got / f.name
        if f.name == "manifest.json":
            keep = {k: v for k, v in json.loads(f.read_text()).items() if k not in hand_kept}
            assert {k: v for k, v in json.loads(new.read_text()).items() if k not in hand_kept} == keep, f.name
        elif f.suffix == ".npy" and (ref := np.load(f)).dtype.kind == "f":
            fresh = np.load(new)
            assert fresh.dtype == ref.dtype, (str(f), fresh.dtype, ref.dtype)
            scale = float(np.max(np.abs(ref[np.isfinite(ref)]), initial=0.0))  # an empty or non-finite array: 0
            np.testing.assert_allclose(fresh, ref, rtol=1e-6, atol=1e-6 * scale, err_msg=str(f))
        else:
            assert new.read_bytes() == f.read_bytes(), f"{want.name}/{f.name}"

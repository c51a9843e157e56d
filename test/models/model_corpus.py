"""The real-model corpus under test/models/: its manifests and files, and a
per-session cache of compiled modules (used by conftest.py's fixture)."""

import json
from pathlib import Path

import numpy as np

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


def all_models():
    return [Model(p.parent) for p in sorted(ROOT.glob("*/manifest.json"))]


class Compiled:
    """Compiled modules of this session, on disk in a tmp dir; a compile error
    is cached too and raised again to every test that asks."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.done = {}

    def get(self, model: Model, target_name: str, inject=(), fixes: bool = False) -> bytes:
        """The module compiled for ``target_name``: stock, with ``inject``, or with opt-py compile --fixes."""
        from opt_py.iree import e2e
        from opt_py.iree import fixes as fix_table

        key = (model.name, target_name, tuple(inject), fixes)
        if key not in self.done:
            target = e2e.TARGETS[target_name]
            inject_codegen = ()
            if fixes:
                fix_inject, inject_codegen = fix_table.specs("all", target.compile_flags)
                inject = (*fix_inject, *inject)
            try:
                vmfb = e2e.compile_program(str(model.path), target, inject=inject, inject_codegen=inject_codegen)
                path = self.tmp / f"{model.name}.{target_name}.{len(self.done)}.vmfb"
                path.write_bytes(vmfb)
                self.done[key] = path
            except Exception as e:  # noqa: BLE001 - cached and re-raised
                self.done[key] = e
        got = self.done[key]
        if isinstance(got, Exception):
            raise got
        return got.read_bytes()

"""--fixes costs nothing where it finds nothing: a fix runs only where one of its ops is in the module.

A stop asks IREE for the module's op names (MLIR's op-stats pass, in C++)
before handing the module over; steps none of whose ops are there are
skipped, and a stop whose steps are all skipped never exports the module.
The fixes' own modules are imported only when one of them runs.
"""

import json
import subprocess
import sys

import pytest
from opt_py.iree import phases
from opt_py.iree.phases import Injection, compile_with_injections

CPU = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
PROGRAM = """
func.func @add_mul(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = arith.addf %a, %b : tensor<8xf32>
  %1 = arith.mulf %0, %b : tensor<8xf32>
  return %1 : tensor<8xf32>
}
"""


@pytest.fixture
def program(tmp_path):
    p = tmp_path / "add_mul.mlir"
    p.write_text(PROGRAM)
    return str(p)


@pytest.fixture
def exports(monkeypatch):
    """The phases at which the module was handed to Python."""
    seen = []
    export = phases.Compilation.export

    def counted(self):
        seen.append(self.reached or "start")
        return export(self)

    monkeypatch.setattr(phases.Compilation, "export", counted)
    return seen


def test_a_stop_whose_steps_find_none_of_their_ops_exports_nothing(program, exports):
    stock = compile_with_injections(program, CPU, [])
    guarded = Injection("global-optimization", "builtin.module()", frozenset({"no_such.op"}))
    result = compile_with_injections(program, CPU, [guarded])
    assert result.ok and exports == []
    assert result.skipped == [("global-optimization", "builtin.module()")]
    assert result.output == stock.output


def test_a_stop_with_one_of_the_ops_exports_and_runs_the_step(program, exports):
    guarded = Injection("start", "builtin.module()", frozenset({"no_such.op", "arith.mulf"}))
    result = compile_with_injections(program, CPU, [guarded])
    assert result.ok and exports == ["start"] and result.skipped == []


def test_the_ops_are_asked_again_after_a_step_ran(program, exports, monkeypatch):
    """The first step makes the op the second one needs (addf -> subf): the second must run."""
    monkeypatch.syspath_prepend(str(phases_plugin_site()))
    first = Injection("start", "test-addf-to-subf", frozenset({"arith.addf"}))
    second = Injection("start", "builtin.module()", frozenset({"arith.subf"}))
    result = compile_with_injections(program, CPU, [first, second])
    assert result.ok and exports == ["start"] and result.skipped == []
    skipped = compile_with_injections(program, CPU, [second])
    assert skipped.skipped == [("start", "builtin.module()")]


def test_a_users_injection_always_runs(program, exports):
    result = compile_with_injections(program, CPU, [Injection("flow", "builtin.module()")])
    assert result.ok and exports == ["flow"] and result.skipped == []


def test_fixes_import_no_fix_where_none_has_work(tmp_path):
    """--fixes on a program none of whose ops any fix works on (scalars: no dispatch) loads none of the fixes'
    passes; on the tensor program the fixes whose ops are there are loaded, and only those."""
    scalar = tmp_path / "scalar.mlir"
    scalar.write_text("func.func @f(%a: i32, %b: i32) -> i32 {\n  %0 = arith.addi %a, %b : i32\n  return %0 : i32\n}\n")
    assert _fix_modules_loaded(str(scalar)) == []
    assert _fix_modules_loaded(str(tmp_path / "add_mul.mlir"), PROGRAM) == [
        "opt_py.passes.clone_splat_dispatch_per_tied_use",
        "opt_py.passes.copy_shared_tied_operand",
        "opt_py.passes.fold_collapse_shape_into_store",
        "opt_py.passes.rotation_map_to_slices",
    ]


def _fix_modules_loaded(program: str, text: str | None = None) -> list[str]:
    if text is not None:
        with open(program, "w") as f:
            f.write(text)
    code = (
        "import json, sys\n"
        "from opt_py.iree.fixes import compile_with_fixes\n"
        f"result, run = compile_with_fixes({program!r}, {CPU!r})\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('opt_py.passes.'))\n"
        "print(json.dumps([result.ok, len(result.skipped), loaded]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ok, skipped, loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert ok and skipped > 10
    return loaded


def phases_plugin_site():
    from pathlib import Path

    return Path(__file__).resolve().parent.parent / "plugins" / "site"

"""Plugins: passes found through the ``opt_py.passes`` entry-point group.

Each test writes a minimal installed-style distribution into a temporary
directory (a ``*.dist-info`` with METADATA and entry_points.txt, beside the
module it names), puts that directory on PYTHONPATH and runs ``opt-py`` as a
subprocess, as a user with the plugin pip-installed would. The tests at
the end pin core bugs, now fixed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

INPUT = """\
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  return %b : i32
}
"""

HELLO = """
from dataclasses import dataclass

from opt_py import Pass, option


@dataclass(frozen=True)
class Hello(Pass):
    name = "plugin-hello"
    anchor = "func.func"
    summary = "Plugin: greet every function"
    greeting: str = option("hi", "what to say")

    def run(self, op, ctx):
        from iree.compiler import ir

        op.operation.attributes["plugin.greeting"] = ir.StringAttr.get(self.greeting)


@dataclass(frozen=True)
class Bye(Pass):
    name = "plugin-bye"
    summary = "Plugin: wave at the root op"

    def run(self, op, ctx):
        from iree.compiler import ir

        op.operation.attributes["plugin.bye"] = ir.UnitAttr.get()


PASSES = [Hello, Bye]
"""

CSE = """
from dataclasses import dataclass

from opt_py import Pass


@dataclass(frozen=True)
class MyCse(Pass):
    name = "cse"
    summary = "Plugin: collides with the C++ cse"

    def run(self, op, ctx):
        raise AssertionError("must never run")
"""


def _opt_py_command() -> list[str]:
    exe = Path(sys.executable).parent / "opt-py"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "opt_py"]


def write_plugin(site: Path, dist: str, module: str, source: str, entry_points: dict[str, str]) -> Path:
    """An installed-style distribution ``dist`` in ``site``: module + dist-info."""
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{dist.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n")
    eps = "".join(f"{name} = {target}\n" for name, target in entry_points.items())
    (info / "entry_points.txt").write_text(f"[opt_py.passes]\n{eps}")
    (info / "RECORD").write_text(f"{module}.py,,\n{info.name}/METADATA,,\n{info.name}/entry_points.txt,,\n")
    return site


def opt_py(*args, sites=(), stdin=INPUT, cwd=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(s) for s in sites)
    return subprocess.run(
        [*_opt_py_command(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=cwd,
        check=False,
    )


@pytest.fixture
def hello_site(tmp_path):
    return write_plugin(
        tmp_path / "hello",
        "opt-py-hello",
        "opt_py_hello",
        HELLO,
        {"hello": "opt_py_hello:Hello", "bye": "opt_py_hello:Bye"},
    )


def _clean_failure(proc):
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout == ""


# --------------------------------------------------------------------------
# A working plugin
# --------------------------------------------------------------------------


def test_list_passes_shows_the_plugin_pass(hello_site):
    proc = opt_py("--list-passes", sites=[hello_site])
    assert proc.returncode == 0, proc.stderr
    python_part = proc.stdout.split("C++ passes and pipelines")[0]
    assert "plugin-hello" in python_part
    assert "- Plugin: greet every function   [anchor: func.func]" in python_part
    assert "greeting=str (default 'hi') - what to say" in python_part


def test_list_passes_shows_every_entry_point_of_the_plugin(hello_site):
    proc = opt_py("--list-passes", sites=[hello_site])
    assert "plugin-bye" in proc.stdout.split("C++ passes and pipelines")[0]


def test_a_pipeline_can_use_the_plugin_pass(hello_site):
    proc = opt_py("-", "--pipeline=plugin-hello", sites=[hello_site])
    assert proc.returncode == 0, proc.stderr
    assert 'plugin.greeting = "hi"' in proc.stdout


def test_the_plugin_pass_takes_options(hello_site):
    proc = opt_py("-", "--pipeline=plugin-hello{greeting=yo}", sites=[hello_site])
    assert proc.returncode == 0, proc.stderr
    assert 'plugin.greeting = "yo"' in proc.stdout


def test_the_plugin_pass_mixes_with_cpp_passes(hello_site):
    proc = opt_py(
        "-", "--pipeline=builtin.module(func.func(canonicalize,plugin-hello),cse,plugin-bye)", sites=[hello_site]
    )
    assert proc.returncode == 0, proc.stderr
    assert "module attributes {plugin.bye}" in proc.stdout
    assert 'plugin.greeting = "hi"' in proc.stdout
    assert "arith.addi" not in proc.stdout


def test_an_entry_point_may_name_a_list_of_passes(tmp_path):
    site = write_plugin(tmp_path / "s", "opt-py-both", "opt_py_both", HELLO, {"both": "opt_py_both:PASSES"})
    proc = opt_py("-", "--pipeline=plugin-hello,plugin-bye", sites=[site])
    assert proc.returncode == 0, proc.stderr
    assert "module attributes {plugin.bye}" in proc.stdout


def test_a_bad_option_of_a_plugin_pass_names_the_option(hello_site):
    proc = opt_py("-", "--pipeline=plugin-hello{colour=red}", sites=[hello_site])
    _clean_failure(proc)
    assert "pass 'plugin-hello' has no option 'colour' (options: greeting)" in proc.stderr


def test_without_the_plugin_on_the_path_its_pass_is_unknown(tmp_path):
    proc = opt_py("-", "--pipeline=plugin-hello", sites=[tmp_path])
    _clean_failure(proc)
    assert "'plugin-hello' does not refer to a registered pass or pass pipeline" in proc.stderr


# --------------------------------------------------------------------------
# Broken plugins
# --------------------------------------------------------------------------


@pytest.fixture
def cse_site(tmp_path):
    return write_plugin(tmp_path / "cse", "opt-py-cse", "opt_py_cse", CSE, {"mycse": "opt_py_cse:MyCse"})


def test_a_plugin_colliding_with_a_cpp_pass_fails_list_passes(cse_site):
    proc = opt_py("--list-passes", sites=[cse_site])
    _clean_failure(proc)
    assert "opt-py: error: plugin 'mycse' declares pass 'cse', which collides with a registered C++ pass" in proc.stderr


def test_a_plugin_colliding_with_a_cpp_pass_fails_a_pipeline_that_loads_plugins(cse_site):
    proc = opt_py("-", "--pipeline=plugin-hello", sites=[cse_site])
    _clean_failure(proc)
    assert "plugin 'mycse' declares pass 'cse', which collides with a registered C++ pass" in proc.stderr


def test_a_colliding_plugin_does_not_replace_the_cpp_pass(cse_site):
    # Plugins are scanned only for names that are not C++ passes: cse stays MLIR's.
    proc = opt_py("-", "--pipeline=canonicalize,cse", sites=[cse_site])
    assert proc.returncode == 0, proc.stderr
    assert "arith.addi" not in proc.stdout


def test_a_plugin_whose_import_raises_names_the_plugin(tmp_path):
    site = write_plugin(
        tmp_path / "s",
        "opt-py-boom",
        "opt_py_boom",
        'raise ImportError("kaboom at import")\n',
        {"boom": "opt_py_boom:PASSES"},
    )
    proc = opt_py("--list-passes", sites=[site])
    _clean_failure(proc)
    assert (
        "opt-py: error: cannot load opt-py plugin 'boom' (opt_py_boom:PASSES): ImportError: kaboom at import"
        in proc.stderr
    )


def test_a_plugin_whose_import_raises_fails_a_pipeline_naming_the_plugin(tmp_path):
    site = write_plugin(tmp_path / "s", "opt-py-boom", "opt_py_boom", "1 / 0\n", {"boom": "opt_py_boom:PASSES"})
    proc = opt_py("-", "--pipeline=canonicalize,some-plugin-pass", sites=[site])
    _clean_failure(proc)
    assert "cannot load opt-py plugin 'boom' (opt_py_boom:PASSES): ZeroDivisionError: division by zero" in proc.stderr


def test_a_plugin_naming_a_missing_module_names_the_plugin(tmp_path):
    site = write_plugin(tmp_path / "s", "opt-py-ghost", "opt_py_ghost", "", {"ghost": "no_such_module:PASSES"})
    proc = opt_py("--list-passes", sites=[site])
    _clean_failure(proc)
    assert "cannot load opt-py plugin 'ghost' (no_such_module:PASSES)" in proc.stderr


def test_a_plugin_naming_a_missing_attribute_names_the_plugin(tmp_path):
    site = write_plugin(tmp_path / "s", "opt-py-attr", "opt_py_attr", "X = 1\n", {"attr": "opt_py_attr:NOPE"})
    proc = opt_py("--list-passes", sites=[site])
    _clean_failure(proc)
    assert "cannot load opt-py plugin 'attr' (opt_py_attr:NOPE)" in proc.stderr


def test_two_plugins_declaring_the_same_pass_is_an_error(tmp_path, hello_site):
    other = write_plugin(tmp_path / "other", "opt-py-other", "opt_py_other", HELLO, {"again": "opt_py_other:Hello"})
    proc = opt_py("--list-passes", sites=[hello_site, other])
    _clean_failure(proc)
    assert "declares pass 'plugin-hello', which is already declared" in proc.stderr


def test_a_broken_plugin_does_not_affect_cpp_only_pipelines(tmp_path):
    site = write_plugin(tmp_path / "s", "opt-py-boom", "opt_py_boom", "1 / 0\n", {"boom": "opt_py_boom:PASSES"})
    proc = opt_py("-", "--pipeline=canonicalize", sites=[site])
    assert proc.returncode == 0, proc.stderr


# --------------------------------------------------------------------------
# Core bugs, now fixed: each test pins the fix
# --------------------------------------------------------------------------


def test_a_plugin_naming_a_non_pass_names_the_plugin(tmp_path):
    site = write_plugin(tmp_path / "s", "opt-py-np", "opt_py_np", "X = 42\n", {"notapass": "opt_py_np:X"})
    proc = opt_py("--list-passes", sites=[site])
    _clean_failure(proc)
    assert "notapass" in proc.stderr


def test_a_plugin_pass_with_an_invalid_name_names_the_plugin(tmp_path):
    source = HELLO.replace('name = "plugin-hello"', 'name = "bad name!"')
    site = write_plugin(tmp_path / "s", "opt-py-bad", "opt_py_bad", source, {"badname": "opt_py_bad:Hello"})
    proc = opt_py("--list-passes", sites=[site])
    _clean_failure(proc)
    assert "badname" in proc.stderr


def test_a_plugin_whose_import_exits_is_an_error_naming_the_plugin(tmp_path):
    site = write_plugin(
        tmp_path / "s", "opt-py-exit", "opt_py_exit", "import sys\nsys.exit(0)\n", {"exits": "opt_py_exit:PASSES"}
    )
    proc = opt_py("-", "--pipeline=plugin-hello", sites=[site])
    _clean_failure(proc)
    assert "exits" in proc.stderr

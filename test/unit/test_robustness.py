"""Bad plugins and odd inputs end in a located error and exit 1, never a
traceback or a silent success (cases from a robustness review)."""

import subprocess
import sys

import pytest

PROGRAM = """func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %x = arith.addi %a, %c0 : i32
  return %x : i32
}
"""

PLUGIN = """
import sys
from dataclasses import dataclass
from opt_py import Pass, PatternPass, pattern


@dataclass(frozen=True)
class Exits(Pass):
    name = "t-exits"
    anchor = "func.func"

    def run(self, op, ctx):
        sys.exit(0)


@pattern("arith.addi")
def exits_in_pattern(op, rewriter):
    sys.exit(0)


@dataclass(frozen=True)
class PatternExits(PatternPass):
    name = "t-pattern-exits"
    anchor = "func.func"

    def patterns(self):
        return [exits_in_pattern]


@dataclass(frozen=True)
class PatternsRaise(PatternPass):
    name = "t-patterns-raise"
    anchor = "func.func"

    def patterns(self):
        raise RuntimeError("patterns() bug")


@dataclass(frozen=True)
class RejectsOptions(Pass):
    name = "t-post-init"
    anchor = "func.func"
    n: int = 1

    def __post_init__(self):
        raise ValueError("bad n")

    def run(self, op, ctx):
        pass
"""


def opt_py(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "opt_py", *args], capture_output=True, text=True, timeout=300, cwd=cwd)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "in.mlir").write_text(PROGRAM)
    (tmp_path / "plugin.py").write_text(PLUGIN)
    return tmp_path


@pytest.mark.parametrize(
    "pipeline, message",
    [
        ("t-exits", "in.mlir:1:1: error: pass 't-exits' failed: SystemExit: 0"),
        (
            "t-pattern-exits",
            "in.mlir:3:8: error: pass 't-pattern-exits' failed: pattern 'exits_in_pattern' raised SystemExit",
        ),
        ("t-patterns-raise", "error: pass 't-patterns-raise' failed: RuntimeError: patterns() bug"),
        ("t-post-init", "pass 't-post-init' cannot be built: ValueError: bad n"),
    ],
)
def test_plugin_bugs_are_pass_failures(files, pipeline, message):
    r = opt_py(f"--load-pass-plugin={files / 'plugin.py'}", "-p", pipeline, "in.mlir", "-o", "out.mlir", cwd=files)
    assert r.returncode == 1
    assert message in r.stderr
    assert "Traceback" not in r.stderr
    assert not (files / "out.mlir").exists()


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("(", ")"), ("tuple<", ">")])
def test_deep_bracket_nesting_is_refused(tmp_path, opener, closer):
    """MLIR's parser recurses on every bracket kind; 600,000 levels of '['
    crashed it even on opt-py's big stack."""
    n = 200_000
    body = opener * n + closer * n
    text = (
        f'"test.op"() {{a = {body}}} : () -> ()\n'
        if opener == "["
        else f'"test.op"() : () -> ({body})\n'
        if opener == "("
        else f'"test.op"() : () -> {body}\n'
    )
    (tmp_path / "deep.mlir").write_text(text)
    r = opt_py("--allow-unregistered-dialect", "deep.mlir", cwd=tmp_path)
    assert r.returncode == 1
    assert "levels deep; opt-py refuses more than 10000" in r.stderr


def test_deeply_nested_modules_with_a_bare_list_pass(tmp_path):
    """1,000 nested modules: finding the anchors and nesting the pipeline
    used to recurse in Python past its default limit."""
    depth = 1000
    text = "module {\n" * depth + PROGRAM + "}\n" * depth
    (tmp_path / "nested.mlir").write_text(text)
    r = opt_py("-p", "canonicalize", "nested.mlir", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.count("module") >= depth and "arith.addi" not in r.stdout


COMPILE = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]


def test_inject_at_end_says_why(files):
    r = opt_py("compile", "in.mlir", "-o", "x.vmfb", "--inject", "end:cse", *COMPILE, cwd=files)
    assert r.returncode == 1
    assert "--inject cannot run at phase 'end'" in r.stderr and "did you mean" not in r.stderr


def test_dump_phases_into_a_file(files):
    (files / "afile").write_text("x")
    r = opt_py(
        "compile", "in.mlir", "-o", "x.vmfb", "--inject", "flow:cse", "--dump-phases", "afile", *COMPILE, cwd=files
    )
    assert r.returncode == 1
    assert "cannot use 'afile' for --dump-phases" in r.stderr and "Traceback" not in r.stderr
    assert not (files / "x.vmfb").exists()


def test_an_anchor_that_is_not_an_op_name_is_refused(files):
    (files / "anchor.py").write_text(
        "from dataclasses import dataclass\nfrom opt_py import Pass\n\n\n@dataclass(frozen=True)\n"
        "class P(Pass):\n    name = 'int-anchor'\n    anchor = 42\n\n    def run(self, op, ctx):\n        pass\n"
    )
    r = opt_py(f"--load-pass-plugin={files / 'anchor.py'}", "-p", "int-anchor", "in.mlir", cwd=files)
    assert r.returncode == 1
    assert "pass 'int-anchor' declares anchor 42: expected 'any' or an op name" in r.stderr

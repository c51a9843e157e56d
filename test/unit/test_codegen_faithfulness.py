"""--inject-codegen is exactly stock when the injected pipeline changes nothing.

A CI sample of tools/sweep_codegen_faithfulness.py: the points where the
first design (replaying every pass from its dump text) produced heap
allocations or unregistered passes, compared by machine code (CPU) or
assembly text (cuda, rocm; compiled without a GPU), and the refusals.
"""

from pathlib import Path

import pytest
from opt_py.errors import CodegenError
from opt_py.execution.e2e import TARGETS
from opt_py.iree import codegen_faithfulness as cf
from opt_py.iree.codegen_capture import capture_spec
from opt_py.iree.codegen_lowering import FunctionLowering
from opt_py.iree.codegen_replay import UNFAITHFUL_MARK, faithful_suffix, registered_blocks

PROGRAMS = Path(__file__).resolve().parents[1] / "e2e" / "codegen_programs"

# (program, target, point): each once differed from stock or failed
IDENTICAL = [
    ("torch_argsort", "cpu", "before:iree-codegen-tile-and-distribute-to-workgroups-using-forall-op"),
    ("e2e_topk_dyn", "cpu", "after:iree-codegen-iree-comprehensive-bufferize"),
    ("torch_conv", "cpu", "after:iree-codegen-hoist-inner-tiled-acc-reshapes"),  # dense_resource constant
    ("softmax", "rocm", "after:iree-codegen-iree-comprehensive-bufferize"),
    ("torch_attention", "cuda", "after:iree-codegen-iree-comprehensive-bufferize"),
]
REFUSED = [
    ("torch_argsort", "cpu", "after:iree-eliminate-empty-tensors", "iree-codegen-iree-comprehensive-bufferize"),
    (
        "softmax",
        "rocm",
        "before:iree-codegen-tile-and-distribute-to-workgroups-using-forall-op",
        "fold-tensor-subset-ops",
    ),
    # fold-tensor-subset-ops has no textual registration: the hand-over is taken
    # before the pass after it (once a failure: no dump could be asked for)
    ("softmax", "cuda", "after:fold-tensor-subset-ops#1", "iree-codegen-iree-comprehensive-bufferize"),
    ("softmax", "rocm", "after:fold-tensor-subset-ops#1", "iree-codegen-iree-comprehensive-bufferize"),
]


@pytest.fixture(scope="module", autouse=True)
def nothing():
    cf.register_nothing()


_stock: dict = {}


def stock(program, target):
    key = (program, target)
    if key not in _stock:
        code, messages = cf.compile_code(str(PROGRAMS / f"{program}.mlir"), TARGETS[target])
        assert code is not None, messages
        _stock[key] = code
    return _stock[key]


@pytest.mark.parametrize("program,target,point", IDENTICAL)
def test_injecting_nothing_is_stock(program, target, point):
    out = cf.check_point(str(PROGRAMS / f"{program}.mlir"), TARGETS[target], point, stock(program, target))
    assert out.kind == "identical", out.detail


@pytest.mark.parametrize("program,target,point", IDENTICAL)
def test_replay_after_a_change_is_stock(program, target, point):
    """The pipeline changes the IR (an unused constant), so the function is
    replayed after the point: still stock's executable."""
    out = cf.check_point(
        str(PROGRAMS / f"{program}.mlir"), TARGETS[target], point, stock(program, target), pipeline=cf.TOUCH
    )
    assert out.kind == "identical", out.detail


@pytest.mark.parametrize("program,target,point,culprit", REFUSED)
def test_unchanged_ir_is_never_refused(program, target, point, culprit):
    """Where the replay could not be faithful, a pipeline that changes nothing
    leaves the function to IREE: stock's executable, no refusal."""
    out = cf.check_point(str(PROGRAMS / f"{program}.mlir"), TARGETS[target], point, stock(program, target))
    assert out.kind == "identical", out.detail


@pytest.mark.parametrize("program,target,point,culprit", REFUSED)
def test_unfaithful_point_is_refused_naming_it(program, target, point, culprit):
    out = cf.check_point(
        str(PROGRAMS / f"{program}.mlir"), TARGETS[target], point, stock(program, target), pipeline=cf.TOUCH
    )
    assert out.kind == "refused", out
    assert UNFAITHFUL_MARK in out.detail and point.split(":", 1)[1] in out.detail and culprit in out.detail


def test_comparison_sees_instructions_and_ignores_names(tmp_path):
    a = "\t.type\tfoo,@function\nfoo:\n\tmovq\t%rax, %rbx\n\tcallq\tfoo\n"
    b = a.replace("foo", "bar")
    c = a.replace("movq\t%rax", "movq\t%rcx")
    code = {}
    for name, text in (("a", a), ("b", b), ("c", c)):
        d = tmp_path / name
        d.mkdir()
        (d / "x.s").write_text(text)
        code[name] = cf.executable_code(str(d), "cpu")
    assert code["a"] == code["b"]
    assert code["a"] != code["c"]


def test_registered_block_replaces_its_expansion_only_whole():
    block = registered_blocks()["iree-codegen-llvmcpu-bufferization-pipeline"]
    low = FunctionLowering("f", ["cse", *block, "canonicalize"])
    assert faithful_suffix(low, 0, {0: ["X"]}) == [
        "X",
        "cse",
        "iree-codegen-llvmcpu-bufferization-pipeline",
        "canonicalize",
    ]
    # a splice right after the bufferize pass: the prefix is IREE's, the rest replays
    after_bufferize = 1 + block.index(next(p for p in block if "comprehensive-bufferize" in p)) + 1
    items = faithful_suffix(low, after_bufferize, {after_bufferize: ["X"]})
    assert items[0] == "X" and not any("comprehensive-bufferize" in p for p in items)
    # a splice inside the block before its bufferize pass cannot be faithful
    with pytest.raises(CodegenError, match=UNFAITHFUL_MARK):
        faithful_suffix(low, 2, {2: ["X"]})


def test_unregistered_pass_in_suffix_is_refused():
    low = FunctionLowering("f", ["cse", "fold-tensor-subset-ops", "cse"])
    with pytest.raises(CodegenError, match="fold-tensor-subset-ops"):
        faithful_suffix(low, 0, {0: ["X"]})
    assert faithful_suffix(low, 2, {2: ["X"]}) == ["X", "cse"]


@pytest.mark.parametrize("pipeline,discoveries", [(cf.NOTHING, 0), (cf.TOUCH, 1)])
def test_one_point_is_discovered_only_when_changed(monkeypatch, pipeline, discoveries):
    """A single point is captured directly; the discovery compile (the whole
    codegen again, printing every pass) runs only for a pipeline that changed
    a function, whose replay needs the recorded passes. Either way: stock's code."""
    from opt_py.iree import codegen_lowering

    seen = []
    real = codegen_lowering._discover
    monkeypatch.setattr(codegen_lowering, "_discover", lambda *a: seen.append(1) or real(*a))
    monkeypatch.setattr(codegen_lowering, "_discovered", {})
    program, target, point = "e2e_topk_dyn", "cpu", "after:iree-codegen-iree-comprehensive-bufferize"
    out = cf.check_point(
        str(PROGRAMS / f"{program}.mlir"), TARGETS[target], point, stock(program, target), pipeline=pipeline
    )
    assert out.kind == "identical", out.detail
    assert len(seen) == discoveries


def test_every_occurrence_point_still_discovers_first(monkeypatch):
    """``#*`` names several points per function: they are found from the recorded passes."""
    from opt_py.iree import codegen_lowering

    seen = []
    real = codegen_lowering._discover
    monkeypatch.setattr(codegen_lowering, "_discover", lambda *a: seen.append(1) or real(*a))
    monkeypatch.setattr(codegen_lowering, "_discovered", {})
    program, target = "e2e_topk_dyn", "cpu"
    out = cf.check_point(
        str(PROGRAMS / f"{program}.mlir"), TARGETS[target], "after:canonicalize#*", stock(program, target)
    )
    assert out.kind == "identical", out.detail
    assert len(seen) == 1


def test_point_after_an_unnamable_pass_is_taken_before_the_next_one():
    low = FunctionLowering("f", ["canonicalize", "fold-tensor-subset-ops", "canonicalize", "cse"])
    assert capture_spec(low, 1) == ("after", "canonicalize", 1)
    assert capture_spec(low, 2) == ("before", "canonicalize", 2)
    assert capture_spec(low, 3) == ("after", "canonicalize", 2)
    # nothing nameable on either side, or nothing after it: refused, naming the point and why
    for passes in (
        ["cse", "fold-tensor-subset-ops", "fold-tensor-subset-ops", "cse"],
        ["cse", "fold-tensor-subset-ops"],
    ):
        low = FunctionLowering("f", passes)
        with pytest.raises(CodegenError, match=f"{UNFAITHFUL_MARK}.*no textual registration") as e:
            capture_spec(low, passes.index("fold-tensor-subset-ops") + 1)
        assert "after:fold-tensor-subset-ops#1 of '@f'" in str(e.value)


def test_hand_over_after_an_unnamable_pass_is_the_ir_it_leaves():
    """What capture() takes at after:fold-tensor-subset-ops#1 (softmax, cuda
    VectorDistribute) is exactly what IREE's --mlir-print-ir-after-all prints
    after that pass."""
    import re
    import subprocess
    import tempfile

    from iree.compiler import ir
    from iree.compiler.tools.binaries import find_tool
    from opt_py.iree import codegen as cg
    from opt_py.iree import codegen_capture, codegen_lowering
    from opt_py.iree.phases import compile_with_injections

    flags = list(TARGETS["cuda"].compile_flags)
    res = compile_with_injections(str(PROGRAMS / "softmax.mlir"), flags, [], compile_to="executable-configurations")
    assert res.ok, res.messages
    text = res.output.decode()
    with ir.Context():
        module = ir.Module.parse(text).operation
        ((fn, low),) = codegen_lowering.discover(text, flags).items()
        start = 1 + [codegen_lowering.pass_name(p) for p in low.passes].index("fold-tensor-subset-ops")
        spec = capture_spec(low, start)
        assert spec[0] == "before"
        got = codegen_capture.capture(module, flags, {fn: spec})[fn]
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
        f.write(text)
        f.flush()
        proc = subprocess.run(
            [
                find_tool("iree-compile"),
                f.name,
                "-o",
                "/dev/null",
                *flags,
                "--compile-from=executable-configurations",
                "--compile-to=executable-targets",
                "--mlir-print-ir-after-all",
                "--mlir-print-op-generic",
                "--mlir-print-local-scope",
                "--mlir-disable-threading",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    after = [
        t
        for when, name, t in codegen_lowering._parse_dumps(proc.stderr)
        if (when, name) == ("after", "fold-tensor-subset-ops") and t.lstrip().startswith('"func.func"')
    ]
    assert len(after) == 1
    assert re.sub(r" loc\([^)]*\)", "", got) == after[0]
    with ir.Context():
        listing = cg.list_codegen_passes(ir.Module.parse(text).operation, flags).splitlines()
    assert [ln for ln in listing if cg.UNNAMABLE_NOTE in ln] == [
        f"  {start:3d}. fold-tensor-subset-ops  {cg.UNNAMABLE_NOTE}"
    ]

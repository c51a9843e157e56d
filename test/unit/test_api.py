"""The library API: run_pipeline, register_pass, options, Pass and PatternPass.

One behaviour per test. The passes used here are declared in this file and
registered in-process with ``opt_py.register_pass`` (names start with
``api-``); no plugin is needed. The tests at the end pin core bugs, now fixed.
"""

from __future__ import annotations

import typing
from dataclasses import FrozenInstanceError, dataclass

import opt_py
import pytest
from opt_py import (
    OptOptions,
    OptPyError,
    Pass,
    PatternPass,
    PipelineFailed,
    option,
    pattern,
    register_pass,
    run_pipeline,
)
from opt_py.errors import PassOptionError, PassRegistrationError, PipelineError

ir = pytest.importorskip("iree.compiler.ir")

ADD_ZERO = """\
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  return %b : i32
}
"""

TWO_FUNCS = """\
func.func @f() {
  return
}
func.func @g() {
  return
}
"""

MUL_TWO = """\
func.func @m(%a: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %b = arith.muli %a, %c2 : i32
  return %b : i32
}
"""


def _const_int(value):
    owner = value.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)):
        return None
    op = owner.operation
    if op.name != "arith.constant":
        return None
    attr = op.attributes["value"]
    return attr.value if isinstance(attr, ir.IntegerAttr) else None


# --------------------------------------------------------------------------
# Passes used by the tests
# --------------------------------------------------------------------------


@register_pass
@dataclass(frozen=True)
class MarkFunc(Pass):
    name = "api-mark-func"
    anchor = "func.func"
    summary = "Put a unit attribute 'api.seen' on each function"

    def run(self, op, ctx):
        op.operation.attributes["api.seen"] = ir.UnitAttr.get()


@register_pass
@dataclass(frozen=True)
class MarkAny(Pass):
    name = "api-mark-any"
    summary = "Put a unit attribute 'api.root' on the op it runs on"

    def run(self, op, ctx):
        op.operation.attributes["api.root"] = ir.UnitAttr.get()


@register_pass
@dataclass(frozen=True)
class Options(Pass):
    name = "api-options"
    summary = "Store its options as a string attribute"
    count: int = option(1, "an integer")
    scale: float = option(0.5, "a float")
    flag: bool = option(False, "a boolean")
    label: str = option("none", "a string")
    dims: list[int] = option([], "a list of integers")
    max_depth: int = option(3, "an option whose field has an underscore")

    def run(self, op, ctx):
        op.operation.attributes["api.options"] = ir.StringAttr.get(
            f"{self.count}|{self.scale}|{self.flag}|{self.label}|{self.dims}|{self.max_depth}"
        )


@register_pass
@dataclass(frozen=True)
class EmitError(Pass):
    name = "api-emit-error"
    anchor = "func.func"

    def run(self, op, ctx):
        ctx.emit_error(op, "api-emit-error says no")


@register_pass
@dataclass(frozen=True)
class Raises(Pass):
    name = "api-raises"
    anchor = "func.func"

    def run(self, op, ctx):
        raise RuntimeError("api-raises went wrong")


@register_pass
@dataclass(frozen=True)
class CountAddi(Pass):
    """Records how many arith.addi it saw, in a list shared by the test."""

    name = "api-count-addi"
    anchor = "func.func"
    seen: typing.ClassVar[list] = []

    def run(self, op, ctx):
        n = 0
        for block in op.regions[0].blocks:
            n += sum(1 for o in block.operations if o.operation.name == "arith.addi")
        CountAddi.seen.append(n)


@pattern("arith.addi")
def fold_add_zero(op, rewriter):
    if _const_int(op.operands[1]) != 0:
        return rewriter.fail("rhs is not 0")
    rewriter.replace_op(op, [op.operands[0]])
    return True


@pattern("arith.muli")
def mul_two_to_add(op, rewriter):
    from iree.compiler.dialects import arith

    if _const_int(op.operands[1]) != 2:
        return rewriter.fail("rhs is not 2")
    with rewriter.ip, op.location:
        add = arith.AddIOp(op.operands[0], op.operands[0])
    rewriter.replace_op(op, add)
    return True


@pattern("arith.addi")
def never_matches(op, rewriter):
    return rewriter.fail("never")


@pattern("arith.addi")
def raises_in_pattern(op, rewriter):
    raise ValueError("pattern blew up")


@pattern("arith.addi")
def rewrites_but_says_no(op, rewriter):
    rewriter.replace_op(op, [op.operands[0]])
    return False


@register_pass
@dataclass(frozen=True)
class GreedyFold(PatternPass):
    name = "api-greedy-fold"
    anchor = "func.func"

    def patterns(self):
        return [fold_add_zero]


@register_pass
@dataclass(frozen=True)
class WalkMul(PatternPass):
    name = "api-walk-mul"
    driver = "walk"

    def patterns(self):
        return [mul_two_to_add]


@register_pass
@dataclass(frozen=True)
class NoPatternMatches(PatternPass):
    name = "api-no-match"
    anchor = "func.func"

    def patterns(self):
        return [never_matches]


@register_pass
@dataclass(frozen=True)
class RaisingPattern(PatternPass):
    name = "api-raising-pattern"
    anchor = "func.func"

    def patterns(self):
        return [raises_in_pattern]


@register_pass
@dataclass(frozen=True)
class BrokenContract(PatternPass):
    name = "api-broken-contract"
    anchor = "func.func"

    def patterns(self):
        return [rewrites_but_says_no]


def _failure(text, pipeline, **kwargs) -> PipelineFailed:
    with pytest.raises(PipelineFailed) as info:
        run_pipeline(text, pipeline, **kwargs)
    return info.value


# --------------------------------------------------------------------------
# run_pipeline
# --------------------------------------------------------------------------


def test_run_pipeline_on_text_returns_text():
    out = run_pipeline(ADD_ZERO, "canonicalize")
    assert isinstance(out, str)
    assert "arith.addi" not in out
    assert "return %arg0 : i32" in out


def test_run_pipeline_on_bytes_returns_text():
    out = run_pipeline(ADD_ZERO.encode(), "canonicalize")
    assert isinstance(out, str)
    assert "return %arg0 : i32" in out


def test_empty_pipeline_returns_the_ir_unchanged():
    out = run_pipeline(ADD_ZERO, "")
    assert "arith.addi %arg0, %c0_i32 : i32" in out


def test_run_pipeline_on_a_module_rewrites_it_in_place_and_returns_it():
    ctx = ir.Context()
    module = ir.Module.parse(ADD_ZERO, context=ctx)
    result = run_pipeline(module, "canonicalize")
    assert result is module
    assert "arith.addi" not in str(module)


def test_run_pipeline_on_a_module_runs_python_passes_in_place():
    ctx = ir.Context()
    module = ir.Module.parse(TWO_FUNCS, context=ctx)
    run_pipeline(module, "api-mark-func")
    assert str(module).count("attributes {api.seen}") == 2


def test_python_and_cpp_passes_run_in_pipeline_order():
    CountAddi.seen.clear()
    run_pipeline(ADD_ZERO, "api-count-addi,canonicalize,api-count-addi")
    assert CountAddi.seen == [1, 0]


def test_bad_ir_raises_pipeline_failed_with_the_parser_diagnostic():
    err = _failure("func.func @f(%a: i32) -> i32 {\n  %b = arith.addi %a, %a, : i32\n}\n", "canonicalize")
    (diag,) = err.diagnostics
    assert (diag.severity, diag.line, diag.col) == ("error", 2, 25)
    assert "expected ':'" in diag.message
    assert "<input>:2:25: error: expected ':'" in str(err)


def test_ir_that_fails_to_verify_raises_pipeline_failed():
    err = _failure("func.func @f(%a: i32) -> i64 {\n  return %a : i32\n}\n", "")
    assert any("type of return operand 0" in d.message for d in err.diagnostics)


def test_pipeline_failed_is_an_opt_py_error():
    assert issubclass(PipelineFailed, OptPyError)


def test_a_pass_that_emits_an_error_raises_pipeline_failed():
    err = _failure(ADD_ZERO, "api-emit-error")
    assert [d.message for d in err.diagnostics] == ["api-emit-error says no"]
    assert err.diagnostics[0].line == 1


def test_a_pass_that_raises_becomes_a_diagnostic_naming_pass_and_exception():
    err = _failure(ADD_ZERO, "api-raises")
    (diag,) = err.diagnostics
    assert diag.message == "pass 'api-raises' failed: RuntimeError: api-raises went wrong"


def test_no_traceback_in_the_failure_without_debug():
    assert "Traceback" not in str(_failure(ADD_ZERO, "api-raises"))


def test_the_failure_carries_the_traceback_with_debug():
    err = _failure(ADD_ZERO, "api-raises", options=OptOptions(debug=True))
    assert "Traceback (most recent call last)" in str(err)
    assert "api-raises went wrong" in str(err)


def test_an_unknown_pass_raises_pipeline_error_with_a_suggestion():
    with pytest.raises(PipelineError, match=r"'canonicalise' does not refer to a registered pass.*'canonicalize'"):
        run_pipeline(ADD_ZERO, "canonicalise")


def test_a_pipeline_syntax_error_is_an_opt_py_error_with_a_column():
    with pytest.raises(OptPyError) as info:
        run_pipeline(ADD_ZERO, "canonicalize,,cse")
    assert info.value.col == 14


def test_a_python_pass_nested_under_the_wrong_op_is_rejected():
    with pytest.raises(PipelineError, match="restricted to 'func.func' and cannot run on 'builtin.module'"):
        run_pipeline(ADD_ZERO, "builtin.module(api-mark-func)")


def test_a_bare_python_pass_is_nested_to_its_anchor():
    out = run_pipeline(TWO_FUNCS, "api-mark-func")
    assert out.count("attributes {api.seen}") == 2
    assert "module attributes" not in out


def test_a_bare_pass_anchored_on_any_runs_on_the_root():
    out = run_pipeline(TWO_FUNCS, "api-mark-any")
    assert "module attributes {api.root}" in out


# --------------------------------------------------------------------------
# register_pass
# --------------------------------------------------------------------------


def test_register_pass_returns_the_class():
    @dataclass(frozen=True)
    class Local(Pass):
        name = "api-local"

        def run(self, op, ctx):
            pass

    assert register_pass(Local) is Local


def test_a_registered_pass_is_usable_in_a_pipeline():
    @dataclass(frozen=True)
    class Hello(Pass):
        name = "api-hello"
        anchor = "func.func"

        def run(self, op, ctx):
            op.operation.attributes["api.hello"] = ir.StringAttr.get("hi")

    register_pass(Hello)
    assert 'api.hello = "hi"' in run_pipeline(ADD_ZERO, "canonicalize,api-hello,cse")


def test_register_pass_rejects_the_name_of_a_cpp_pass():
    @dataclass(frozen=True)
    class Canon(Pass):
        name = "canonicalize"

    with pytest.raises(PassRegistrationError, match="'canonicalize' is already taken"):
        register_pass(Canon)


def test_a_rejected_registration_leaves_the_cpp_pass_in_place():
    @dataclass(frozen=True)
    class Cse(Pass):
        name = "cse"

        def run(self, op, ctx):
            raise AssertionError("the Python class must not run")

    with pytest.raises(PassRegistrationError):
        register_pass(Cse)
    run_pipeline(ADD_ZERO, "cse")


def test_register_pass_rejects_a_class_that_is_not_a_pass():
    class NotAPass:
        name = "api-not-a-pass"

    with pytest.raises(PassRegistrationError, match="not an opt_py.Pass subclass"):
        register_pass(NotAPass)


def test_register_pass_rejects_a_pass_without_a_valid_name():
    @dataclass(frozen=True)
    class Spaces(Pass):
        name = "has spaces"

    with pytest.raises(PassRegistrationError, match="declares no valid pass name"):
        register_pass(Spaces)


def test_registration_errors_are_opt_py_errors():
    assert issubclass(PassRegistrationError, OptPyError)


def test_the_public_names_are_exported():
    for name in ("Pass", "PatternPass", "pattern", "option", "register_pass", "run_pipeline", "OptPyError"):
        assert hasattr(opt_py, name)


# --------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------


def test_options_default_when_absent():
    assert Options.from_options("") == Options()
    assert Options().option_text() == "count=1 scale=0.5 flag=false label=none dims= max-depth=3"


@pytest.mark.parametrize("text, value", [("count=3", 3), ("count=-2", -2), ("count=0x10", 16)])
def test_int_option(text, value):
    assert Options.from_options(text).count == value


@pytest.mark.parametrize("text, value", [("scale=2.5", 2.5), ("scale=1e-3", 0.001), ("scale=4", 4.0)])
def test_float_option(text, value):
    assert Options.from_options(text).scale == value


@pytest.mark.parametrize(
    "text, value",
    [
        ("flag=true", True),
        ("flag=false", False),
        ("flag=1", True),
        ("flag=0", False),
        ("flag=on", True),
        ("flag=off", False),
        ("flag=yes", True),
        ("flag=no", False),
        ("flag=TRUE", True),
        ("flag", True),
    ],
)
def test_bool_option(text, value):
    assert Options.from_options(text).flag is value


@pytest.mark.parametrize(
    "text, value",
    [
        ("label=hello", "hello"),
        ('label="a b"', "a b"),
        ("label='x y'", "x y"),
        ("label=a=b", "a=b"),
        ('label=""', ""),
    ],
)
def test_str_option(text, value):
    assert Options.from_options(text).label == value


@pytest.mark.parametrize(
    "text, value",
    [
        ("dims=1,2,3", [1, 2, 3]),
        ("dims={4,5}", [4, 5]),
        ("dims=7", [7]),
        ("dims=", []),
    ],
)
def test_list_of_int_option(text, value):
    assert Options.from_options(text).dims == value


def test_an_underscore_in_a_field_is_a_dash_in_the_option():
    assert Options.from_options("max-depth=9").max_depth == 9


def test_several_options_at_once():
    p = Options.from_options('count=2 scale=1.5 flag label="two words" dims={1,2}')
    assert (p.count, p.scale, p.flag, p.label, p.dims) == (2, 1.5, True, "two words", [1, 2])


def test_options_reach_the_pass_through_a_pipeline():
    out = run_pipeline(ADD_ZERO, 'api-options{count=7 scale=0.25 flag=true label="x y" dims=3,4 max-depth=1}')
    assert 'api.options = "7|0.25|True|x y|[3, 4]|1"' in out


def test_options_declares_typed_options():
    assert [(cli, typ) for cli, _f, typ, _d, _h in Options.options()] == [
        ("count", int),
        ("scale", float),
        ("flag", bool),
        ("label", str),
        ("dims", list[int]),
        ("max-depth", int),
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        ("count=lots", "pass 'api-options': option 'count' expects an integer, got 'lots'"),
        ("count=1.5", "option 'count' expects an integer, got '1.5'"),
        ("scale=abc", "option 'scale' expects a number, got 'abc'"),
        ("flag=maybe", "option 'flag' expects a boolean (true/false), got 'maybe'"),
        ("dims=1,x", "option 'dims' expects an integer, got 'x'"),
    ],
)
def test_a_bad_value_names_the_option_and_the_expected_type(text, message):
    with pytest.raises(PassOptionError) as info:
        Options.from_options(text)
    assert message in str(info.value)


def test_an_unknown_option_lists_the_known_ones():
    with pytest.raises(PassOptionError) as info:
        Options.from_options("colour=red")
    assert str(info.value) == (
        "pass 'api-options' has no option 'colour' (options: count, dims, flag, label, max-depth, scale)"
    )


def test_unbalanced_quotes_in_options_are_an_error():
    with pytest.raises(PassOptionError, match="unbalanced quotes or braces"):
        Options.from_options('label="open')


def test_a_bad_option_in_a_pipeline_is_a_located_pipeline_error():
    with pytest.raises(PipelineError) as info:
        run_pipeline(ADD_ZERO, "canonicalize,api-options{count=lots}")
    assert info.value.col == 14
    assert "option 'count' expects an integer, got 'lots'" in str(info.value)


def test_a_bad_option_of_a_cpp_pass_is_a_pipeline_error():
    with pytest.raises(PipelineError, match="invalid options for pass 'canonicalize'"):
        run_pipeline(ADD_ZERO, "canonicalize{max-iterations=abc}")


# --------------------------------------------------------------------------
# Pass and PatternPass
# --------------------------------------------------------------------------


def test_a_plain_pass_runs_once_per_anchor_op():
    CountAddi.seen.clear()
    run_pipeline(TWO_FUNCS, "api-count-addi")
    assert CountAddi.seen == [0, 0]


def test_a_pass_is_a_frozen_dataclass():
    with pytest.raises(FrozenInstanceError):
        Options().count = 5


def test_greedy_pattern_pass_rewrites():
    out = run_pipeline(ADD_ZERO, "api-greedy-fold")
    assert "arith.addi" not in out
    assert "return %arg0 : i32" in out


def test_greedy_pattern_pass_reaches_a_fixpoint():
    src = ADD_ZERO.replace("return %b : i32", "%c = arith.addi %b, %c0 : i32\n  return %c : i32")
    assert "arith.addi" not in run_pipeline(src, "api-greedy-fold")


def test_greedy_pattern_pass_does_not_fold_by_default():
    assert "arith.addi" in run_pipeline(ADD_ZERO, "api-no-match")


def test_greedy_driver_option_fold_enables_folding():
    assert "arith.addi" not in run_pipeline(ADD_ZERO, "api-no-match{fold=true}")


def test_pattern_pass_exposes_the_driver_options():
    names = [cli for cli, *_ in GreedyFold.options()]
    assert names == ["max-iterations", "max-num-rewrites", "fold", "cse-constants", "top-down", "region-simplify"]


def test_walk_pattern_pass_rewrites():
    out = run_pipeline(MUL_TWO, "api-walk-mul")
    assert "arith.muli" not in out
    assert "arith.addi %arg0, %arg0 : i32" in out


def test_a_pattern_that_reports_no_match_changes_nothing():
    out = run_pipeline(MUL_TWO.replace("constant 2", "constant 3"), "api-walk-mul")
    assert "arith.muli" in out


def test_a_pattern_that_raises_fails_the_pass_naming_the_pattern():
    err = _failure(ADD_ZERO, "api-raising-pattern")
    (diag,) = err.diagnostics
    assert diag.message == (
        "pass 'api-raising-pattern' failed: pattern 'raises_in_pattern' raised ValueError: "
        "pattern blew up (rewriting 'arith.addi')"
    )
    assert (diag.line, diag.col) == (3, 8)


def test_a_pattern_that_rewrites_but_reports_no_match_breaks_the_contract():
    err = _failure(ADD_ZERO, "api-broken-contract")
    assert "PatternContractError" in err.diagnostics[0].message


def test_a_failed_run_leaves_text_input_unprinted():
    # The result of a failing pipeline is an exception, never half-rewritten text.
    with pytest.raises(PipelineFailed):
        run_pipeline(ADD_ZERO, "api-greedy-fold,api-emit-error")


# --------------------------------------------------------------------------
# Core bugs, now fixed: each test pins the fix
# --------------------------------------------------------------------------


def test_tuple_option():
    @dataclass(frozen=True)
    class Tup(Pass):
        name = "api-tuple"
        dims: tuple[int, ...] = option((), "dims")

    assert tuple(Tup.from_options("dims=1,2").dims) == (1, 2)


def test_sequence_option():
    @dataclass(frozen=True)
    class Seq(Pass):
        name = "api-sequence"
        dims: typing.Sequence[int] = option((), "dims")

    assert list(Seq.from_options("dims=1,2").dims) == [1, 2]


def test_list_of_str_option_keeps_a_quoted_comma():
    @dataclass(frozen=True)
    class Names(Pass):
        name = "api-names"
        names: list[str] = option([], "names")

    assert Names.from_options('names={"a,b",c}').names == ["a,b", "c"]


def test_a_bad_region_simplify_value_is_an_option_error():
    with pytest.raises(PassOptionError, match="region-simplify"):
        GreedyFold.from_options("region-simplify=bogus")


def test_an_out_of_range_driver_option_is_a_pipeline_error():
    with pytest.raises(PipelineError, match="max-iterations"):
        run_pipeline(ADD_ZERO, "api-greedy-fold{max-iterations=99999999999999999999}")


def test_a_bound_the_greedy_driver_hits_stops_there_as_canonicalize_does():
    """C++ canonicalize{max-iterations=1} exits 0 with what one sweep did; so does a pattern pass."""
    src = ADD_ZERO.replace("return %b : i32", "%c = arith.addi %b, %c0 : i32\n  return %c : i32")
    for bound in ("max-iterations=1", "max-num-rewrites=1"):
        out = run_pipeline(src, f"api-greedy-fold{{{bound}}}")  # raised PipelineFailed before
        assert out.count("arith.addi") < src.count("arith.addi"), bound  # what it did, it keeps


def test_a_bare_cpp_function_pass_is_nested_to_functions():
    assert run_pipeline(ADD_ZERO, "affine-loop-unroll-jam") == run_pipeline(
        ADD_ZERO, "func.func(affine-loop-unroll-jam)"
    )


def test_a_bare_cpp_pass_runs_once(capfd, monkeypatch, tmp_path):
    # A fresh anchor cache, so the anchor probe really runs (in its own process).
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    run_pipeline(ADD_ZERO, "print-op-stats")
    assert capfd.readouterr().err.count("Operations encountered") == 1


def test_an_unknown_pass_inside_cpp_options_is_not_blamed_on_the_cpp_pass():
    with pytest.raises(PipelineError) as info:
        run_pipeline(ADD_ZERO, "inline{op-pipelines=func.func(api-mark-any)}")
    assert "'inline' does not refer" not in str(info.value)

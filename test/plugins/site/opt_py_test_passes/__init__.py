"""Passes that exercise opt-py's machinery in the lit tests.

This directory is laid out as an installed distribution (a .dist-info with an
``opt_py.passes`` entry point beside the package), so putting it on
PYTHONPATH is all it takes for opt-py to find these passes: it is the test of
the plugin mechanism as much as a set of helpers.
"""

from dataclasses import dataclass

from opt_py import Pass, PatternPass, option, pattern


def _const_int(value):
    """The integer a value is defined as by arith.constant, or None."""
    from iree.compiler import ir

    owner = value.owner
    if not isinstance(owner, ir.OpView) and not isinstance(owner, ir.Operation):
        return None
    op = owner.operation if hasattr(owner, "operation") else owner
    if op.name != "arith.constant":
        return None
    attr = op.attributes["value"]
    return attr.value if isinstance(attr, ir.IntegerAttr) else None


@pattern("arith.addi")
def fold_addi_of_zero(op, rewriter):
    if _const_int(op.operands[1]) != 0:
        return rewriter.fail("rhs is not the constant 0")
    rewriter.replace_op(op, [op.operands[0]])
    return True


@dataclass(frozen=True)
class TestFoldAddiZero(PatternPass):
    name = "test-fold-addi-zero"
    anchor = "func.func"
    summary = "Test: fold 'arith.addi %x, 0' to %x (greedy driver)"

    def patterns(self):
        return [fold_addi_of_zero]


@pattern("arith.muli")
def mul_by_two_to_add(op, rewriter):
    from iree.compiler.dialects import arith

    if _const_int(op.operands[1]) != 2:
        return rewriter.fail("rhs is not the constant 2")
    with rewriter.ip, op.location:
        add = arith.AddIOp(op.operands[0], op.operands[0])
    rewriter.replace_op(op, add)
    return True


@dataclass(frozen=True)
class TestWalkMulToAdd(PatternPass):
    name = "test-walk-mul-to-add"
    anchor = "any"
    summary = "Test: 'arith.muli %x, 2' to 'arith.addi %x, %x' (walk driver)"
    driver = "walk"

    def patterns(self):
        return [mul_by_two_to_add]


@dataclass(frozen=True)
class TestTag(Pass):
    name = "test-tag"
    anchor = "any"
    summary = "Test: tag the anchor op with an attribute holding the pass options"
    label: str = option("tagged", "string to store")
    count: int = option(1, "an integer")
    scale: float = option(0.5, "a float")
    flag: bool = option(False, "a boolean")
    dims: list[int] = option([], "a list of integers")

    def run(self, op, ctx):
        from iree.compiler import ir

        text = f"{self.label}:{self.count}:{self.scale}:{self.flag}:{self.dims}"
        op.operation.attributes["test.tag"] = ir.StringAttr.get(text)


@dataclass(frozen=True)
class TestTagFunc(TestTag):
    name = "test-tag-func"
    anchor = "func.func"
    summary = "Test: like test-tag, restricted to func.func"


@pattern("arith.addi")
def raise_value_error(op, rewriter):
    raise ValueError("deliberate failure in a pattern")


@dataclass(frozen=True)
class TestRaiseInPattern(PatternPass):
    name = "test-raise-in-pattern"
    anchor = "func.func"
    summary = "Test: a pattern that raises"

    def patterns(self):
        return [raise_value_error]


@dataclass(frozen=True)
class TestRaiseInPass(Pass):
    name = "test-raise-in-pass"
    anchor = "func.func"
    summary = "Test: a pass whose run() raises"

    def run(self, op, ctx):
        raise RuntimeError("deliberate failure in a pass")


@dataclass(frozen=True)
class TestEmitError(Pass):
    name = "test-emit-error"
    anchor = "func.func"
    summary = "Test: emit an error on every function and fail"

    def run(self, op, ctx):
        ctx.emit_error(op, f"test-emit-error on {op.operation.attributes['sym_name']}")


@pattern("arith.addi")
def erase_then_claim_no_match(op, rewriter):
    rewriter.replace_op(op, [op.operands[0]])
    return False


@dataclass(frozen=True)
class TestBrokenContract(PatternPass):
    name = "test-broken-contract"
    anchor = "func.func"
    summary = "Test: a pattern that rewrites but reports no match"

    def patterns(self):
        return [erase_then_claim_no_match]


def _enclosing_function_name(op) -> str:
    from iree.compiler import ir

    parent = op.operation.parent
    while parent is not None and parent.name not in ("func.func", "util.func"):
        parent = parent.parent
    return ir.StringAttr(parent.attributes["sym_name"]).value if parent is not None else ""


@pattern("arith.addf")
def addf_to_subf(op, rewriter, match=""):
    from iree.compiler.dialects import arith

    if match not in _enclosing_function_name(op):
        return rewriter.fail(f"not in a function whose name contains '{match}'")
    with rewriter.ip, op.location:
        sub = arith.SubFOp(op.operands[0], op.operands[1])
    rewriter.replace_op(op, sub)
    return True


@dataclass(frozen=True)
class TestAddfToSubf(PatternPass):
    name = "test-addf-to-subf"
    anchor = "any"  # reaches util.func (before dispatch formation) and dispatch func.func alike
    summary = "Test: change meaning on purpose (addf -> subf), to see injections reach the runtime"
    match: str = option("", "only in functions whose name contains this (a dispatch, say)")

    def patterns(self):
        return [addf_to_subf.bind(match=self.match)]


@dataclass(frozen=True)
class TestBreakIR(Pass):
    name = "test-break-ir"
    anchor = "func.func"
    summary = "Test: erase each function's terminator, leaving invalid IR for the verifier to catch"

    def run(self, op, ctx):
        block = op.regions[0].blocks[0]
        ops = list(block.operations)
        if ops:
            ops[-1].operation.erase()


@dataclass(frozen=True)
class TestExpectAbsent(Pass):
    name = "test-expect-absent"
    anchor = "any"
    summary = "Test: fail (with the op's location) if an op of the given name is present"
    op: str = option("vector.gather", "the op name that must not occur")

    def run(self, root, ctx):
        from iree.compiler import ir

        found = []

        def visit(o):
            if o.name == self.op:
                found.append(o)
            return ir.WalkResult.ADVANCE

        root.operation.walk(visit)
        for o in found[:3]:
            ctx.emit_error(o, f"test-expect-absent: '{self.op}' is still here")


PASSES = [TestExpectAbsent, TestBreakIR, TestAddfToSubf, 
    TestFoldAddiZero, TestWalkMulToAdd, TestTag, TestTagFunc, TestRaiseInPattern,
    TestRaiseInPass, TestEmitError, TestBrokenContract,
]

"""A complete opt-py pass in one file: fold `arith.addi %x, 0` into `%x`.

    opt-py --load-pass-plugin=examples/fold_addi_zero.py \
           --pipeline='fold-addi-zero,cse' examples/addi.mlir

Package it (an `opt_py.passes` entry point) to make it available everywhere.
"""

from dataclasses import dataclass

from opt_py import PatternPass, pattern


def is_zero_constant(value) -> bool:
    from iree.compiler import ir

    owner = value.owner
    op = getattr(owner, "operation", owner)
    if not isinstance(op, ir.Operation) or op.name != "arith.constant":
        return False
    attr = op.attributes["value"]
    return isinstance(attr, ir.IntegerAttr) and attr.value == 0


@pattern("arith.addi")
def fold_addi_of_zero(op, rewriter):
    lhs, rhs = op.operands[0], op.operands[1]
    if is_zero_constant(rhs):
        rewriter.replace_op(op, [lhs])
        return True
    if is_zero_constant(lhs):
        rewriter.replace_op(op, [rhs])
        return True
    return rewriter.fail("neither operand is the constant 0")


@dataclass(frozen=True)
class FoldAddiZero(PatternPass):
    name = "fold-addi-zero"
    anchor = "any"  # wherever it is nested; IREE turns func.func into util.func
    summary = "Fold 'arith.addi %x, 0' (either operand order) into %x"

    def patterns(self):
        return [fold_addi_of_zero]

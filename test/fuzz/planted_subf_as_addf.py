"""A planted bug for the fuzzer's own test: every ``arith.subf`` compiled as ``arith.addf``.

Injected as the stock side of ``opt-py fuzz`` (``--stock-inject
input:planted-subf-as-addf --load-pass-plugin test/fuzz/planted_subf_as_addf.py``),
it must be found, its programs reduced to a few ops around a subtraction, and
``--fixes`` (which knows nothing of it) reported as right.
"""

from dataclasses import dataclass

from opt_py import PatternPass, pattern


@pattern("arith.subf")
def subf_as_addf(op, rewriter):
    from iree.compiler.dialects import arith

    with rewriter.ip, op.location:
        new = arith.addf(op.operands[0], op.operands[1])
    rewriter.replace_op(op, [new])
    return True


@dataclass(frozen=True)
class PlantedSubfAsAddf(PatternPass):
    name = "planted-subf-as-addf"
    anchor = "any"
    summary = "Miscompile on purpose: a - b computed as a + b (the fuzzer's planted bug)"

    def patterns(self):
        return [subf_as_addf]

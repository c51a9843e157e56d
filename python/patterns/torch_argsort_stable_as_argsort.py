"""Patterns on ``torch.aten.argsort.stable``: the same argsort spelled ``torch.aten.argsort``, which has a lowering.

PyTorch 2.13 exports ``torch.argsort(x, dim, descending, stable)`` as
``argsort.stable(self, *, stable, dim, descending)``; torch-mlir has no op
for it (it imports as ``torch.operator``) and IREE's input conversion fails.
torch-mlir lowers ``aten.argsort(self, dim, descending)`` through
``aten.sort`` to a sort whose comparator is ``<=`` (``>=`` descending), and
IREE's one implementation of that sort (bubble sweeps that swap neighbours
only where the comparator is false) never swaps equal keys: the order it
gives is the stable one, which is what ``stable=True`` asks and one of the
orders ``stable=False`` allows. ``argsort_stable_as_argsort`` writes
``aten.argsort`` with the op's own ``dim`` and ``descending``.

Left alone, with the reason: ``stable``, ``dim`` or ``descending`` not a
constant; an unranked or 0-d input; ``dim`` out of range; a result that is
not si64 of the input's sizes; an input dtype outside ``DTYPES`` (bool and
ui8: torch-mlir's comparator compares them as signed integers, so true and
ui8 values from 128 sort first).
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .torch_ir import compatible, constant_bool, constant_int, create, ranked_refusal, vtensor

DTYPES = ("si8", "si16", "si32", "si64", "f16", "bf16", "f32", "f64")  # compared in their own order


def plan_argsort(op) -> str | None:
    """Why ``argsort.stable(self, stable, dim, descending)`` is left alone, or None where it is rewritten."""
    if len(op.operands) != 4 or len(op.results) != 1:
        return "not argsort.stable(self, stable, dim, descending) -> tensor"
    x, stable, dim_value, descending = op.operands
    if constant_bool(stable) is None:
        return "stable is not a torch.constant.bool"
    if constant_bool(descending) is None:
        return "descending is not a torch.constant.bool"
    dim = constant_int(dim_value)
    if dim is None:
        return "dim is not a torch.constant.int"
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    refusal = ranked_refusal("the input or the result", (xt, rt), dim, zero_d="torch-mlir's sort needs a dim")
    if refusal is not None:
        return refusal
    if xt.dtype not in DTYPES:
        return f"a {xt.dtype} input: torch-mlir's sort compares only {', '.join(DTYPES)} in their own order"
    if not compatible(xt.with_dtype("si64"), rt):
        return "the result is not si64 of the input's sizes"
    return None


@pattern("torch.operator")
def argsort_stable_as_argsort(op, rewriter):
    op = op.operation
    if ir.StringAttr(op.attributes["name"]).value != "torch.aten.argsort.stable":
        return rewriter.fail("not torch.aten.argsort.stable")
    why = plan_argsort(op)
    if why is not None:
        return rewriter.fail(why)
    x, _, dim, descending = op.operands
    with rewriter.ip, op.location:
        new = create("torch.aten.argsort", [op.results[0].type], [x, dim, descending])
    rewriter.replace_op(op, new)
    return True

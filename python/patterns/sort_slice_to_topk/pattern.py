"""The pattern: match the sort, choose a form, build it from the table, replace the slices.

Every step is a module of its own: match.py reads the sort, cost.py chooses
(a pure function of the shape and the pass options), forms.py builds. The
pattern only wires them and rewires the uses.
"""

from __future__ import annotations

from iree.compiler import ir

from ...authoring import pattern
from .cost import Form, Rule, Select, choose
from .forms import BUILDERS, Topk
from .match import match_sort


@pattern("iree_linalg_ext.sort")
def sort_slice_to_topk(
    op,
    rewriter,
    allow_unordered_ties: bool = False,
    form: Form = Form.AUTO,
    chunk: int = 0,
    materialize: bool = False,
    rule: Rule = Rule.CPU,
    select: Select = Select.RANK,
):
    op = op.operation
    sort = match_sort(op, allow_unordered_ties)
    if isinstance(sort, str):
        return rewriter.fail(sort)
    choice = choose(form, rule, sort.width, sort.k, sort.key_bits, chunk)
    if choice.form is None:
        return rewriter.fail(choice.why)
    build = BUILDERS[choice.form, materialize]
    topk = Topk(
        sort.keys,
        sort.dim,
        sort.k,
        sort.order,
        sort.index_type,
        values=sort.want_values,
        chunk=choice.chunk,
        select=select,
    )
    with rewriter.ip, op.location:
        results = build(topk)
        if sort.k == sort.width:  # results of the sort's own types: every use reads them as it read the sort's
            # An unused result has no uses; any value of its type stands in for it.
            n = len(op.results)
            rewriter.replace_op(op, [results[i] if results[i] is not None else op.operands[i] for i in range(n)])
            return True
        new_slices = [(old, _reading(old, results[i])) for i, old in sort.slices]
    for old, new in new_slices:
        rewriter.replace_op(old, new)
    rewriter.erase_op(op)
    return True


def _reading(slice_op, value) -> ir.Operation:
    """A copy of ``slice_op`` that slices ``value`` instead."""
    new = slice_op.clone()
    new.operands[0] = value
    return new

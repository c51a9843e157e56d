"""sort-slice-to-topk: a sort read only through leading slices [0, k) is computed as a top-k.

The pattern is patterns/sort_slice_to_topk/; its forms, the rules that choose
them and their figures are in docs/passes/sort-slice-to-topk.md. Each option
controls one thing, which its help says.
"""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass, option
from ..patterns.sort_slice_to_topk.cost import Form, Rule, Select
from ..patterns.sort_slice_to_topk.pattern import sort_slice_to_topk


@dataclass(frozen=True)
class SortSliceToTopk(PatternPass):
    name = "sort-slice-to-topk"
    anchor = "any"
    summary = (
        "Compute an iree_linalg_ext.sort whose results are only read through leading slices [0, k) "
        "as a top-k, in the form the rule picks for the shape, instead of IREE's O(n^2) bubble sort"
    )
    # On GPUs the GPU rule (argmax, rank counts, chunks with rank picks), composites materialized.
    fix = Fix(
        "a sort read only through a leading slice (torch.topk, argsort[:k]): IREE's "
        "O(n^2) sort becomes a top-k, an arg-max, a rank count or chunks",
        phase="global-optimization",
        targets=("cpu", "cuda", "rocm"),
        options={"cuda": "{rule=gpu materialize=true}", "rocm": "{rule=gpu materialize=true}"},
        ops=("iree_linalg_ext.sort",),
    )
    allow_unordered_ties: bool = option(
        False,
        "also rewrite strict comparators (ogt/olt/sgt/slt), whose tie order stock IREE leaves to "
        "its bubble sort; the rewrite returns ties lowest index first",
    )
    form: Form = option(Form.AUTO, "which computation; auto: the one the rule picks for the shape")
    rule: Rule = option(
        Rule.CPU,
        "the selection rule: cpu (every form, by the CPU cost rule) or gpu (the forms IREE compiles "
        "for GPUs, by the GPU rule); a sort the rule does not take, or a form it does not admit, is left alone",
    )
    chunk: int = option(
        0,
        "chunks form: the chunk size (0: by shape); one that does not cut the width into "
        "at least k chunks of at least 2 leaves the sort alone",
    )
    materialize: bool = option(
        False,
        "argmax, rounds, chunks and rank forms: compute the composites in their own dispatch "
        "(behind util.optimization_barrier), so that no reduction reads linalg.index",
    )
    select: Select = option(
        Select.RANK,
        "materialized chunks form: pick the k best chunks and the k best candidates by counting ranks or by k rounds",
    )

    def patterns(self):
        return [
            sort_slice_to_topk.bind(
                allow_unordered_ties=self.allow_unordered_ties,
                form=self.form,
                chunk=self.chunk,
                materialize=self.materialize,
                rule=self.rule,
                select=self.select,
            )
        ]

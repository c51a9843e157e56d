"""sort-slice-to-topk: a sort read only through leading slices becomes iree_linalg_ext.topk."""

from dataclasses import dataclass

from ..authoring import PatternPass, option
from ..patterns.sort_slice_to_topk import sort_slice_to_topk, sort_slice_to_topk_unordered_ties


@dataclass(frozen=True)
class SortSliceToTopk(PatternPass):
    name = "sort-slice-to-topk"
    anchor = "any"
    summary = ("Rewrite an iree_linalg_ext.sort whose results are only read through leading slices "
               "[0, k) into iree_linalg_ext.topk (O(n*k) instead of IREE's O(n^2) sort)")
    allow_unordered_ties: bool = option(
        False, "also rewrite strict comparators (ogt/olt/sgt/slt), whose tie order stock IREE leaves to "
               "its bubble sort; the rewrite returns ties lowest index first")

    def patterns(self):
        return [sort_slice_to_topk_unordered_ties if self.allow_unordered_ties else sort_slice_to_topk]

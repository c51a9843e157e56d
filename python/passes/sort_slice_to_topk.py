"""sort-slice-to-topk: a sort read only through leading slices is computed as a top-k (four forms by shape)."""

from dataclasses import dataclass

from ..authoring import PatternPass, option
from ..errors import PassOptionError
from ..patterns.sort_slice_to_topk import FORMS, sort_slice_to_topk


@dataclass(frozen=True)
class SortSliceToTopk(PatternPass):
    name = "sort-slice-to-topk"
    anchor = "any"
    summary = (
        "Compute an iree_linalg_ext.sort whose results are only read through leading slices [0, k) "
        "as a top-k: an argmax reduction (k = 1), k masked argmax rounds (small k), a rank count "
        "(k large for the width), chunk bests then rounds over the best chunks (wide rows) or "
        "iree_linalg_ext.topk, instead of IREE's O(n^2) bubble sort"
    )
    allow_unordered_ties: bool = option(
        False,
        "also rewrite strict comparators (ogt/olt/sgt/slt), whose tie order stock IREE leaves to "
        "its bubble sort; the rewrite returns ties lowest index first",
    )

    form: str = option(
        "auto",
        "which computation: auto (by shape, see the patterns' docstring), topk (iree_linalg_ext.topk), "
        "rank (count, then select), argmax (k = 1 only), rounds (k masked argmax reductions, k <= 64) "
        "or chunks (k <= 64, wide rows)",
    )

    chunk: int = option(
        0,
        "chunks form: the chunk size (0: by shape); one that does not cut the width into "
        "at least k chunks of at least 2 leaves the sort alone",
    )

    materialize: bool = option(
        False,
        "argmax, rounds, chunks and rank forms: compute the composites in their own "
        "dispatch (behind util.optimization_barrier), so no reduction reads "
        "linalg.index",
    )

    gpu: bool = option(
        False,
        "for GPU targets: the materialized forms by the GPU rule (argmax, rank, chunks, "
        "rounds on odd widths; IREE 3.13 compiles them for cuda and rocm); the top-k op "
        "form and the sorts the rule does not take are left alone",
    )

    select: str = option(
        "rank",
        "materialized chunks form: how the k best chunks and the k best candidates are "
        "picked, by counting ranks (rank) or by k rounds (rounds)",
    )

    def patterns(self):
        if self.select not in ("rank", "rounds"):
            raise PassOptionError(f"sort-slice-to-topk: select must be rank or rounds, not '{self.select}'")
        if self.form not in FORMS:
            raise PassOptionError(f"sort-slice-to-topk: form must be one of {', '.join(FORMS)}, not '{self.form}'")
        return [
            sort_slice_to_topk.bind(
                allow_unordered_ties=self.allow_unordered_ties,
                form=self.form,
                chunk=self.chunk,
                materialize=self.materialize,
                gpu=self.gpu,
                select=self.select,
            )
        ]

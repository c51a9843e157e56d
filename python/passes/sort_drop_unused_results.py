"""sort-drop-unused-results: unused iree_linalg_ext.sort results, and top-k on GPU."""

from dataclasses import dataclass

from ..authoring import PatternPass, option
from ..patterns.sort_drop_unused_results import copy_read_only_sort_operand, drop_unused_sort_results


@dataclass(frozen=True)
class SortDropUnusedResults(PatternPass):
    name = "sort-drop-unused-results"
    anchor = "any"
    summary = (
        "Drop iree_linalg_ext.sort results that are unused and unread by the comparator; "
        "give unused but compared read-only inputs a working copy"
    )
    copy_read_only: bool = option(True, "give an unused, comparator-read, read-only operand a working copy")

    def patterns(self):
        pats = [drop_unused_sort_results]
        if self.copy_read_only:
            pats.append(copy_read_only_sort_operand)
        return pats

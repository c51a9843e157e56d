"""sort-drop-unused-results: unused iree_linalg_ext.sort results, and top-k on GPU."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass, option
from ..patterns.sort_drop_unused_results import copy_read_only_sort_operand, drop_unused_sort_results


@dataclass(frozen=True)
class SortDropUnusedResults(PatternPass):
    name = "sort-drop-unused-results"
    anchor = "any"
    summary = (
        "Drop iree_linalg_ext.sort results that are unused and unread by the comparator; "
        "give unused but compared read-only inputs a working copy"
    )
    # On the CPU without the working copy: stock's CPU code makes that copy itself, and an explicit one over a
    # dynamic length is sized by the assumed maximum (a 2^56-byte allocation) where stock's error was clearer.
    fix = Fix(
        "top-k keeping only some sort results fails to bufferize for GPUs",
        phase="executable-sources",
        options={"cpu": "{copy-read-only=false}"},
        ops=("iree_linalg_ext.sort",),
    )
    copy_read_only: bool = option(True, "give an unused, comparator-read, read-only operand a working copy")

    def patterns(self):
        pats = [drop_unused_sort_results]
        if self.copy_read_only:
            pats.append(copy_read_only_sort_operand)
        return pats

"""Which loops of a generic a reshape may merge, and the collapsed loop nest: pure data, no IR.

A loop nest here is anything with ``maps`` (per operand, the loop of each
operand dim: a projected permutation), ``iterators`` (per loop,
``"parallel"``, ``"reduction"`` or another name) and ``n_loops``. A group of
loops may merge into one when every map lists it whole, consecutively and in
the same order, or not at all, and its loops are all parallel or consecutive
increasing reductions; docs/passes/fold-collapse-shape-into-generic.md says
why that makes the collapsed generic compute the collapsed result.
"""

from __future__ import annotations

from .ir_utils import DYNAMIC


def collapsed_shape(shape, groups) -> list[int]:
    """``shape`` with each group of dims merged (``DYNAMIC`` if any of them is)."""
    out = []
    for g in groups:
        size = 1
        for i in g:
            if shape[i] == DYNAMIC:
                size = DYNAMIC
                break
            size *= shape[i]
        out.append(size)
    return out


def group_problem(g, loops: list[int], taken: set[int]):
    """Why the loop group cannot be collapsed, or None when it can."""
    if any(d in taken for d in loops):
        return f"loops {loops} overlap another collapsed group"
    kinds = {g.iterators[d] for d in loops}
    if len(kinds) != 1 or kinds.pop() not in ("parallel", "reduction"):
        return f"loops {loops} mix iterator types {[g.iterators[d] for d in loops]}"
    if g.iterators[loops[0]] == "reduction":
        if loops != list(range(loops[0], loops[0] + len(loops))):
            return f"reduction loops {loops} are not consecutive loops in increasing order"
    for k, dims in enumerate(g.maps):
        present = [p for p, d in enumerate(dims) if d in loops]
        if not present:
            continue
        start = present[0]
        if dims[start : start + len(loops)] != loops or len(present) != len(loops):
            return f"loops {loops} are not preserved (contiguous, same order) in the map of operand #{k}"
    return None


def choose_groups(g, operand: int, reassoc, partial: bool):
    """(qualifying loop groups, kept reassociation groups, reason) for a reshape of ``operand``.

    The reason is None when some group qualifies (and, with ``partial`` off, all do).
    """
    dims = g.maps[operand]
    taken: set[int] = set()
    chosen, kept, reasons = [], [], []
    for grp in reassoc:
        if len(grp) < 2:
            continue
        loops = [dims[p] for p in grp]
        why = group_problem(g, loops, taken)
        if why is None:
            chosen.append(loops)
            taken |= set(loops)
        else:
            kept.append(grp)
            reasons.append(why)
    if not chosen:
        return None, None, reasons[0] if reasons else "no group of two or more dims to fold"
    if kept and not partial:
        return None, None, f"only some groups qualify and partial folds are off: {reasons[0]}"
    return chosen, kept, None


class CollapsePlan:
    """New loops, maps and per-operand reassociations for collapsing ``groups`` of ``g``'s loops."""

    def __init__(self, g, groups: list[list[int]]):
        self.groups = groups
        member = {}
        for gi, loops in enumerate(groups):
            for d in loops:
                member[d] = gi
        self.new_of = {}  # old loop -> new loop (leaders and ungrouped loops)
        self.group_of_new = {}  # new loop -> group index
        n = 0
        for d in range(g.n_loops):
            gi = member.get(d)
            if gi is not None and groups[gi][0] != d:
                continue
            self.new_of[d] = n
            if gi is not None:
                self.group_of_new[n] = gi
            n += 1
        # Leaders of a group are its first loop in map order, so map every member
        # to the new loop of the group.
        self.loop_map = {}
        for d in range(g.n_loops):
            gi = member.get(d)
            self.loop_map[d] = self.new_of[groups[gi][0]] if gi is not None else self.new_of[d]
        self.member = member
        self.n_new = n
        self.new_iterators = [None] * n
        for d, nd in self.new_of.items():
            self.new_iterators[nd] = d
        # Per operand: reassociation over its dims and its new map.
        self.reassoc = []
        self.new_maps = []
        for dims in g.maps:
            groups_k, new_dims, p = [], [], 0
            while p < len(dims):
                gi = member.get(dims[p])
                size = len(groups[gi]) if gi is not None else 1
                groups_k.append(list(range(p, p + size)))
                new_dims.append(self.loop_map[dims[p]])
                p += size
            self.reassoc.append(groups_k)
            self.new_maps.append(new_dims)

    def trivial(self, k) -> bool:
        """Whether operand ``k`` keeps its shape."""
        return all(len(grp) == 1 for grp in self.reassoc[k])

    def needed_extents(self, index_dims) -> set[int]:
        """Loops whose extent the delinearization of ``linalg.index`` (of ``index_dims``) needs."""
        need = set()
        for d in index_dims:
            gi = self.member.get(d)
            if gi is not None:
                loops = self.groups[gi]
                need |= set(loops[loops.index(d) + 1 :])
                if loops.index(d) != 0:
                    need.add(d)
        return need

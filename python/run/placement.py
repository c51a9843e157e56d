"""Where a planned pass runs in a given IR: its anchor ops, found the way a
nested pass manager would reach them."""

from __future__ import annotations

from ..patterns.ir_utils import operation
from ..pipeline.plan import FUNCTION_OPS

# Ops whose bodies never hold pass anchors: do not look inside them.
_LEAF_CONTAINERS = frozenset(FUNCTION_OPS) | {"util.initializer", "flow.executable.export", "hal.executable.export"}


def _children(op):
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                yield child.operation


def find_anywhere(root, names: tuple[str, ...]) -> list:
    """Outermost ops named in ``names``, in IR order, root included.

    Only symbol-table-like containers are searched (isolated ops whose blocks
    take no arguments: modules, executables, variants), which is where a
    nested pass manager can reach anchors; function bodies are not scanned.
    """
    if root.name in names:
        return [root]
    found = []
    stack = [iter(_children(root))]  # depth-first without recursion: nesting may be deep
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        name = child.name
        if name in names:
            found.append(child)
        elif name not in _LEAF_CONTAINERS and _is_container(child):
            stack.append(iter(_children(child)))
    return found


def _is_container(op) -> bool:
    regions = op.regions
    if len(regions) != 1:
        return False
    blocks = regions[0].blocks
    if len(blocks) != 1 or len(blocks[0].arguments):
        return False
    from iree.compiler import ir

    return op.has_trait(ir.IsIsolatedFromAboveTrait)


def follow_path(ops, path: tuple[str, ...]) -> list:
    for name in path:
        ops = [c for op in ops for c in _children(op) if c.name == name]
    return ops


def targets(root, step) -> list:
    start = find_anywhere(root, step.anywhere) if step.anywhere else [root]
    return follow_path(start, step.path)


def concrete_paths(root, step) -> list[tuple[str, ...]]:
    """Explicit nesting paths for a C++ step placed 'anywhere' in this IR."""
    if not step.anywhere:
        return [step.path]
    paths = []
    for op in find_anywhere(root, step.anywhere):
        chain = []
        cur = op
        while cur is not None and cur != root:
            chain.append(cur.name)
            parent = cur.parent
            cur = operation(parent) if parent is not None else None
        p = tuple(reversed(chain)) + step.path
        if p not in paths:
            paths.append(p)
    return paths


def nest_text(entries: list[tuple[tuple[str, ...], str]]) -> str:
    """Textual pipeline for (path, pass-text) entries, merging shared prefixes."""
    out, i = [], 0
    while i < len(entries):
        path, t = entries[i]
        if not path:
            out.append(t)
            i += 1
            continue
        head, group, j = path[0], [], i
        while j < len(entries) and entries[j][0][:1] == (head,):
            group.append((entries[j][0][1:], entries[j][1]))
            j += 1
        out.append(f"{head}({nest_text(group)})")
        i = j
    return ",".join(out)

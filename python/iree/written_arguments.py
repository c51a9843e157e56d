"""Which arguments of a compiled function IREE writes in place: the inputs a caller must not lend it.

IREE may update an argument's buffer in place when the argument's last use
is an in-place op (a scatter into it, say), though the caller still owns the
buffer (IREE #16168: "input buffers are overwritten that shouldn't be").
``iree-run-module`` and the Python API's NumPy path never show it: they hand
IREE fresh copies. A caller that lends its own memory (a PyTorch tensor, by
DLPack) must copy such an argument first. After IREE's stream phase the
program says which they are: an imported argument (``stream.tensor.import``
of the function's buffer view) bound to a dispatch with write access, or
reaching any op not known to only read it. Unknown ops count as writes, so a
false answer costs a copy, never a clobbered input.
"""

from __future__ import annotations

PHASE = "stream"  # after it, resources and their accesses are explicit (stream.cmd.*)
WRITE = 2  # the write bit of stream.cmd.dispatch's resource_accesses

# ops that read their resource operands (or pass them on as aliases, handled below) and never write them
READ_ONLY = {
    "stream.tensor.export",
    "stream.resource.size",
    "stream.resource.load",
    "stream.cmd.flush",
    "stream.cmd.invalidate",
    "stream.timepoint.barrier",
    "stream.yield",
    "util.return",
    "scf.yield",
}


def written_arguments(module) -> dict[str, list[int]]:
    """For each public function of ``module`` (at the end of the stream phase), the indices of the
    arguments whose buffers it may write."""
    out = {}
    body = module.regions[0].blocks[0] if hasattr(module, "regions") else module.body
    for op in body.operations:
        op = op.operation
        if op.name != "util.func" or "sym_name" not in op.attributes:
            continue
        name = op.attributes["sym_name"].value
        if "iree.abi.stub" not in op.attributes or not op.regions[0].blocks:
            continue
        block = op.regions[0].blocks[0]
        args = {_key(a): i for i, a in enumerate(block.arguments)}
        written: set[int] = set()
        _walk(block, args, {}, written)
        # an async export (main$async) holds the body; its sync wrapper (main) passes the same arguments on
        exported = name.removesuffix("$async")
        out[exported] = sorted(set(out.get(exported, [])) | written)
    return out


def _key(value) -> object:
    return value  # mlir Values hash and compare by the value they name


def _walk(block, args: dict, alias: dict, written: set[int]) -> None:
    """Follow the imported arguments through ``block``: ``alias`` maps a value to the argument it is."""
    for op in block.operations:
        op = op.operation
        name = op.name
        if name == "stream.tensor.import":
            source = _key(op.operands[0])
            if source in args:
                alias[_key(op.results[0])] = args[source]
            continue
        touched = [(i, alias[_key(v)]) for i, v in enumerate(op.operands) if _key(v) in alias]
        if name == "stream.cmd.execute":
            captures = op.regions[0].blocks[0].arguments
            for i, arg in touched:
                if i < len(captures):
                    alias[_key(captures[i])] = arg
        elif name in ("stream.timepoint.await", "stream.resource.subview"):
            for i, arg in touched:
                if i < len(op.results):
                    alias[_key(op.results[i])] = arg
        elif name == "stream.cmd.dispatch":
            written.update(_dispatch_writes(op, alias))
        elif name == "stream.cmd.copy":
            written.update(arg for i, arg in touched if i != 0)  # operand 0 is the source
        elif name not in READ_ONLY:
            written.update(arg for _, arg in touched)
        for region in op.regions:
            for inner in region.blocks:
                _walk(inner, args, alias, written)


def _dispatch_writes(op, alias: dict) -> set[int]:
    """The arguments a ``stream.cmd.dispatch`` binds with write access."""
    sizes = list(op.attributes["operandSegmentSizes"])  # workload, uniform operands, resources, ...
    start = sizes[0] + sizes[1]
    resources = list(op.operands)[start : start + sizes[2]]
    accesses = [int(a.value) for a in op.attributes["resource_accesses"]]
    return {alias[_key(r)] for r, access in zip(resources, accesses) if _key(r) in alias and access & WRITE}

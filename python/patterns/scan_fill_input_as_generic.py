"""A scan whose input is a ``linalg.fill`` reads it as a ``linalg.generic`` instead.

Root cause (IREE 3.13). Dispatch creation clones a ``linalg.fill`` into every
dispatch that reads it (``isCloneableIntoDispatchOp``: fills are cloned
unconditionally). An ``iree_linalg_ext.scan`` tiles only its other dims, so
inside its dispatch the cloned fill is a whole temporary along the scan
dimension; bufferization allocates it on the stack (CPU) or in workgroup
memory (GPU), sized by the dims' upper bound: 2^53 elements when a dim is
dynamic (``exceeded stack allocation limit ... 36028797018963968 bytes``,
``uses 36028797018963964 bytes of shared memory``). torch.cumsum / cumprod of
``torch.ones`` or ``torch.full`` as iree-turbine exports them (OPT's
positions, Falcon's ALiBi without a mask) lower to this form.

IREE already keeps a linalg op that feeds a scan out of the scan's dispatch
(``hasExplicitNonFusableUsers``); only the fill escapes that rule. So the
scan's input becomes the same splat written as a ``linalg.generic`` (no
inputs, every dim parallel, yielding the fill's value): it gets a dispatch of
its own, writes a buffer of the runtime size, and the scan reads it through a
binding as it reads any argument. Other users of the fill keep it. Left alone:
an input that is not a fill, a static fill (a constant in memory), buffers.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import linalg

from ..authoring import pattern
from .ir_utils import defining_op


def _splat_generic(value, init):
    """``linalg.generic`` writing ``value`` to every element of ``init``'s shape (``init`` is only its out)."""
    rank = init.type.rank
    identity = ir.AffineMap.get_identity(rank)
    parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    op = linalg.GenericOp(
        [init.type],
        [],
        [init],
        ir.ArrayAttr.get([ir.AffineMapAttr.get(identity)]),
        ir.ArrayAttr.get([parallel] * rank),
    )
    block = op.regions[0].blocks.append(init.type.element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([value])
    return op.result


@pattern("iree_linalg_ext.scan")
def fill_input_as_generic(op, rewriter):
    op = op.operation
    if not op.results:
        return rewriter.fail("a scan on buffers")
    source = op.operands[0]
    fill = defining_op(source)
    if fill is None or fill.name != "linalg.fill" or not fill.results:
        return rewriter.fail("the scan's input is not a linalg.fill on tensors")
    shaped = ir.RankedTensorType(source.type)
    if shaped.has_static_shape:
        return rewriter.fail("the fill is static: IREE keeps it as a constant in memory")
    value, init = fill.operands[0], fill.operands[1]
    attrs = {}
    for a in op.attributes:  # names in these bindings, NamedAttributes in others
        name = a if isinstance(a, str) else a.name
        attrs[name] = op.attributes[name]
    with rewriter.ip, op.location:
        splat = _splat_generic(value, init)
        new = ir.Operation.create(
            op.name,
            results=[r.type for r in op.results],
            operands=[splat, *op.operands[1:]],
            attributes=attrs,
            regions=1,
        )
    op.regions[0].blocks[0].append_to(new.regions[0])
    rewriter.replace_op(op, new)
    return True

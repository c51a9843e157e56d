"""Patterns on ``iree_linalg_ext.attention``: a zero mask where the key length is dynamic.

IREE 3.13's GPU code pads the reduction over keys and neutralizes the padded
keys only through the mask (``TensorMaskingOpInterface``: padded entries
become -inf); without a mask over a dynamic key length it reports an error,
still writes a module, and computes wrong numbers.

``add_zero_mask`` gives such an op an additive mask of zeros, one per key
position (indexing map: the key dims alone), so nothing changes where keys
exist: softmax(s + 0) = softmax(s). The mask has the scores' element type
(the region's argument), whatever the queries' type; its fill is cloned into
the attention's dispatch, so no mask tensor is materialized. Left alone: an
op with a mask already, a static key length, and buffer semantics.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ..authoring import pattern
from .ir_utils import index_constant

_NO_MASK_OPERANDS = 5  # query, key, value, scale, output


def _dims(amap) -> list[int]:
    """The loop dims an indexing map reads (the op's verifier makes each result a plain dim)."""
    return [e.position for e in amap.results]


@pattern("iree_linalg_ext.attention")
def add_zero_mask(op, rewriter):
    op = op.operation
    if len(op.results) != 1:
        return rewriter.fail("not an attention on tensors")
    if len(op.operands) != _NO_MASK_OPERANDS:
        return rewriter.fail("the attention has a mask already")
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    q, k, v, _, o = (_dims(m) for m in maps)
    k2 = [d for d in k if d in v and d not in q and d not in o]  # the key length (the verifier asks for one)
    key = op.operands[1]
    kt = ir.RankedTensorType(key.type)
    at = [k.index(d) for d in k2]  # where each key-length dim sits in K
    if not any(kt.is_dynamic_dim(i) for i in at):
        return rewriter.fail("the key length is static: IREE pads it right")
    score = op.regions[0].blocks[0].arguments[0].type  # the mask is added to the scores, in their type
    attrs = {}
    for a in op.attributes:  # names in these bindings, NamedAttributes in others
        name = a if isinstance(a, str) else a.name
        attrs[name] = op.attributes[name]
    mask_map = ir.AffineMap.get(maps[0].n_dims, 0, [ir.AffineDimExpr.get(d) for d in k2])
    attrs["indexing_maps"] = ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps[:4] + [mask_map, maps[4]]])
    with rewriter.ip, op.location:
        sizes = [tensor.dim(key, index_constant(i)) if kt.is_dynamic_dim(i) else kt.get_dim_size(i) for i in at]
        mask = linalg.fill(arith.constant(score, 0.0), outs=[tensor.empty(sizes, score)])
        new = ir.Operation.create(
            "iree_linalg_ext.attention",
            results=[op.results[0].type],
            operands=[*op.operands[:4], mask, op.operands[4]],
            attributes=attrs,
            regions=1,
        )
    op.regions[0].blocks[0].append_to(new.regions[0])
    rewriter.replace_op(op, new)
    return True

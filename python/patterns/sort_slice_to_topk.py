"""A sort read only through leading slices is a top-k: ``iree_linalg_ext.topk``.

PyTorch's ``topk``, ``sort`` and ``argsort`` come out of iree-turbine as an
``iree_linalg_ext.sort`` of the values together with an iota of indices,
followed by ``tensor.extract_slice``s that keep the first ``k`` along the
sorted dimension. IREE lowers the sort to a bubble sort, O(n^2) compares per
row; ``iree_linalg_ext.topk`` does O(n*k). Measured on this machine's CPU
(tools/bench_topk_speed.py), the top-k op is faster for every width and k,
k = width included (it never does more compares than the bubble sort), so
the rewrite applies whatever the shape.

``sort_slice_to_topk`` (root: the sort) rewrites when all of these hold:

* tensor semantics, only ``outs`` operands: the keys, and optionally an iota
  along the sorted dimension d (a ``linalg.generic`` with no inputs, the
  identity map, all loops parallel, yielding ``index_cast(linalg.index d)``)
  of type i32 or i64 (i64 only when the width is static: the top-k op counts
  indices in i32, and a static width shows they fit);
* the comparator is one ``arith.cmpf``/``arith.cmpi`` of the two keys, in
  block order: ``oge``/``ole``/``sge``/``sle`` (what torch exports). IREE's
  bubble sort swaps neighbours only when the comparator says false, so with
  these it is stable: among equal keys, the lower index first. The top-k op
  breaks ties by lower index too, so indices and values are the same as the
  sort's. ``ogt``/``olt``/``sgt``/``slt`` leave equal keys unordered; IREE's
  sort returns them in an order that is neither stable nor reversed (an
  artifact of the bubble sort) and PyTorch's own topk returns ties in no
  fixed order either; these are rewritten only with
  ``allow-unordered-ties`` (the result is then the stable order);
* the keys are floats (f16, bf16, f32, f64) or integers;
* every use of every result is a ``tensor.extract_slice`` of it with offset
  0 and stride 1 along d and a static size along d. Other dimensions may be
  sliced any way: sorting treats rows independently, so a slice of the
  sorted rows is the same slice of the top-k rows.

The top-k op computes the largest ``K`` (the largest slice size) with a
comparator that orders NaN above every number, as PyTorch does. Stock
IREE's sort has no order for NaN (its comparator is false both ways) and
returns an artifact of the bubble sort. For descending order and inputs with
NaN, results follow PyTorch (NaNs first, by index), not stock IREE; for
ascending order IREE 3.13's top-k op does not keep NaNs last with this
comparator (test/e2e xfail): NaN inputs there are as unspecified as in stock
IREE. NaN-free inputs give exactly stock IREE's results in both orders.
Its outputs start as the worst key (-inf / NaN / the integer extreme) with
index INT32_MAX, so that real keys equal to the initial one still replace
it. Float values are read back from the keys at the chosen indices (the top-k
op may pair an index with an equal-comparing key's bits, -0.0 for +0.0);
integer values are taken from the op.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ..authoring import pattern

from .ir_utils import DYNAMIC, defining_op, index_constant, operand_segments, uses

STABLE = {"oge": "desc", "ole": "asc", "sge": "desc", "sle": "asc"}
UNORDERED_TIES = {"ogt": "desc", "olt": "asc", "sgt": "desc", "slt": "asc"}
_FLOAT_PREDICATES = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                     "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]
_INT_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
INT32_MAX = 2**31 - 1


def _comparator_order(op, allow_unordered: bool):
    """'desc' or 'asc' when the comparator is one accepted compare of the keys; else a reason."""
    block = op.regions[0].blocks[0]
    ops = list(block.operations)
    if len(ops) != 2 or ops[1].name != "iree_linalg_ext.yield":
        return None, "the comparator is not a single compare"
    cmp = ops[0]
    if cmp.name not in ("arith.cmpf", "arith.cmpi"):
        return None, "the comparator is not a single compare"
    if ops[1].operands[0] != cmp.results[0]:
        return None, "the comparator does not yield its compare"
    if cmp.operands[0] != block.arguments[0] or cmp.operands[1] != block.arguments[1]:
        return None, "the comparator does not compare the first operand's two keys in order"
    names = _FLOAT_PREDICATES if cmp.name == "arith.cmpf" else _INT_PREDICATES
    pred = names[ir.IntegerAttr(cmp.attributes["predicate"]).value]
    if pred in STABLE:
        return STABLE[pred], None
    if pred in UNORDERED_TIES:
        if allow_unordered:
            return UNORDERED_TIES[pred], None
        return None, f"'{pred}' leaves ties unordered (allow-unordered-ties rewrites it)"
    return None, f"predicate '{pred}' is not a total order of the keys"


def _is_iota(value, dim: int) -> bool:
    g = defining_op(value)
    if g is None or g.name != "linalg.generic" or len(g.operands) != 1 or len(g.results) != 1:
        return False
    maps = list(ir.ArrayAttr(g.attributes["indexing_maps"]))
    rank = ir.RankedTensorType(value.type).rank
    if ir.AffineMapAttr(maps[0]).value != ir.AffineMap.get_identity(rank):
        return False
    if any("parallel" not in str(a) for a in ir.ArrayAttr(g.attributes["iterator_types"])):
        return False
    body = list(g.regions[0].blocks[0].operations)
    if [o.name for o in body] != ["linalg.index", "arith.index_cast", "linalg.yield"]:
        return False
    index, cast, yld = body
    return (ir.IntegerAttr(index.attributes["dim"]).value == dim
            and cast.operands[0] == index.results[0] and yld.operands[0] == cast.results[0])


def _leading_slice_size(slice_op, source, dim: int):
    """k when ``slice_op`` reads ``source``[0, k) with stride 1 along ``dim``, else None."""
    if slice_op.name != "tensor.extract_slice" or slice_op.operands[0] != source:
        return None
    offs = list(ir.DenseI64ArrayAttr(slice_op.attributes["static_offsets"]))
    sizes = list(ir.DenseI64ArrayAttr(slice_op.attributes["static_sizes"]))
    strides = list(ir.DenseI64ArrayAttr(slice_op.attributes["static_strides"]))
    if offs[dim] != 0 or strides[dim] != 1 or sizes[dim] in (DYNAMIC, 0):
        return None
    return sizes[dim]


def _float_key(t) -> bool:
    return any(isinstance(t, c) for c in (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type))


@pattern("iree_linalg_ext.sort")
def sort_slice_to_topk(op, rewriter):
    return _rewrite(op.operation, rewriter, allow_unordered_ties=False)


@pattern("iree_linalg_ext.sort")
def sort_slice_to_topk_unordered_ties(op, rewriter):
    return _rewrite(op.operation, rewriter, allow_unordered_ties=True)


def _rewrite(op, rewriter, allow_unordered_ties: bool):
    n = len(op.results)
    if n not in (1, 2) or len(op.operands) != n:
        return rewriter.fail("not a tensor sort of keys and an optional iota")
    if operand_segments(op)[0] != 0:
        return rewriter.fail("the sort has ins operands")
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    keys = op.operands[0]
    kt = ir.RankedTensorType(keys.type)
    elem = kt.element_type
    is_float = _float_key(elem)
    if not is_float and not isinstance(elem, ir.IntegerType):
        return rewriter.fail("keys are neither floats nor integers")
    order, why = _comparator_order(op, allow_unordered_ties)
    if order is None:
        return rewriter.fail(why)
    if n == 2:
        it = ir.RankedTensorType(op.operands[1].type)
        width = ir.IntegerType(it.element_type).width if isinstance(it.element_type, ir.IntegerType) else 0
        if width not in (32, 64):
            return rewriter.fail("indices are not i32 or i64")
        if not _is_iota(op.operands[1], dim):
            return rewriter.fail("the second operand is not an iota along the sorted dimension")
        if width == 64 and (kt.is_dynamic_dim(dim) or kt.get_dim_size(dim) > INT32_MAX + 1):
            return rewriter.fail("i64 indices over a width not known to fit in i32")
    slices, ks = [], []
    for i, result in enumerate(op.results):
        for user, _ in uses(result):
            k = _leading_slice_size(user, result, dim)
            if k is None:
                return rewriter.fail(f"result {i} is used other than through a leading slice")
            slices.append((i, user))
            ks.append(k)
    if not slices:
        return rewriter.fail("no result is used")
    big_k = max(ks)
    if not kt.is_dynamic_dim(dim) and big_k > kt.get_dim_size(dim):
        return rewriter.fail("a slice is longer than the sorted dimension")

    with rewriter.ip, op.location:
        vals, idx = _topk(keys, dim, big_k, order, is_float)
        results = [None, None]
        if any(i == 0 for i, _ in slices):
            results[0] = _gather(keys, idx, dim) if is_float else vals
        if any(i == 1 for i, _ in slices):
            idx_type = ir.RankedTensorType(op.operands[1].type).element_type
            results[1] = idx if ir.IntegerType(idx_type).width == 32 else _extsi(idx, idx_type)
        new_slices = []
        for i, s in slices:
            new = s.clone()
            new.operands[0] = results[i]
            new_slices.append((s, new))
    for old, new in new_slices:
        rewriter.replace_op(old, new)
    rewriter.erase_op(op)
    return True


def _sizes(source, dim, k):
    ty = ir.RankedTensorType(source.type)
    out = []
    for d in range(ty.rank):
        if d == dim:
            out.append(k)
        elif ty.is_dynamic_dim(d):
            out.append(tensor.dim(source, index_constant(d)))
        else:
            out.append(ty.get_dim_size(d))
    return out


def _worst(elem, order):
    """The key every real key beats or ties with, in the comparator below."""
    if _float_key(elem):
        # desc: -inf is below every number and NaN; asc: NaN is last.
        text = "0xFF800000" if order == "desc" else "0x7FC00000"
        f32 = ir.FloatAttr(ir.Attribute.parse(f"{text} : f32"))
        return arith.constant(elem, ir.FloatAttr.get(elem, f32.value))
    width = ir.IntegerType(elem).width
    return arith.constant(elem, -(2 ** (width - 1)) if order == "desc" else 2 ** (width - 1) - 1)


def _topk(keys, dim, k, order, is_float):
    elem = ir.RankedTensorType(keys.type).element_type
    i32 = ir.IntegerType.get_signless(32)
    sizes = _sizes(keys, dim, k)
    fill_v = linalg.fill(_worst(elem, order), outs=[tensor.empty(sizes, elem)])
    fill_i = linalg.fill(arith.constant(i32, INT32_MAX), outs=[tensor.empty(sizes, i32)])
    op = ir.Operation.create(
        "iree_linalg_ext.topk", results=[fill_v.type, fill_i.type], operands=[keys, fill_v, fill_i],
        attributes={"dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), dim)}, regions=1)
    block = op.regions[0].blocks.append(elem, elem)
    a, b = block.arguments
    with ir.InsertionPoint(block):
        if is_float:
            # a before b: a beats b numerically, or NaN ranks highest (torch's order).
            better = arith.cmpf(arith.CmpFPredicate.OGT if order == "desc" else arith.CmpFPredicate.OLT, a, b)
            a_nan = arith.cmpf(arith.CmpFPredicate.UNO, a, a)
            b_nan = arith.cmpf(arith.CmpFPredicate.UNO, b, b)
            if order == "desc":  # NaN a beats a number b
                nan_wins = arith.andi(a_nan, arith.xori(b_nan, arith.constant(ir.IntegerType.get_signless(1), 1)))
            else:  # a number a beats NaN b
                nan_wins = arith.andi(b_nan, arith.xori(a_nan, arith.constant(ir.IntegerType.get_signless(1), 1)))
            res = arith.ori(better, nan_wins)
        else:
            res = arith.cmpi(arith.CmpIPredicate.sgt if order == "desc" else arith.CmpIPredicate.slt, a, b)
        ir.Operation.create("iree_linalg_ext.yield", operands=[res])
    return op.results[0], op.results[1]


def _parallel_generic(ins, out_type, out_sizes, body):
    """A linalg.generic over ``out_type``'s shape, identity maps; ``body(block)`` yields."""
    ty = ir.RankedTensorType(out_type)
    empty = tensor.empty(out_sizes, ty.element_type)
    ident = ir.AffineMapAttr.get(ir.AffineMap.get_identity(ty.rank))
    par = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    g = linalg.GenericOp([empty.type], ins, [empty], ir.ArrayAttr.get([ident] * (len(ins) + 1)),
                         ir.ArrayAttr.get([par] * ty.rank))
    block = g.regions[0].blocks.append(*[ir.RankedTensorType(v.type).element_type for v in ins],
                                       ty.element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([body(block)])
    return g.results[0]


def _dims_of(value):
    ty = ir.RankedTensorType(value.type)
    return [tensor.dim(value, index_constant(d)) if ty.is_dynamic_dim(d)
            else ty.get_dim_size(d) for d in range(ty.rank)]


def _extsi(idx, to):
    shape = ir.RankedTensorType(idx.type).shape
    out = ir.RankedTensorType.get(shape, to)
    return _parallel_generic([idx], out, _dims_of(idx), lambda blk: arith.extsi(to, blk.arguments[0]))


def _gather(keys, idx, dim):
    """values[i] = keys[i with d = idx[i]]: the chosen keys' own bits."""
    kt = ir.RankedTensorType(keys.type)
    out = ir.RankedTensorType.get(ir.RankedTensorType(idx.type).shape, kt.element_type)

    def body(blk):
        at = [linalg.IndexOp(d).result for d in range(kt.rank)]
        at[dim] = arith.index_cast(ir.IndexType.get(), blk.arguments[0])
        return tensor.extract(keys, at)

    return _parallel_generic([idx], out, _dims_of(idx), body)

"""A sort read only through leading slices is a top-k; compute it as one.

PyTorch's ``topk``, ``sort`` and ``argsort`` come out of iree-turbine as an
``iree_linalg_ext.sort`` of the values together with an iota of indices,
followed by ``tensor.extract_slice``s that keep the first ``k`` along the
sorted dimension. IREE lowers the sort to a bubble sort, O(n^2) scalar
compares per row of width n.

``sort_slice_to_topk`` (root: the sort) rewrites when all of these hold:

* tensor semantics, only ``outs`` operands: the keys, and optionally an iota
  along the sorted dimension d (a ``linalg.generic`` with no inputs, the
  identity map, all loops parallel, yielding ``index_cast(linalg.index d)``,
  possibly through a ``tensor.expand_shape`` that adds unit dimensions, as
  IREE leaves it when the batch is 1) of type i32 or i64 (i64 only when the
  width is static: the top-k op counts indices in i32);
* the comparator is one ``arith.cmpf``/``arith.cmpi`` of the two keys, in
  block order: ``oge``/``ole``/``sge``/``sle`` (what torch exports). IREE's
  bubble sort swaps neighbours only when the comparator says false, so with
  these it is stable: among equal keys, the lower index first. Every form
  below breaks ties by the lower index, so indices and values are the
  sort's. ``ogt``/``olt``/``sgt``/``slt`` leave equal keys unordered (IREE's
  order is a bubble-sort artifact; torch's topk has none either); these are
  rewritten only with ``allow-unordered-ties`` (the result is the stable order);
* the keys are floats (f16, bf16, f32, f64) or integers;
* every use of a result is a ``tensor.extract_slice`` with offset 0, stride 1
  and a static size along d (other dimensions sliced any way: rows are
  independent), or, when the width is static, any use at all: a use of the
  whole result is the top-k of k = width.

Order of floats. Float keys become ordered integer keys: +0.0 is added
(-0.0 becomes +0.0, so they tie as ``oge`` says), every NaN becomes the
positive quiet NaN, and the magnitude bits of negative numbers are flipped;
two's-complement order is then the numeric order with NaN above +inf (as
torch orders NaN: first descending, last ascending; stock IREE has no order
for NaN). One integer compare replaces a NaN-aware float comparator, whose
select chain doubled the top-k op's loop-carried latency (40 vs 17 us at
37x64 k=4). Values are read back from the keys at the chosen indices, so each
keeps its own bits (-0.0, NaN payloads). In the CPU forms one generic reads
them and passes the indices through (_gather_with_indices), so the indices
have one user and IREE fuses the read into the dispatch that computes them:
no executable of its own.

Forms, chosen by ``choose_form`` (forced with the pass option ``form``):

* ``argmax`` (k = 1, static width below 2^31, keys of at most 32 bits): one
  reduction of i64 composites ``key << 32 | (0x7FFFFFFE - index)``
  (descending; ``| (index + 0x80000001)`` ascending, with min) and a decode
  of the index: vectorized, one dispatch, O(n). Distinct positions never
  tie, so the winner is the lowest index among the best keys.
* ``rounds`` (static width, keys of at most 32 bits, k <= 64): k masked
  arg-max reductions over the composites, round r keeping the best one that
  comes after round r-1's winner (composites of distinct positions differ,
  so this excludes exactly the earlier winners; on the CPU round 0 comes
  after a constant beyond every composite, so the k rounds are one
  executable), then one generic decoding the k winners. k vectorized O(n)
  reductions, one dispatch each.
* ``rank`` (static width, keys of at most 32 bits): rank[i] = how many
  composites come before i's (a vectorized reduction, O(n^2)), then
  out[r] = the i with rank r (O(n*k)), written in the index type directly.
* ``chunks`` (static width, keys of at most 32 bits, k <= 64; wide rows):
  the row cut in chunks of C (a power of two near sqrt(width/k)); each
  chunk's best composite (global index inside: one O(n) reduction); k rounds
  over the n/C chunk bests pick the k best chunks (a chunk whose best is
  beaten by k other chunk bests holds no top-k element); their k*C composites
  are gathered and k rounds over them give the result. n + k*n/C + k*k*C
  compares instead of k*n, in 2k + 3 dispatches.
* ``topk``: ``iree_linalg_ext.topk`` over the integer keys, outputs started
  at the worst key with index INT32_MAX (real keys equal to it still win, by
  index), i64 indices by an ``extsi`` generic. Scalar, O(n*k) with a
  loop-carried select per step; any width, dynamic included, any key width.

Cost rule (static width, keys of at most 32 bits; otherwise topk): argmax
when k = 1; rank when 2k >= width; when k <= 64 chunks if the width is at
least 512 and its compare count is at most 0.6 of rounds' (``chunks_pay``),
else rounds; beyond that rank when ``RANK_FACTOR * k >= width``, else topk.
Chunks vs rounds, measured interleaved (37 rows, local-sync): 1024 wide k=4
0.37x, k=16 0.20x, k=64 0.55x; 512 k=8 0.33x; 4096 k=64 0.26x; 32768 k=4
0.25x, k=16 0.16x, k=64 0.09x; but 64 k=4 1.2-1.7x, 128 k=4 1.17x, 256 k=8
1.05x, 256 k=16 1.46x (the k + 3 extra dispatches cost more than the
passes saved on short rows; model ratios there 0.5-0.75), hence the width
floor and the 0.6 (512 k=64, model 0.77, stays rounds).

GPUs (``gpu=true``, what ``--fixes`` injects for cuda/rocm): IREE 3.13's
VectorDistribute fails ("failed to distribute") on a reduction whose body
reads ``linalg.index``. So every GPU form computes the composites by one
parallel generic behind ``util.optimization_barrier`` (dispatch formation
does not fuse across it; ``flow.tensor.tie_shape`` gives back the dynamic
sizes IREE cannot see through it) and its reductions read only composites
(the rank form's ranks r come from a constant; with the composites fused in,
its codegen ran past 6-12 GB). IREE's GPU code runs a reduction's rows in
parallel but each row serially, so one round (a dispatch) per k costs k
serial passes: on an H200, 37x32768 k=64 took 38.3 ms as rounds, 4.2 ms as
chunks picking by rounds and 0.39 ms as chunks picking by rank. Hence the GPU
rule (``choose_gpu_form``): argmax or rank under CHUNKS_MIN_WIDTH, chunks
with rank picks from there; where no chunk size divides the width, argmax
(k = 1), rank up to GPU_RANK_MAX_WIDTH, rounds beyond; elsewhere the sort is
left to stock.

CPU measurements
(tools/bench_topk_speed.py, 37 rows, local-sync, us per call): rounds costs
about c * n * k with vector lanes and one dispatch per round, the top-k op
c1 * n * k with a scalar select chain (c1 / c 4-10), counting c2 * n^2
vectorized. 64 wide: k=4 rounds 6, topk 17, rank 40; k=16 rounds 17, rank
27, topk 59; k=64 rounds 64, rank 48 (hence 2k >= width). 1024 wide: k=4
rounds 51, topk 222; k=64 rounds 728, rank 5130, topk 7250. 32768 wide, k=4:
rounds 1360, topk 8100. Every form does at most the bubble sort's O(n^2)
work; the cap of 64 rounds bounds the dispatches one sort becomes.
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ..authoring import pattern
from .ir_utils import DYNAMIC, defining_op, index_constant, operand_segments, reassociation, uses

STABLE = {"oge": "desc", "ole": "asc", "sge": "desc", "sle": "asc"}
UNORDERED_TIES = {"ogt": "desc", "olt": "asc", "sgt": "desc", "slt": "asc"}
_FLOAT_PREDICATES = [
    "false",
    "oeq",
    "ogt",
    "oge",
    "olt",
    "ole",
    "one",
    "ord",
    "ueq",
    "ugt",
    "uge",
    "ult",
    "ule",
    "une",
    "uno",
    "true",
]
_INT_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
INT32_MAX = 2**31 - 1
RANK_FACTOR = 8  # rank-count when k >= width / RANK_FACTOR (calibrated in the module docstring)
MAX_ROUNDS = 64  # the rounds form makes one reduction dispatch per round
CHUNKS_MIN_WIDTH = 512  # narrower rows: the chunks form's k + 3 extra dispatches cost more than it saves
CHUNKS_GAIN = 0.6  # chunks when its compare count is at most this fraction of the rounds form's
GPU_RANK_MAX_WIDTH = 4096  # GPUs: the rank form's O(width^2) count no wider than this (choose_gpu_form)
# A composite's low half (_composite): LOW_DESC - index or index + LOW_ASC, for indices below INT32_MAX.
# Every composite then comes after BEFORE_ALL[order] (0x7FFFFFFF_7FFFFFFF above the largest,
# 0x80000000_80000000 below the smallest), which is a 4-byte pattern repeated.
LOW_DESC, LOW_ASC = 0x7FFFFFFE, 0x80000001
BEFORE_ALL = {"desc": 0x7FFFFFFF7FFFFFFF, "asc": -0x7FFFFFFF80000000}
FORMS = ("auto", "topk", "rank", "argmax", "rounds", "chunks")


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
    """``value`` holds its own index along ``dim``, through unit-dimension expand_shapes
    (IREE drops unit dimensions of the iota when the batch is 1, then expands back)."""
    g = defining_op(value)
    if g is not None and g.name == "tensor.expand_shape":
        out = ir.RankedTensorType(value.type)
        for src_dim, group in enumerate(reassociation(g)):
            if dim in group:
                if any(out.is_dynamic_dim(d) or out.get_dim_size(d) != 1 for d in group if d != dim):
                    return False
                return _is_iota(g.operands[0], src_dim)
        return False
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
    return (
        ir.IntegerAttr(index.attributes["dim"]).value == dim
        and cast.operands[0] == index.results[0]
        and yld.operands[0] == cast.results[0]
    )


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
def sort_slice_to_topk(
    op,
    rewriter,
    allow_unordered_ties: bool = False,
    form: str = "auto",
    chunk: int = 0,
    materialize: bool = False,
    gpu: bool = False,
    select: str = "rank",
):
    return _rewrite(op.operation, rewriter, allow_unordered_ties, form, chunk, materialize or gpu, gpu, select)


def _rewrite(
    op,
    rewriter,
    allow_unordered_ties: bool,
    form: str,
    chunk_option: int = 0,
    materialize: bool = False,
    gpu: bool = False,
    select: str = "rank",
):
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
    width = None if kt.is_dynamic_dim(dim) else kt.get_dim_size(dim)
    slices, ks = [], []
    for i, result in enumerate(op.results):
        for user, _ in uses(result):
            k = _leading_slice_size(user, result, dim)
            if k is None and width is None:
                return rewriter.fail(
                    f"result {i} is used other than through a leading slice, and the sorted dimension is dynamic"
                )
            slices.append((i, user))
            ks.append(width if k is None else k)  # a whole use is the top-k of k = width
    if not slices:
        return rewriter.fail("no result is used")
    big_k = max(ks)
    if width is not None and big_k > width:
        return rewriter.fail("a slice is longer than the sorted dimension")

    idx_type = ir.RankedTensorType(op.operands[1].type).element_type if n == 2 else None
    want_values = any(i == 0 for i, _ in slices)
    chosen = (choose_gpu_form if gpu else choose_form)(width, big_k, _bits(elem)) if form == "auto" else form
    if gpu and chosen not in ("argmax", "rounds", "chunks", "rank"):
        return rewriter.fail(
            "for GPUs only the materialized argmax, rounds, chunks and rank forms, on a static width "
            f"and keys of at most 32 bits, and on rows over {GPU_RANK_MAX_WIDTH} only with "
            f"k <= {MAX_ROUNDS} and 2k < width (choose_gpu_form)"
        )
    if chosen in ("argmax", "rank", "rounds", "chunks") and (width is None or width > INT32_MAX or _bits(elem) > 32):
        return rewriter.fail(f"the {chosen} form needs a static width below 2^31 and keys of at most 32 bits")
    if chosen == "topk" and width is not None and width > INT32_MAX + 1:
        return rewriter.fail("the top-k op's indices are i32: a width over 2^31 is left alone")
    if chosen == "argmax" and big_k != 1:
        return rewriter.fail("the argmax form computes only k = 1")
    if chosen == "rounds" and not 1 <= big_k <= MAX_ROUNDS:
        return rewriter.fail(f"the rounds form computes 1 <= k <= {MAX_ROUNDS}")
    chunk = chunk_size(width, big_k, chunk_option) if chosen == "chunks" else None
    if chosen == "chunks" and (not 1 <= big_k <= MAX_ROUNDS or chunk is None):
        return rewriter.fail(
            f"the chunks form needs 1 <= k <= {MAX_ROUNDS} and a power-of-two chunk "
            "size >= 2 dividing the width into at least k chunks"
        )

    with rewriter.ip, op.location:
        results = [None, None]
        if chosen == "topk":
            vals, idx = _topk(_ordered_keys(keys) if is_float else keys, dim, big_k, order)
            if want_values:
                results[0] = _gather(keys, idx, dim) if is_float else vals
            if idx_type is not None:
                results[1] = idx if ir.IntegerType(idx_type).width == 32 else _extsi(idx, idx_type)
        else:
            out_t = idx_type if idx_type is not None else ir.IntegerType.get_signless(32)
            idx = (
                _rounds_materialized(keys, dim, big_k, order, out_t)
                if materialize and chosen in ("argmax", "rounds")
                else _chunks_materialized(keys, dim, big_k, order, out_t, chunk, select)
                if materialize and chosen == "chunks"
                else _rank_materialized(keys, dim, big_k, order, out_t)
                if materialize and chosen == "rank"
                else _argmax(keys, dim, order, out_t)
                if chosen == "argmax"
                else _rounds(keys, dim, big_k, order, out_t)
                if chosen == "rounds"
                else _chunks(keys, dim, big_k, order, out_t, chunk)
                if chosen == "chunks"
                else _rank_select(keys, dim, big_k, order, out_t)
            )
            if want_values and not materialize:  # fused where idx is computed (_gather_with_indices)
                results[0], idx = _gather_with_indices(keys, idx, dim)
            elif want_values:
                results[0] = _gather(keys, idx, dim)
            results[1] = idx
        if big_k == width:  # results of the sort's own types: every use reads them as it read the sort's
            # An unused result has no uses; any value of its type stands in for it.
            rewriter.replace_op(op, [results[i] if results[i] is not None else op.operands[i] for i in range(n)])
            return True
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


def _bits(elem) -> int:
    if isinstance(elem, ir.IntegerType):
        return elem.width
    return 64 if isinstance(elem, ir.F64Type) else 32 if isinstance(elem, ir.F32Type) else 16


def chunks_pay(width: int, k: int) -> bool:
    """Whether the chunks form beats rounds: rows of at least CHUNKS_MIN_WIDTH, and its compares
    (width + k*width/C + k*k*C) at most CHUNKS_GAIN of the rounds form's k*width (module docstring)."""
    c = chunk_size(width, k)
    return c is not None and width >= CHUNKS_MIN_WIDTH and width + k * width // c + k * k * c <= CHUNKS_GAIN * k * width


def choose_gpu_form(width, k: int, key_bits: int):
    """For GPUs (every form materialized). IREE's GPU code runs a reduction's rows in parallel but each
    row serially, and a round is a dispatch of its own, so the GPU rule avoids rounds: on rows under
    CHUNKS_MIN_WIDTH argmax (k = 1) or rank (every row and position in parallel); from there chunks
    (chunk bests in parallel, then ranks over the chunk bests and over the candidates); where no chunk
    size divides the width (odd widths), argmax for k = 1, rank up to GPU_RANK_MAX_WIDTH, and rounds
    beyond (k <= 64). None (leave the sort) for dynamic widths, keys over 32 bits, and k > 64 or
    2k >= width on rows wider than GPU_RANK_MAX_WIDTH (H200 figures: docs/passes/sort-slice-to-topk.md)."""
    if width is None or width > INT32_MAX or key_bits > 32:
        return None
    if width < CHUNKS_MIN_WIDTH:
        return "argmax" if k == 1 else "rank"
    if k <= MAX_ROUNDS and 2 * k < width and chunk_size(width, k) is not None:
        return "chunks"
    if k == 1:
        return "argmax"
    if width <= GPU_RANK_MAX_WIDTH:
        return "rank"
    return "rounds" if k <= MAX_ROUNDS and 2 * k < width else None


def choose_form(width, k: int, key_bits: int) -> str:
    """The cheapest form for a row of ``width`` keys (None: dynamic) and the top ``k`` (module docstring)."""
    if width is None or width > INT32_MAX or key_bits > 32:
        return "topk"
    if k == 1:
        return "argmax"
    if 2 * k >= width:
        return "rank"
    if k <= MAX_ROUNDS:
        return "chunks" if chunks_pay(width, k) else "rounds"
    return "rank" if RANK_FACTOR * k >= width else "topk"


def _int(bits):
    return ir.IntegerType.get_signless(bits)


def _ordered_key(x):
    """The signed integer whose order is the float order of ``x``, NaN above +inf, -0.0 == +0.0.

    Adding +0.0 turns -0.0 into +0.0; every NaN becomes the positive quiet
    NaN; then flipping the magnitude bits of negative numbers makes the
    two's-complement order the numeric one.
    """
    ft = x.type
    bits = _bits(ft)
    it = _int(bits)
    zero = arith.constant(ft, 0.0)
    canon = arith.select(
        arith.cmpf(arith.CmpFPredicate.UNO, x, x), arith.constant(ft, float("nan")), arith.addf(x, zero)
    )
    raw = arith.bitcast(it, canon)
    sign = arith.shrsi(raw, arith.constant(it, bits - 1))
    return arith.xori(raw, arith.andi(sign, arith.constant(it, 2 ** (bits - 1) - 1)))


def _ordered_keys(keys):
    """``_ordered_key`` of every element (a parallel generic)."""
    kt = ir.RankedTensorType(keys.type)
    out = ir.RankedTensorType.get(kt.shape, _int(_bits(kt.element_type)))
    return _parallel_generic([keys], out, _dims_of(keys), lambda blk: _ordered_key(blk.arguments[0]))


def _worst(elem, order):
    """The integer key every real key beats or ties with (ties go to the real, lower index)."""
    width = ir.IntegerType(elem).width
    return arith.constant(elem, -(2 ** (width - 1)) if order == "desc" else 2 ** (width - 1) - 1)


def _topk(keys, dim, k, order):
    """iree_linalg_ext.topk of integer ``keys``: one compare, ties to the lower index (the op's rule)."""
    elem = ir.RankedTensorType(keys.type).element_type
    i32 = _int(32)
    sizes = _sizes(keys, dim, k)
    fill_v = linalg.fill(_worst(elem, order), outs=[tensor.empty(sizes, elem)])
    fill_i = linalg.fill(arith.constant(i32, INT32_MAX), outs=[tensor.empty(sizes, i32)])
    op = ir.Operation.create(
        "iree_linalg_ext.topk",
        results=[fill_v.type, fill_i.type],
        operands=[keys, fill_v, fill_i],
        attributes={"dimension": ir.IntegerAttr.get(_int(64), dim)},
        regions=1,
    )
    block = op.regions[0].blocks.append(elem, elem)
    a, b = block.arguments
    with ir.InsertionPoint(block):
        res = arith.cmpi(arith.CmpIPredicate.sgt if order == "desc" else arith.CmpIPredicate.slt, a, b)
        ir.Operation.create("iree_linalg_ext.yield", operands=[res])
    return op.results[0], op.results[1]


def _composite(x, pos, order):
    """One i64 that orders (key, index) as the result must: the key above, the index below.

    Descending wants the larger key and then the lower index first, so the
    low half holds LOW_DESC - index and the larger composite wins; ascending
    holds index + LOW_ASC and the smaller composite wins. Distinct positions
    never tie, and with indices below INT32_MAX every composite comes after
    BEFORE_ALL[order] (_before_all).
    """
    i64 = _int(64)
    key = _ordered_key(x) if _float_key(x.type) else x
    if ir.IntegerType(key.type).width < 64:
        key = arith.extsi(i64, key)
    low = arith.index_cast(i64, pos)
    if order == "desc":
        low = arith.subi(arith.constant(i64, LOW_DESC), low)
    else:
        low = arith.addi(low, arith.constant(i64, LOW_ASC))
    return arith.ori(arith.shli(key, arith.constant(i64, 32)), low)


def _maps(*dim_lists, rank):
    """Indexing maps over ``rank`` loops, each the listed loop dims."""
    return ir.ArrayAttr.get(
        [ir.AffineMapAttr.get(ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(d) for d in dims])) for dims in dim_lists]
    )


def _iterators(kinds):
    return ir.ArrayAttr.get([ir.Attribute.parse(f"#linalg.iterator_type<{k}>") for k in kinds])


def _argmax(keys, dim, order, out_t):
    """k = 1: one reduction over the row of composites, then the index decoded (one vectorized dispatch)."""
    best = _best_below(keys, dim, order, None)
    red_t = ir.RankedTensorType(best.type)
    red_sizes = [s for d, s in enumerate(_dims_of(keys)) if d != dim]
    idx = _parallel_generic(
        [best],
        ir.RankedTensorType.get(red_t.shape, out_t),
        red_sizes,
        lambda blk: _decode(blk.arguments[0], order, out_t),
    )
    return _expand_at(idx, keys, dim, out_t)


def _decode(composite, order, out_t):
    """The index a composite holds in its low 32 bits, as ``out_t``."""
    low = arith.trunci(_int(32), composite)
    if order == "desc":
        low = arith.subi(arith.constant(_int(32), LOW_DESC), low)
    else:
        low = arith.subi(low, arith.constant(_int(32), LOW_ASC - 2**32))  # mod 2^32
    return low if ir.IntegerType(out_t).width == 32 else arith.extui(out_t, low)


def _best_below(keys, dim, order, prev):
    """The best composite of each row that comes after ``prev`` (None: the best of all): one reduction."""
    kt = ir.RankedTensorType(keys.type)
    rank = kt.rank
    i64 = _int(64)
    red_sizes = [s for d, s in enumerate(_dims_of(keys)) if d != dim]
    worst = arith.constant(i64, -(2**63) if order == "desc" else 2**63 - 1)
    acc0 = linalg.fill(worst, outs=[tensor.empty(red_sizes, i64)])
    outer = [d for d in range(rank) if d != dim]
    ins = [keys] + ([prev] if prev is not None else [])
    maps = [list(range(rank))] + [outer] * len(ins)
    g = linalg.GenericOp(
        [acc0.type],
        ins,
        [acc0],
        _maps(*maps, rank=rank),
        _iterators(["reduction" if d == dim else "parallel" for d in range(rank)]),
    )
    block = g.regions[0].blocks.append(kt.element_type, *([i64] if prev is not None else []), i64)
    with ir.InsertionPoint(block):
        args = list(block.arguments)
        c = _composite(args[0], linalg.IndexOp(dim).result, order)
        if prev is not None:
            after = arith.cmpi(arith.CmpIPredicate.slt if order == "desc" else arith.CmpIPredicate.sgt, c, args[1])
            c = arith.select(after, c, worst)
        best = arith.maxsi(c, args[-1]) if order == "desc" else arith.minsi(c, args[-1])
        linalg.YieldOp([best])
    return g.results[0]


def _before_all(sizes, order):
    """A tensor of ``sizes`` holding BEFORE_ALL[order], read by round 0 as the later rounds read the
    previous winners, so that all rounds are one executable. Behind a barrier, so that the fill is not
    fused into round 0; the value repeats 4 bytes, so IREE fills it with no dispatch of its own."""
    fill = linalg.fill(arith.constant(_int(64), BEFORE_ALL[order]), outs=[tensor.empty(sizes, _int(64))])
    return _barrier(fill, None, [x for x in sizes if not isinstance(x, int)])


def _rounds(keys, dim, k, order, out_t):
    """Small k: k masked arg-max reductions, round r keeping the best composite after round r-1's.

    Composites of distinct positions differ, so "after the previous winner"
    excludes exactly the winners so far. Each round is a vectorized O(n)
    reduction (its own dispatch); a last generic decodes the k winners into
    the index tensor.
    """
    winners = [_before_all([s for d, s in enumerate(_dims_of(keys)) if d != dim], order)]
    for _ in range(k):
        winners.append(_best_below(keys, dim, order, winners[-1]))
    return _stack(winners[1:], keys, dim, out_t, lambda c: _decode(c, order, out_t))


def _stack(winners, keys, dim, out_t, f):
    """out[.., r, ..] = f(winners[r]): the k per-row winners along ``dim``.

    Static outer dims: one parallel generic reading all k (a select chain on r).
    Dynamic ones: each winner is a binding with push constants for its dims, and
    k = 64 of them exceed the CPU runtime's 64 constants per dispatch, so the
    winners are first stacked as the rows of a [k, outer...] tensor (contiguous
    updates, no dispatch each) and decoded by a one-input generic."""
    k = len(winners)
    kt = ir.RankedTensorType(keys.type)
    rank = kt.rank
    i64 = _int(64)
    if any(kt.is_dynamic_dim(d) for d in range(rank) if d != dim) and k > 1:
        # [k, outer...]: each winner is one contiguous row, an update IREE does without a dispatch
        outer_sizes = [s for d, s in enumerate(_dims_of(keys)) if d != dim]
        whole = tensor.empty([k] + outer_sizes, i64)
        dyn = [s for s in outer_sizes if not isinstance(s, int)]
        static = [s if isinstance(s, int) else DYNAMIC for s in outer_sizes]
        for r, w in enumerate(winners):
            whole = tensor.insert_slice(w, whole, [], dyn, [], [r] + [0] * (rank - 1), [1] + static, [1] * rank)
        empty = tensor.empty(_sizes(keys, dim, k), out_t)
        src = [dim] + [d for d in range(rank) if d != dim]
        g = linalg.GenericOp(
            [empty.type], [whole], [empty], _maps(src, list(range(rank)), rank=rank), _iterators(["parallel"] * rank)
        )
        block = g.regions[0].blocks.append(i64, out_t)
        with ir.InsertionPoint(block):
            linalg.YieldOp([f(block.arguments[0])])
        return g.results[0]
    empty = tensor.empty(_sizes(keys, dim, k), out_t)
    outer = [d for d in range(rank) if d != dim]
    g = linalg.GenericOp(
        [empty.type],
        winners,
        [empty],
        _maps(*([outer] * k), list(range(rank)), rank=rank),
        _iterators(["parallel"] * rank),
    )
    block = g.regions[0].blocks.append(*([i64] * k), out_t)
    with ir.InsertionPoint(block):
        r = linalg.IndexOp(dim).result
        pick = block.arguments[0]
        for j in range(1, k):
            pick = arith.select(arith.cmpi(arith.CmpIPredicate.eq, r, index_constant(j)), block.arguments[j], pick)
        linalg.YieldOp([f(pick)])
    return g.results[0]


def _composites(keys, dims, dim, order):
    """The i64 composite of every key (one parallel generic; the only reader of linalg.index)."""
    return _parallel_generic(
        [keys],
        ir.RankedTensorType.get(ir.RankedTensorType(keys.type).shape, _int(64)),
        dims,
        lambda blk: _composite(blk.arguments[0], linalg.IndexOp(dim).result, order),
    )


def _materialized_composites(keys, dim, order):
    """(the composites behind a barrier, the keys' sizes): the GPU forms' first dispatch."""
    dims = _dims_of(keys)
    return _barrier(_composites(keys, dims, dim, order), keys), dims


def _per_pick(picked, dims, dim, elem, f):
    """``f`` of each of the k picked composites ([.., k, ..] i64) as ``elem``: one parallel generic."""
    sizes = dims[:dim] + [ir.RankedTensorType(picked.type).get_dim_size(dim)] + dims[dim + 1 :]
    return _parallel_generic(
        [picked],
        ir.RankedTensorType.get(ir.RankedTensorType(picked.type).shape, elem),
        sizes,
        lambda blk: f(blk.arguments[0]),
    )


def _rounds_materialized(keys, dim, k, order, out_t):
    """argmax / rounds with the composites in their own dispatch: one parallel generic (it reads
    linalg.index) behind a util.optimization_barrier, so IREE cannot fuse it into the k reductions,
    whose bodies then read only their operands."""
    comps, dims = _materialized_composites(keys, dim, order)
    winners = []
    for _ in range(k):
        winners.append(_best_of(comps, [dim], order, winners[-1] if winners else None, dims))
    return _stack(winners, keys, dim, out_t, lambda c: _decode(c, order, out_t))


def _barrier(value, like, dyn=None):
    """``value`` behind util.optimization_barrier, which IREE's dispatch formation does not fuse across;
    its dynamic sizes (``dyn``, else those of ``like``) re-attached by flow.tensor.tie_shape, since IREE
    cannot resolve tensor.dim through the barrier."""
    out = ir.Operation.create("util.optimization_barrier", results=[value.type], operands=[value]).results[0]
    ty = ir.RankedTensorType(value.type)
    if dyn is None:
        dyn = [tensor.dim(like, index_constant(d)) for d in range(ty.rank) if ty.is_dynamic_dim(d)]
    if not dyn:
        return out
    return ir.Operation.create("flow.tensor.tie_shape", results=[value.type], operands=[out, *dyn]).results[0]


def chunk_size(width, k: int, forced: int = 0):
    """The chunk size C of the chunks form: the power of two nearest sqrt(width / k) (which minimizes its
    k * width / C + k^2 * C compares) that divides ``width`` into at least k chunks, C >= 2; else None.
    ``forced`` (the pass option ``chunk``, for measuring) replaces the choice when it is valid."""
    if width is None or k < 1:
        return None
    if forced:
        return forced if forced >= 2 and width % forced == 0 and width // forced >= k else None
    c = 2
    while width % (2 * c) == 0 and width // (2 * c) >= k and (2 * c) ** 2 * k <= 2 * width:
        c *= 2
    return c if width % c == 0 and width // c >= k else None


def _best_of(comps, red_dims, order, prev, dims=None):
    """The best i64 composite of ``comps`` over the loops ``red_dims`` after ``prev`` (None: of all).

    Reads only its operands (no linalg.index): the composites carry their positions. ``dims``:
    comps' sizes, when tensor.dim of comps cannot be resolved (comps behind a barrier)."""
    ct = ir.RankedTensorType(comps.type)
    rank = ct.rank
    i64 = _int(64)
    outer = [d for d in range(rank) if d not in red_dims]
    worst = arith.constant(i64, -(2**63) if order == "desc" else 2**63 - 1)
    dims = dims if dims is not None else _dims_of(comps)
    acc0 = linalg.fill(worst, outs=[tensor.empty([dims[d] for d in outer], i64)])
    ins = [comps] + ([prev] if prev is not None else [])
    g = linalg.GenericOp(
        [acc0.type],
        ins,
        [acc0],
        _maps(list(range(rank)), *([outer] * len(ins)), rank=rank),
        _iterators(["reduction" if d in red_dims else "parallel" for d in range(rank)]),
    )
    block = g.regions[0].blocks.append(*([i64] * (len(ins) + 1)))
    with ir.InsertionPoint(block):
        args = list(block.arguments)
        c = args[0]
        if prev is not None:
            after = arith.cmpi(arith.CmpIPredicate.slt if order == "desc" else arith.CmpIPredicate.sgt, c, args[1])
            c = arith.select(after, c, worst)
        best = arith.maxsi(c, args[-1]) if order == "desc" else arith.minsi(c, args[-1])
        linalg.YieldOp([best])
    return g.results[0]


def _chunk_groups(rank, dim):
    """Reassociation of a rank-``rank`` tensor whose ``dim`` is split into (chunk, in-chunk)."""
    groups = [[d] for d in range(dim)] + [[dim, dim + 1]] + [[d + 1] for d in range(dim + 1, rank)]
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(_int(64), x) for x in g]) for g in groups])


def _split_chunks(value, dims, dim, c):
    """``value`` [.., width, ..] as [.., width/c, c, ..] (``dims``: its sizes)."""
    ty = ir.RankedTensorType(value.type)
    static = [DYNAMIC if ty.is_dynamic_dim(d) else ty.get_dim_size(d) for d in range(ty.rank)]
    static[dim : dim + 1] = [ty.get_dim_size(dim) // c, c]
    dyn = [dims[d] for d in range(ty.rank) if ty.is_dynamic_dim(d)]
    return tensor.expand_shape(
        ir.RankedTensorType.get(static, ty.element_type), value, _chunk_groups(ty.rank, dim), dyn, static
    )


def _chunk_start(w, order, c):
    """The first position of the chunk that composite ``w`` is in, as i32."""
    i32 = _int(32)
    return arith.muli(arith.divui(_decode(w, order, i32), arith.constant(i32, c)), arith.constant(i32, c))


def _candidates(first, dims, dim, k, c, composite_at):
    """[.., k, c, ..] i64: for each chosen chunk (``first``: its start, [.., k, ..] i32) the composites of
    its c positions, ``composite_at(at, pos)`` giving the one at ``at`` (pos: its index along dim)."""
    rank = len(dims)
    sizes = dims[:dim] + [k, c] + dims[dim + 1 :]
    empty = tensor.empty(sizes, _int(64))
    g = linalg.GenericOp(
        [empty.type],
        [first],
        [empty],
        _maps([d for d in range(rank + 1) if d != dim + 1], list(range(rank + 1)), rank=rank + 1),
        _iterators(["parallel"] * (rank + 1)),
    )
    block = g.regions[0].blocks.append(_int(32), _int(64))
    with ir.InsertionPoint(block):
        pos = arith.addi(arith.index_castui(ir.IndexType.get(), block.arguments[0]), linalg.IndexOp(dim + 1).result)
        at = [linalg.IndexOp(d if d < dim else d + 1).result for d in range(rank)]
        at[dim] = pos
        linalg.YieldOp([composite_at(at, pos)])
    return g.results[0], sizes


def _chunks(keys, dim, k, order, out_t, c):
    """Wide rows, large k: the rows cut in chunks of ``c``; only chunks whose best is among the k best
    chunk bests can hold a top-k element (k better chunk bests would beat all of a chunk's elements).

    1. each chunk's best composite (global index inside): one O(width) reduction;
    2. k rounds over the width/c chunk bests pick the k best chunks;
    3. their k*c composites (gathered, global index inside) are the candidates;
    4. k rounds over the candidates, then the decode.
    k*width/c + k*k*c compares instead of the rounds form's k*width; every
    composite holds its global index, so ties still go to the lower index.
    """
    kt = ir.RankedTensorType(keys.type)
    rank = kt.rank
    i64 = _int(64)
    dims = _dims_of(keys)
    split = _split_chunks(keys, dims, dim, c)
    # 1. chunk bests: loops = split's dims, reduce the in-chunk loop dim + 1
    c_idx = index_constant(c)
    best_sizes = [dims[d] if d != dim else kt.get_dim_size(dim) // c for d in range(rank)]
    worst = arith.constant(i64, -(2**63) if order == "desc" else 2**63 - 1)
    acc0 = linalg.fill(worst, outs=[tensor.empty(best_sizes, i64)])
    g = linalg.GenericOp(
        [acc0.type],
        [split],
        [acc0],
        _maps(list(range(rank + 1)), [d for d in range(rank + 1) if d != dim + 1], rank=rank + 1),
        _iterators(["reduction" if d == dim + 1 else "parallel" for d in range(rank + 1)]),
    )
    block = g.regions[0].blocks.append(kt.element_type, i64)
    with ir.InsertionPoint(block):
        pos = arith.addi(arith.muli(linalg.IndexOp(dim).result, c_idx), linalg.IndexOp(dim + 1).result)
        comp = _composite(block.arguments[0], pos, order)
        linalg.YieldOp(
            [arith.maxsi(comp, block.arguments[1]) if order == "desc" else arith.minsi(comp, block.arguments[1])]
        )
    bests = g.results[0]
    # 2. the k best chunks: their first positions, along dim (round 0 after _before_all, as in _rounds)
    start = _before_all([s for d, s in enumerate(dims) if d != dim], order)  # both round chains start after it
    won = [start]
    for _ in range(k):
        won.append(_best_of(bests, [dim], order, won[-1]))
    first = _stack(won[1:], keys, dim, _int(32), lambda w: _chunk_start(w, order, c))
    # 3. candidates [.., k, c, ..]: the composites of the chosen chunks' elements
    cands, _ = _candidates(first, dims, dim, k, c, lambda at, pos: _composite(tensor.extract(keys, at), pos, order))
    # 4. k rounds over the k*c candidates of each row
    winners = [start]
    for _ in range(k):
        winners.append(_best_of(cands, [dim, dim + 1], order, winners[-1]))
    return _stack(winners[1:], keys, dim, out_t, lambda w: _decode(w, order, out_t))


def _chunks_materialized(keys, dim, k, order, out_t, c, select="rank"):
    """The chunks form for GPUs: the composites materialized behind a barrier (as in
    _rounds_materialized) and cut into chunks of ``c``, so that no reduction reads linalg.index;
    the candidates are gathered from the composites by a parallel generic."""
    kt = ir.RankedTensorType(keys.type)
    rank = kt.rank
    i32, i64 = _int(32), _int(64)
    comps, dims = _materialized_composites(keys, dim, order)
    split = _split_chunks(comps, dims, dim, c)
    bests = _best_of(split, [dim + 1], order, None, dims[:dim] + [kt.get_dim_size(dim) // c, c] + dims[dim + 1 :])
    best_dims = dims[:dim] + [kt.get_dim_size(dim) // c] + dims[dim + 1 :]
    if k == 1 or select == "rounds":
        won = []
        for _ in range(k):
            won.append(_best_of(bests, [dim], order, won[-1] if won else None, best_dims))
        if k == 1:  # the best chunk best is the best
            return _stack(won, keys, dim, out_t, lambda w: _decode(w, order, out_t))
        first = _stack(won, keys, dim, i32, lambda w: _chunk_start(w, order, c))
    else:
        first = _per_pick(
            _rank_pick(bests, best_dims, dim, k, order), dims, dim, i32, lambda w: _chunk_start(w, order, c)
        )
    gathered, cand_sizes = _candidates(first, dims, dim, k, c, lambda at, pos: tensor.extract(comps, at))
    cands = _barrier(gathered, None, [x for x in cand_sizes if not isinstance(x, int)])
    if select == "rounds":
        winners = []
        for _ in range(k):
            winners.append(_best_of(cands, [dim, dim + 1], order, winners[-1] if winners else None, cand_sizes))
        return _stack(winners, keys, dim, out_t, lambda w: _decode(w, order, out_t))
    flat_static = [DYNAMIC if kt.is_dynamic_dim(d) else kt.get_dim_size(d) for d in range(rank)]
    flat_static[dim] = k * c
    flat = tensor.collapse_shape(ir.RankedTensorType.get(flat_static, i64), cands, _chunk_groups(rank, dim))
    best = _rank_pick(flat, dims[:dim] + [k * c] + dims[dim + 1 :], dim, k, order)
    return _per_pick(best, dims, dim, out_t, lambda w: _decode(w, order, out_t))


def _rank_counts(comps, dims, dim, order):
    """rank[.., i, ..] = #{j : comps[.., j, ..] comes before comps[.., i, ..]} along ``dim`` (i32): one
    reduction over j, every position i in parallel; vectorized on the CPU."""
    rank = len(dims)
    i32, i64 = _int(32), _int(64)
    ident = list(range(rank))
    at_j = [rank if d == dim else d for d in range(rank)]
    zero_counts = linalg.fill(arith.constant(i32, 0), outs=[tensor.empty(dims, i32)])
    counts = linalg.GenericOp(
        [zero_counts.type],
        [comps, comps],
        [zero_counts],
        _maps(at_j, ident, ident, rank=rank + 1),
        _iterators(["parallel"] * rank + ["reduction"]),
    )
    block = counts.regions[0].blocks.append(i64, i64, i32)
    with ir.InsertionPoint(block):
        cj, ci, acc = block.arguments
        before = arith.cmpi(arith.CmpIPredicate.sgt if order == "desc" else arith.CmpIPredicate.slt, cj, ci)
        linalg.YieldOp([arith.addi(acc, arith.extui(i32, before))])
    return counts.results[0]


def _rank_pick(comps, dims, dim, k, order):
    """The k best composites of ``comps`` along ``dim``, best first ([.., k, ..], i64), by counting:
    rank[i] = #{j : comps[j] comes before comps[i]}, then out[r] = the composite of rank r. Two
    reductions whose rows run in parallel (no round after round); neither reads linalg.index: the
    ranks r come from a constant, the positions live in the composites."""
    ct = ir.RankedTensorType(comps.type)
    rank = ct.rank
    i32, i64 = _int(32), _int(64)
    ident = list(range(rank))
    at_j = [rank if d == dim else d for d in range(rank)]
    counts = _rank_counts(comps, dims, dim, order)
    ranks = arith.constant(ir.RankedTensorType.get([k], i32), ir.DenseElementsAttr.get(np.arange(k, dtype=np.int32)))
    out_sizes = dims[:dim] + [k] + dims[dim + 1 :]
    zero_out = linalg.fill(arith.constant(i64, 0), outs=[tensor.empty(out_sizes, i64)])
    pick = linalg.GenericOp(
        [zero_out.type],
        [counts, comps, ranks],
        [zero_out],
        _maps(at_j, at_j, [dim], ident, rank=rank + 1),
        _iterators(["parallel"] * rank + ["reduction"]),
    )
    block = pick.regions[0].blocks.append(i32, i64, i32, i64)
    with ir.InsertionPoint(block):
        rk, c, r, acc = block.arguments
        hit = arith.cmpi(arith.CmpIPredicate.eq, rk, r)
        linalg.YieldOp([arith.addi(acc, arith.select(hit, c, arith.constant(i64, 0)))])
    return pick.results[0]


def _rank_materialized(keys, dim, k, order, out_t):
    """The rank form for GPUs: composites behind a barrier, the k best picked by counting (_rank_pick),
    decoded by a parallel generic."""
    comps, dims = _materialized_composites(keys, dim, order)
    return _per_pick(_rank_pick(comps, dims, dim, k, order), dims, dim, out_t, lambda w: _decode(w, order, out_t))


def _expand_at(reduced, keys, dim, elem):
    """``reduced`` (the keys' shape without ``dim``) with ``dim`` back as size 1."""
    kt = ir.RankedTensorType(keys.type)
    rank = kt.rank
    groups = [[e if e < dim else e + 1] for e in range(rank - 1)]
    if groups:
        if dim < rank - 1:
            groups[dim].insert(0, dim)
        else:
            groups[-1].append(dim)
    static = [1 if d == dim else (DYNAMIC if kt.is_dynamic_dim(d) else kt.get_dim_size(d)) for d in range(rank)]
    dynamic = [tensor.dim(keys, index_constant(d)) for d in range(rank) if d != dim and kt.is_dynamic_dim(d)]
    out = ir.RankedTensorType.get(static, elem)
    attr = ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(_int(64), x) for x in g]) for g in groups])
    return tensor.expand_shape(out, reduced, attr, dynamic, static)


def _rank_select(keys, dim, k, order, out_t):
    """k > 1 by counting: rank[i] = #{j : (key j, j) comes before (key i, i)}, then out[r] = the i of rank r.

    Both are plain reductions that vectorize; the work is width^2 + width*k per row.
    """
    rank = ir.RankedTensorType(keys.type).rank
    i32 = _int(32)
    dims = _dims_of(keys)
    ident = list(range(rank))
    at_j = [rank if d == dim else d for d in range(rank)]
    counts = _rank_counts(_composites(keys, dims, dim, order), dims, dim, order)
    # loops: the output's dims (dim has size k: the rank r), then i at the end
    sizes = _sizes(keys, dim, k)
    zero_out = linalg.fill(arith.constant(out_t, 0), outs=[tensor.empty(sizes, out_t)])
    sel = linalg.GenericOp(
        [zero_out.type],
        [counts],
        [zero_out],
        _maps(at_j, ident, rank=rank + 1),
        _iterators(["parallel"] * rank + ["reduction"]),
    )
    block = sel.regions[0].blocks.append(i32, out_t)
    with ir.InsertionPoint(block):
        rk, acc = block.arguments
        r = arith.index_cast(i32, linalg.IndexOp(dim).result)
        i = arith.index_cast(out_t, linalg.IndexOp(rank).result)
        hit = arith.cmpi(arith.CmpIPredicate.eq, rk, r)
        linalg.YieldOp([arith.addi(acc, arith.select(hit, i, arith.constant(out_t, 0)))])
    return sel.results[0]


def _parallel_generic(ins, out_type, out_sizes, body):
    """A linalg.generic over ``out_type``'s shape, identity maps; ``body(block)`` yields."""
    ty = ir.RankedTensorType(out_type)
    empty = tensor.empty(out_sizes, ty.element_type)
    ident = ir.AffineMapAttr.get(ir.AffineMap.get_identity(ty.rank))
    par = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    g = linalg.GenericOp(
        [empty.type], ins, [empty], ir.ArrayAttr.get([ident] * (len(ins) + 1)), ir.ArrayAttr.get([par] * ty.rank)
    )
    block = g.regions[0].blocks.append(*[ir.RankedTensorType(v.type).element_type for v in ins], ty.element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([body(block)])
    return g.results[0]


def _dims_of(value):
    ty = ir.RankedTensorType(value.type)
    return [
        tensor.dim(value, index_constant(d)) if ty.is_dynamic_dim(d) else ty.get_dim_size(d) for d in range(ty.rank)
    ]


def _extsi(idx, to):
    shape = ir.RankedTensorType(idx.type).shape
    out = ir.RankedTensorType.get(shape, to)
    return _parallel_generic([idx], out, _dims_of(idx), lambda blk: arith.extsi(to, blk.arguments[0]))


def _gather_with_indices(keys, idx, dim):
    """(values, indices): _gather's values and ``idx`` passed through, from one generic, so that
    ``idx`` has one user and IREE fuses the generic into the dispatch that computes it."""
    kt = ir.RankedTensorType(keys.type)
    it = ir.RankedTensorType(idx.type)
    sizes = _dims_of(idx)
    outs = [tensor.empty(sizes, kt.element_type), tensor.empty(sizes, it.element_type)]
    ident = ir.AffineMapAttr.get(ir.AffineMap.get_identity(it.rank))
    g = linalg.GenericOp(
        [o.type for o in outs], [idx], outs, ir.ArrayAttr.get([ident] * 3), _iterators(["parallel"] * it.rank)
    )
    block = g.regions[0].blocks.append(it.element_type, kt.element_type, it.element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([_key_at(keys, block.arguments[0], dim), block.arguments[0]])
    return g.results[0], g.results[1]


def _gather(keys, idx, dim):
    """values[i] = keys[i with d = idx[i]]: the chosen keys' own bits."""
    out = ir.RankedTensorType.get(ir.RankedTensorType(idx.type).shape, ir.RankedTensorType(keys.type).element_type)
    return _parallel_generic([idx], out, _dims_of(idx), lambda blk: _key_at(keys, blk.arguments[0], dim))


def _key_at(keys, index, dim):
    """Inside a parallel generic over the keys' dims: the key at this point with ``dim`` = ``index``."""
    at = [linalg.IndexOp(d).result for d in range(ir.RankedTensorType(keys.type).rank)]
    at[dim] = arith.index_cast(ir.IndexType.get(), index)
    return tensor.extract(keys, at)

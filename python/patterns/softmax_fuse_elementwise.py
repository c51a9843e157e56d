"""Softmax and normalizations: decompose, and fuse their elementwise neighbours.

Aggressive fusion may put a normalization and the elementwise ops around it
into one dispatch, where every full-size tensor produced and read again is a
buffer the size of a reduction row (workgroup memory on GPUs). After these
patterns a normalization produces only its statistics and its final result;
everything elementwise is recomputed inside the generics that need it.

* ``decompose_softmax``: ``linalg.softmax`` becomes three generics (max, sum
  of ``exp(x - max)``, final), then its neighbours fuse as below.
* ``fuse_consumers_into_normalization``: a chain of elementwise consumers of
  a normalization final merges into it, one use at a time.
* ``recompute_producer_in_normalization``: an elementwise producer read only
  by a normalization's reductions and final (``MAX_RECOMPUTE`` uses at most) is
  recomputed in each and erased, up the producer chain.

The vocabulary and the preconditions are in
``softmax_fuse_elementwise_generics``; the IR written in
``softmax_fuse_elementwise_build``; the proofs in
docs/passes/softmax-fuse-elementwise.md.
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .ir_utils import defining_op
from .softmax_fuse_elementwise_build import decompose_softmax_ir, inline_producers, redirect_dims
from .softmax_fuse_elementwise_generics import as_generic, consumer, normalization_problem, recompute_problem

_FLOATS = (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)


def fuse_consumer_chain(rewriter, n):
    """Merge the elementwise consumer chain into normalization final ``n``.

    Returns (the last Generic, number merged, why the chain stopped).
    """
    merged = 0
    while True:
        found, why = consumer(n)
        if found is None:
            return n, merged, why
        c, index = found
        redirect_dims(rewriter, n)
        new = inline_producers(rewriter, c, {index: n})
        rewriter.erase_op(n.op)
        n, merged = new, merged + 1


def recompute_producers(rewriter, start) -> int:
    """Recompute ``start`` (a Generic) and then its producers, as far as allowed."""
    done = 0
    pending = [start]  # every entry is a live op: entries about to be replaced are dropped first
    while pending:
        p = pending.pop()
        users, _ = recompute_problem(p)
        if users is None:
            continue
        replaced = [g.op for g, _ in users]
        pending = [q for q in pending if all(q.op != op for op in replaced)]
        redirect_dims(rewriter, p)
        new = [inline_producers(rewriter, g, {i: p for i in indices}) for g, indices in users]
        rewriter.erase_op(p.op)
        done += 1
        for g in new:  # p's operands are read by these now: their producers may follow
            for v in g.inputs:
                q = as_generic(defining_op(v))
                if q is not None and all(q.op != w.op for w in pending):
                    pending.append(q)
    return done


def softmax_problem(op) -> str | None:
    """Why a ``linalg.softmax`` is not decomposed, or None."""
    if len(op.results) != 1:
        return "softmax with buffer semantics"
    x, init = op.operands[0], op.operands[1]
    xt = x.type
    if not isinstance(xt, ir.RankedTensorType) or not isinstance(init.type, ir.RankedTensorType):
        return "input or init is not a ranked tensor"
    et = xt.element_type
    if not isinstance(et, _FLOATS):
        return f"element type {et} is not f16, bf16, f32 or f64"
    if init.type.element_type != et or op.results[0].type.element_type != et:
        return "input, init and result element types differ"
    d = ir.IntegerAttr(op.attributes["dimension"]).value
    if not 0 <= d < xt.rank:
        return f"dimension {d} is out of range for rank {xt.rank}"
    return None


@pattern("linalg.softmax")
def decompose_softmax(op, rewriter):
    op = op.operation
    why = softmax_problem(op)
    if why:
        return rewriter.fail(why)
    x, init = op.operands[0], op.operands[1]
    d = ir.IntegerAttr(op.attributes["dimension"]).value
    with rewriter.ip, op.location:
        final = decompose_softmax_ir(x, init, d, op.results[0].type)
    rewriter.replace_op(op, [final.result])
    fuse_consumer_chain(rewriter, as_generic(final.operation))
    producer = as_generic(defining_op(x))
    if producer is not None:
        recompute_producers(rewriter, producer)
    return True


@pattern("linalg.generic")
def fuse_consumers_into_normalization(op, rewriter):
    n = as_generic(op.operation)
    why = normalization_problem(n)
    if why:
        return rewriter.fail(f"not a normalization final: {why}")
    _, merged, why = fuse_consumer_chain(rewriter, n)
    if not merged:
        return rewriter.fail(f"no consumer to merge: {why}")
    return True


@pattern("linalg.generic")
def recompute_producer_in_normalization(op, rewriter):
    p = as_generic(op.operation)
    users, why = recompute_problem(p)
    if users is None:
        return rewriter.fail(f"not recomputed: {why}")
    recompute_producers(rewriter, p)
    return True

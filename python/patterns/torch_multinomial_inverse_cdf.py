"""Patterns on ``torch.aten.multinomial``: sampling with replacement as an inverse CDF in tensor ops.

torch-mlir lowers ``multinomial`` to ``scf.for`` loops that IREE runs on the
host: a dynamic batch does not compile, static batches draw out of range or do
not compile, one row is right but slow (the figures and the why: docs/passes/).

``multinomial_inverse_cdf`` writes the same distribution in ops IREE
dispatches: per row the cumulative sums ``cdf``, their last the total ``T``,
``n`` uniform draws ``u`` in [0, 1) (``aten.uniform``, as ``torch.rand``),
and per draw the count of ``cdf[k] <= u * T``: the least ``k`` with
``u * T < cdf[k]``, never a category of weight 0. A count past the last
such category (rounding) is clamped to it. f16 and bf16 sum in f32 (op math);
counts are si32 (GPU codegen does not distribute an si64 sum), then si64.

Left alone, with the reason: an unranked operand or result; an input not of
rank 1 or 2, not a float, or with no categories; a result not si64 of a shape
holding ``num_samples`` a row; ``num_samples`` not a constant above 0;
``replacement`` not a constant, or false with more than one draw; a generator
given. PyTorch's errors on invalid weights (negative, inf, NaN, a zero row)
are not kept.
"""

from __future__ import annotations

from ..authoring import pattern
from .torch_ir import (
    FLOATS,
    SCALAR_TYPE,
    VTensor,
    bool_constant,
    compatible,
    constant_bool,
    constant_int,
    convert,
    create,
    dim_size,
    float_constant,
    int_constant,
    int_list,
    is_none,
    none_constant,
    ranked_refusal,
    static_info_cast,
    vtensor,
)

OPMATH = {"f16": "f32", "bf16": "f32", "f32": "f32", "f64": "f64"}
# Counts and indices in si32, widened to si64 at the end: IREE's GPU codegen fails to distribute an i64 sum
# ("failed to distribute", cuda); a row has fewer than 2^31 categories (torch takes at most 2^24).
COUNT = "si32"


def refusal(pt: VTensor | None, rt: VTensor | None, n: int | None, replacement: bool | None) -> str | None:
    """Why a ``multinomial`` of these types, sample count and replacement flag is left alone."""
    why = ranked_refusal("an operand or the result", (pt, rt))
    if why is not None:
        return why
    if pt.rank not in (1, 2):
        return f"an input of rank {pt.rank} (torch takes rank 1 or 2)"
    if pt.dtype not in FLOATS:
        return f"a {pt.dtype} input: not f16, bf16, f32 nor f64"
    if rt.dtype != "si64" or rt.rank != pt.rank:
        return f"a {rt.dtype} result of rank {rt.rank}: not si64 of the input's rank"
    if pt.sizes[-1] == 0:
        return "no categories (torch raises)"
    if n is None or n <= 0:
        return "num_samples not a constant above 0"
    if not compatible(rt, VTensor((*pt.sizes[:-1], n), "si64")):
        return f"a result {list(rt.sizes)} that cannot hold {n} samples a row of {list(pt.sizes[:-1])} rows"
    if replacement is None:
        return "replacement not a constant"
    if not replacement and n > 1:
        return "sampling without replacement (more than one sample a row)"
    return None


def reduce_last(name: str, value, t: VTensor, *extra):
    """``name`` over the last dim of ``value`` (type ``t``), kept as a size-1 dim."""
    keep = t.with_sizes([*t.sizes[:-1], 1])
    dims = int_list([t.rank - 1])
    return create(name, [keep.ir_type()], [value, dims, bool_constant(True), *extra]).result, keep


def last_positive(p, pt: VTensor):
    """Per row, the index of the last category of weight above 0 (0 where none is), ``COUNT`` ``[..., 1]``."""
    ids_t = VTensor((pt.sizes[-1],), COUNT)
    code = int_constant(SCALAR_TYPE[COUNT])
    nones = [none_constant() for _ in range(3)]
    ids = create("torch.aten.arange", [ids_t.ir_type()], [dim_size(p, pt, pt.rank - 1), code, *nones]).result
    positive = create("torch.aten.gt.Scalar", [pt.with_dtype("i1").ir_type()], [p, float_constant(0.0)]).result
    where_t = pt.with_dtype(COUNT)
    where = create("torch.aten.where.ScalarOther", [where_t.ir_type()], [positive, ids, int_constant(0)]).result
    return reduce_last("torch.aten.amax", where, where_t)[0]


def uniform_draws(p, pt: VTensor, n: int):
    """``n`` draws in [0, 1) a row, of ``p``'s dtype: ``aten.uniform`` on an empty ``[..., n]``."""
    ut = pt.with_sizes([*pt.sizes[:-1], n])
    shape = int_list([dim_size(p, pt, d) for d in range(pt.rank - 1)] + [n])
    dtype = int_constant(SCALAR_TYPE[pt.dtype])
    empty = create(
        "torch.aten.empty.memory_format", [ut.ir_type()], [shape, dtype, *[none_constant() for _ in range(4)]]
    ).result
    u = create(
        "torch.aten.uniform", [ut.ir_type()], [empty, float_constant(0.0), float_constant(1.0), none_constant()]
    ).result
    return u, ut


def build_samples(x, xt: VTensor, n: int, rt: VTensor):
    """``n`` categories a row drawn with replacement by the weights ``x`` (type ``xt``), typed ``rt``."""
    pt = xt.with_dtype(OPMATH[xt.dtype])
    p = convert(x, xt, pt.dtype)
    last = pt.rank - 1
    cdf = create("torch.aten.cumsum", [pt.ir_type()], [p, int_constant(last), none_constant()]).result
    # The total is cdf's last entry, not a sum of its own (another order, other rounding); u * total may still
    # round up to it, which the clamp to the last category of weight above 0 takes care of.
    total_t = pt.with_sizes([*pt.sizes[:-1], 1])
    total = create(
        "torch.aten.slice.Tensor",
        [total_t.ir_type()],
        [cdf, int_constant(last), int_constant(-1), none_constant(), int_constant(1)],
    ).result
    u, ut = uniform_draws(p, pt, n)
    threshold = create("torch.aten.mul.Tensor", [ut.ir_type()], [u, total]).result
    # [..., 1, K] against [..., n, 1]: per draw, how many categories' cdf lie at or below its threshold.
    cdf_t = pt.with_sizes([*pt.sizes[:-1], 1, pt.sizes[-1]])
    cdf_b = create("torch.aten.unsqueeze", [cdf_t.ir_type()], [cdf, int_constant(last)]).result
    thr_t = ut.with_sizes([*ut.sizes, 1])
    thr_b = create("torch.aten.unsqueeze", [thr_t.ir_type()], [threshold, int_constant(last + 1)]).result
    below_t = VTensor((*ut.sizes, pt.sizes[-1]), "i1")
    below = create("torch.aten.le.Tensor", [below_t.ir_type()], [cdf_b, thr_b]).result
    st = ut.with_dtype(COUNT)
    count = create(
        "torch.aten.sum.dim_IntList",
        [st.ir_type()],
        [below, int_list([last + 1]), bool_constant(False), int_constant(SCALAR_TYPE[COUNT])],
    ).result
    samples = create("torch.aten.minimum", [st.ir_type()], [count, last_positive(p, pt)]).result
    samples = convert(samples, st, "si64")
    return static_info_cast(samples, st.with_dtype("si64"), rt)


@pattern("torch.aten.multinomial")
def multinomial_inverse_cdf(op, rewriter):
    op = op.operation
    x, num_samples, replacement, generator = op.operands
    if not is_none(generator):
        return rewriter.fail("a generator given")
    xt, rt = vtensor(x.type), vtensor(op.results[0].type)
    n = constant_int(num_samples)
    why = refusal(xt, rt, n, constant_bool(replacement))
    if why is not None:
        return rewriter.fail(why)
    with rewriter.ip, op.location:
        value = build_samples(x, xt, n, rt)
    rewriter.replace_op(op, [value])
    return True

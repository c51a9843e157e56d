"""Reshapes folded into dispatch bindings: collapse_shape into stores, expand_shape into loads.

``fold_collapse_shape_into_store``: a ``tensor.collapse_shape`` stored with
``iree_tensor_ext.dispatch.tensor.store`` into a ``hal.interface.binding.subspan``
is stored as its source into a second subspan of the same binding, typed so
that each collapsed dim is split again (``Bk`` into ``Bk / inner`` and the
group's inner dims). That names the same addresses only when the store writes
whole rows of each group and the split keeps every outer dim's stride;
``_store_fold`` proves it or says why not. A collapse it cannot fold gets a
``linalg.copy`` before its store (``copy_unfoldable_collapse_before_store``), which keeps
IREE's own fold, wrong on some of these, away.

``fold_expand_shape_into_load`` is the mirror: ``tensor.expand_shape`` of a
load of a whole binding loads a subspan typed with the expanded shape.

docs/passes/fold-collapse-shape-into-store.md has the address argument and
the comparison with IREE's C++ ``iree-codegen-fold-reshape-into-interface-tensor``.
"""

from __future__ import annotations

import functools
import re

from iree.compiler import ir
from iree.compiler.dialects import affine, arith, tensor

from ..authoring import pattern
from .ir_utils import (
    DYNAMIC,
    constant_int,
    defined_before,
    defining_op,
    linalg_dialect,
    operand_segments,
    reassociation,
    same_mixed,
    shape,
)

# A dispatch tensor of a plain ranked tensor: access, "AxBx..." dims, element type.
_DISPATCH_TENSOR = re.compile(
    r"^!iree_tensor_ext\.dispatch\.tensor<(readonly|writeonly|readwrite):tensor<((?:(?:\d+|\?)x)*)([^,<>x]+)>>$"
)
SUBSPAN = "hal.interface.binding.subspan"
STORE = "iree_tensor_ext.dispatch.tensor.store"
LOAD = "iree_tensor_ext.dispatch.tensor.load"


# --------------------------------------------------------------------------
# Reading the ops. A size/offset is "mixed": an int, or an index Value.
# --------------------------------------------------------------------------


def _constant(value):
    """The int a Value is a constant of, else the Value."""
    c = constant_int(value)
    return value if c is None else c


def _groups(op, segments):
    """Operands split by segment sizes."""
    operands, out, at = list(op.operands), [], 0
    for n in segments:
        out.append(operands[at : at + n])
        at += n
    return out


def _mixed(static, dynamic):
    dynamic = iter(dynamic)
    return [_constant(next(dynamic)) if s == DYNAMIC else s for s in static]


def _static(op, name):
    return list(ir.DenseI64ArrayAttr(op.attributes[name]))


def _binding(subspan):
    """(access, static shape) of a subspan's dispatch tensor type; None unless
    it binds a plain ranked tensor (no encoding)."""
    return _binding_of_type(subspan.results[0].type)


@functools.lru_cache(maxsize=256)
def _binding_of_type(t):
    # Printing a type costs more than the rest of the analysis; dispatches repeat types.
    m = _DISPATCH_TENSOR.match(str(t))
    if not m:
        return None
    dims = m.group(2)[:-1].split("x") if m.group(2) else []
    return m.group(1), tuple(DYNAMIC if d == "?" else int(d) for d in dims)


# Parsing a type costs more than the rest of a rewrite, and dispatches repeat
# types; an element type is tied to its context, so the key is per context.
@functools.lru_cache(maxsize=256)
def _dispatch_tensor_type(access, shape, element_type):
    dims = "".join("?x" if d == DYNAMIC else f"{d}x" for d in shape)
    return ir.Type.parse(
        f"!iree_tensor_ext.dispatch.tensor<{access}:tensor<{dims}{element_type}>>", element_type.context
    )


def _binding_shape(subspan, static_shape):
    if DYNAMIC not in static_shape:
        return list(static_shape)
    _, dims = _groups(subspan, operand_segments(subspan))
    return _mixed(static_shape, dims)


def _slice(op, first_dynamic_segment):
    """(offsets, sizes, strides) of a dispatch.tensor load/store, mixed."""
    static = [_static(op, "static_offsets"), _static(op, "static_sizes"), _static(op, "static_strides")]
    if not any(DYNAMIC in s for s in static):
        return static
    groups = _groups(op, operand_segments(op))[first_dynamic_segment : first_dynamic_segment + 3]
    return [_mixed(s, d) for s, d in zip(static, groups)]


# --------------------------------------------------------------------------
# Proofs
# --------------------------------------------------------------------------


def _multiple_of(v, n: int, depth: int = 8) -> bool:
    """Whether index ``v`` is provably a multiple of ``n`` (n > 0)."""
    if isinstance(v, int):
        return v % n == 0
    if n == 1:
        return True
    op = defining_op(v)
    if op is None or depth == 0:
        return False
    args = [_constant(x) for x in op.operands]
    if op.name == "arith.muli":
        return any(_multiple_of(a, n, depth - 1) for a in args)
    if op.name in ("arith.addi", "arith.subi"):
        return all(_multiple_of(a, n, depth - 1) for a in args)
    if op.name == "affine.apply":
        amap = ir.AffineMapAttr(op.attributes["map"]).value
        if len(amap.results) == 1:
            return _expr_multiple_of(amap.results[0], args, amap.n_dims, n, depth - 1)
    return False


def _expr_multiple_of(e, args, n_dims, n, depth) -> bool:
    if isinstance(e, ir.AffineConstantExpr):
        return e.value % n == 0
    if isinstance(e, ir.AffineDimExpr):
        return _multiple_of(args[e.position], n, depth)
    if isinstance(e, ir.AffineSymbolExpr):
        return _multiple_of(args[n_dims + e.position], n, depth)
    if isinstance(e, ir.AffineMulExpr):
        return any(_expr_multiple_of(x, args, n_dims, n, depth) for x in (e.lhs, e.rhs))
    if isinstance(e, ir.AffineAddExpr):
        return all(_expr_multiple_of(x, args, n_dims, n, depth) for x in (e.lhs, e.rhs))
    return False


def _kept_dims(sizes, value_shape):
    """For each value dim, the store dim it fills; None if the sizes do not
    match a rank reduction of the value (the dropped dims have size 1)."""
    kept, j = [], 0
    for k, size in enumerate(sizes):
        if j < len(value_shape) and (size == value_shape[j] if isinstance(size, int) else value_shape[j] == DYNAMIC):
            kept.append(k)
            j += 1
        elif size != 1:
            return None
    return kept if j == len(value_shape) else None


# --------------------------------------------------------------------------
# Building (at the current insertion point)
# --------------------------------------------------------------------------


def _index(v):
    return arith.constant(ir.IndexType.get(), v) if isinstance(v, int) else v


def _floordiv(a, n):
    """``a floordiv n``: n is an int or a Value."""
    if isinstance(a, int) and (a == 0 or isinstance(n, int)):
        return 0 if a == 0 else a // n
    if isinstance(n, int):
        if n == 1:
            return a
        expr = ir.AffineExpr.get_floor_div(ir.AffineSymbolExpr.get(0), ir.AffineConstantExpr.get(n))
        return affine.apply(ir.AffineMap.get(0, 1, [expr]), [a])
    expr = ir.AffineExpr.get_floor_div(ir.AffineSymbolExpr.get(0), ir.AffineSymbolExpr.get(1))
    return affine.apply(ir.AffineMap.get(0, 2, [expr]), [_index(a), n])


def _product(values):
    out = 1
    for v in values:
        if isinstance(v, int) and isinstance(out, int):
            out *= v
        elif same_mixed(out, 1) or same_mixed(v, 1):
            out = v if same_mixed(out, 1) else out
        else:
            expr = ir.AffineSymbolExpr.get(0) * ir.AffineSymbolExpr.get(1)
            out = affine.apply(ir.AffineMap.get(0, 2, [expr]), [_index(out), _index(v)])
    return out


def _split(mixed):
    """(static array with DYNAMIC, dynamic Values) of a mixed list."""
    return [DYNAMIC if not isinstance(v, int) else v for v in mixed], [v for v in mixed if not isinstance(v, int)]


def _new_subspan(subspan, access, shape, element_type):
    """A subspan of the same binding typed ``access:tensor<shape>``."""
    static, dynamic = _split(shape)
    result = _dispatch_tensor_type(access, tuple(static), element_type)
    byte_offset, _ = _groups(subspan, operand_segments(subspan))
    attrs = {name: subspan.attributes[name] for name in subspan.attributes}
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([len(byte_offset), len(dynamic)])
    new = ir.Operation.create(
        SUBSPAN, results=[result], operands=[*byte_offset, *dynamic], attributes=attrs, loc=subspan.location
    )
    return new.results[0], dynamic


def _slice_operands(offsets, sizes, strides):
    (so, do), (sz, dz), (st, dt) = _split(offsets), _split(sizes), _split(strides)
    attrs = {
        "static_offsets": ir.DenseI64ArrayAttr.get(so),
        "static_sizes": ir.DenseI64ArrayAttr.get(sz),
        "static_strides": ir.DenseI64ArrayAttr.get(st),
    }
    return [do, dz, dt], attrs


# --------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------


def _expand_store_dim(k, group, src_shape, binding, offset, size, stride):
    """The store dim ``k`` holding ``group`` of the source, as source dims.

    Returns (binding extents, offsets, sizes) to build, as thunks of mixed
    values, or a reason string when the addresses cannot be proven equal.
    """
    if not same_mixed(stride, 1):
        return "a collapsed store dim has a non-unit stride"
    dims = [src_shape[i] for i in group]
    dynamic = [i for i, d in enumerate(dims) if d == DYNAMIC]
    if len(dynamic) > 1:
        return "a collapsed group has more than one dynamic dim"
    static_product = 1
    for d in dims:
        static_product *= 1 if d == DYNAMIC else d
    inner_static = dynamic == [] or dynamic == [0]
    inner = 1
    for d in dims[1:]:
        inner *= 1 if d == DYNAMIC else d
    full = same_mixed(offset, 0) and same_mixed(size, binding[k])
    if not same_mixed(offset, 0) and not (inner_static and _multiple_of(offset, inner)):
        return "the store's offset on a collapsed dim is not provably a multiple of the inner extent"
    outer_strides_matter = any(not same_mixed(b, 1) for b in binding[:k])
    if (
        outer_strides_matter
        and not full
        and not (inner_static and isinstance(binding[k], int) and binding[k] % inner == 0)
    ):
        return "the binding extent of a collapsed dim is not provably a multiple of the inner extent"

    if not full and not inner_static:
        # The new outer extent would be Bk floordiv (the group's inner
        # product), which is a division by zero when a dynamic dim is 0.
        return (
            "the binding extent of a collapsed dim would be divided by a dynamic inner extent (zero when that dim is 0)"
        )

    def build():
        sizes = list(dims)
        if dynamic:
            sizes[dynamic[0]] = _floordiv(size, static_product)
        inner_v = inner if inner_static else _product(sizes[1:])
        first = sizes[0] if full else _floordiv(binding[k], inner_v)
        return [first, *sizes[1:]], [_floordiv(offset, inner_v), *[0] * (len(dims) - 1)], sizes

    return build


class _Unprovable(str):
    """A reason the fold would not provably keep the addresses (as opposed to
    a store that simply is not of the folded form)."""


def _store_fold(op):
    """What folding the store's collapse takes: a reason string when it
    cannot be done, else (collapse, subspan, access, bound, plan per dim)."""
    value, target = op.operands[0], op.operands[1]
    collapse, subspan = defining_op(value), defining_op(target)
    if collapse is None or collapse.name != "tensor.collapse_shape":
        return "the stored value is not a tensor.collapse_shape"
    if subspan is None or subspan.name != SUBSPAN:
        return "the store's target is not a hal.interface.binding.subspan"
    parsed = _binding(subspan)
    if parsed is None:
        return "the binding is not a dispatch tensor of a plain ranked tensor"
    src_shape, value_shape = shape(collapse.operands[0].type), shape(value.type)
    if not value_shape:
        return "a collapse to rank 0 is left alone"
    if 0 in src_shape:
        return "a collapse of a zero-extent tensor (nothing is stored) is left alone"
    binding = _binding_shape(subspan, parsed[1])
    offsets, sizes, strides = _slice(op, 3)
    kept = _kept_dims(sizes, value_shape)
    if kept is None:
        return "the store's sizes do not match the stored value"
    plan = {}  # store dim -> builder for a collapsed group
    for k, group in zip(kept, reassociation(collapse)):
        if len(group) > 1:
            built = _expand_store_dim(k, group, src_shape, binding, offsets[k], sizes[k], strides[k])
            if isinstance(built, str):
                return _Unprovable(built)
            plan[k] = built
    return collapse, subspan, parsed, (binding, offsets, sizes, strides), plan


@pattern(STORE)
def fold_collapse_shape_into_store(op, rewriter):
    op = op.operation
    fold = _store_fold(op)
    if isinstance(fold, str):
        return rewriter.fail(fold)
    collapse, subspan, (access, _), (binding, offsets, sizes, strides), plan = fold
    with rewriter.ip, op.location:
        new_binding, new_offsets, new_sizes, new_strides = [], [], [], []
        for k in range(len(binding)):
            if k in plan:
                extents, offs, szs = plan[k]()
                new_binding += extents
                new_offsets += offs
                new_sizes += szs
                new_strides += [1] * len(extents)
            else:
                new_binding.append(binding[k])
                new_offsets.append(offsets[k])
                new_sizes.append(sizes[k])
                new_strides.append(strides[k])
        new_target, target_dims = _new_subspan(subspan, access, new_binding, collapse.operands[0].type.element_type)
        dynamic, attrs = _slice_operands(new_offsets, new_sizes, new_strides)
        attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, 1, len(target_dims), *map(len, dynamic)])
        ir.Operation.create(
            STORE,
            results=[],
            operands=[collapse.operands[0], new_target, *target_dims, *sum(dynamic, [])],
            attributes=attrs,
        )
    rewriter.erase_op(op)
    return True


@pattern(STORE)
def copy_unfoldable_collapse_before_store(op, rewriter):
    """A collapse whose fold cannot be proven gets a ``linalg.copy`` before the
    store, so that IREE's C++ fold, which folds some of these with addresses
    that do not match the buffer, never sees a collapse there."""
    op = op.operation
    fold = _store_fold(op)
    if not isinstance(fold, _Unprovable):
        return rewriter.fail("the fold is provable, or the store is not of the folded form")
    value = op.operands[0]
    t = value.type
    with rewriter.ip, op.location:
        dims = [tensor.dim(value, arith.constant(ir.IndexType.get(), i)) for i in range(t.rank) if t.is_dynamic_dim(i)]
        empty = tensor.empty(_shape_mixed(t, dims), t.element_type)
        copy = linalg_dialect().copy(value, outs=[empty])
        attrs = {name: op.attributes[name] for name in op.attributes}
        ir.Operation.create(STORE, results=[], operands=[copy, *list(op.operands)[1:]], attributes=attrs)
    rewriter.erase_op(op)
    return True


def _shape_mixed(t, dims):
    dims = iter(dims)
    return [next(dims) if t.is_dynamic_dim(i) else t.get_dim_size(i) for i in range(t.rank)]


@pattern("tensor.expand_shape")
def fold_expand_shape_into_load(op, rewriter):
    op = op.operation
    load = defining_op(op.operands[0])
    if load is None or load.name != LOAD:
        return rewriter.fail("the expanded value is not a dispatch.tensor.load")
    subspan = defining_op(load.operands[0])
    if subspan is None or subspan.name != SUBSPAN:
        return rewriter.fail("the load's source is not a hal.interface.binding.subspan")
    parsed = _binding(subspan)
    if parsed is None:
        return rewriter.fail("the binding is not a dispatch tensor of a plain ranked tensor")
    access, static_shape = parsed
    offsets, sizes, strides = _slice(load, 2)
    binding = _binding_shape(subspan, static_shape)
    whole = (
        len(sizes) == load.results[0].type.rank
        and all(same_mixed(o, 0) for o in offsets)
        and all(same_mixed(s, 1) for s in strides)
        and all(same_mixed(s, b) for s, b in zip(sizes, binding))
    )
    if not whole:
        return rewriter.fail("the load does not read the whole binding")
    result_type = op.results[0].type
    expanded = _mixed(_static(op, "static_output_shape"), list(op.operands[1:]))
    # The new load reads where the old one did: later, a readwrite binding
    # may hold what the dispatch stored into it since.
    if not all(defined_before(v, load) for v in op.operands[1:]):
        return rewriter.fail("the expanded sizes are defined after the load")
    with ir.InsertionPoint(load), op.location:
        new_source, dims = _new_subspan(subspan, access, expanded, result_type.element_type)
        n = len(expanded)
        dynamic, attrs = _slice_operands([0] * n, expanded, [1] * n)
        attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, len(dims), *map(len, dynamic)])
        new = ir.Operation.create(
            LOAD, results=[result_type], operands=[new_source, *dims, *sum(dynamic, [])], attributes=attrs
        )
    rewriter.replace_op(op, [new.results[0]])
    return True

"""Matching a sort that is a top-k: its keys, order, iota and the leading slices that read it.

``match_sort`` reads the IR and builds nothing: it returns a ``SortMatch`` or
the reason the sort is not a top-k (each reason has a negative lit case in
test/lit/passes/sort-slice-to-topk/preconditions.mlir).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from iree.compiler import ir

from ..ir_utils import DYNAMIC, defining_op, operand_segments, reassociation, uses
from .cost import INT32_MAX

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


@dataclass(frozen=True)
class SortMatch:
    """A sort that is a top-k: ``keys`` sorted along ``dim`` in ``order`` ('desc' or 'asc'), read through
    ``slices`` ((result index, user) pairs) of at most ``k`` along ``dim`` (``width``: None when dynamic)."""

    op: Any
    keys: Any
    dim: int
    order: str
    index_type: Any  # the iota's element type; None when the sort has no iota
    width: int | None
    k: int
    slices: tuple

    @property
    def want_values(self) -> bool:
        return any(i == 0 for i, _ in self.slices)

    @property
    def key_bits(self) -> int:
        return key_bits(ir.RankedTensorType(self.keys.type).element_type)


def is_float_key(t) -> bool:
    return any(isinstance(t, c) for c in (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type))


def key_bits(elem) -> int:
    if isinstance(elem, ir.IntegerType):
        return elem.width
    return 64 if isinstance(elem, ir.F64Type) else 32 if isinstance(elem, ir.F32Type) else 16


def comparator_order(op, allow_unordered: bool):
    """('desc' or 'asc', None) when the comparator is one accepted compare of the keys; else (None, why)."""
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


def is_iota(value, dim: int) -> bool:
    """``value`` holds its own index along ``dim``, through unit-dimension expand_shapes
    (IREE drops unit dimensions of the iota when the batch is 1, then expands back)."""
    g = defining_op(value)
    if g is not None and g.name == "tensor.expand_shape":
        out = ir.RankedTensorType(value.type)
        for src_dim, group in enumerate(reassociation(g)):
            if dim in group:
                if any(out.is_dynamic_dim(d) or out.get_dim_size(d) != 1 for d in group if d != dim):
                    return False
                return is_iota(g.operands[0], src_dim)
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


def leading_slice_size(slice_op, source, dim: int):
    """k when ``slice_op`` reads ``source``[0, k) with stride 1 along ``dim``, else None."""
    if slice_op.name != "tensor.extract_slice" or slice_op.operands[0] != source:
        return None
    offs = list(ir.DenseI64ArrayAttr(slice_op.attributes["static_offsets"]))
    sizes = list(ir.DenseI64ArrayAttr(slice_op.attributes["static_sizes"]))
    strides = list(ir.DenseI64ArrayAttr(slice_op.attributes["static_strides"]))
    if offs[dim] != 0 or strides[dim] != 1 or sizes[dim] in (DYNAMIC, 0):
        return None
    return sizes[dim]


def _index_operand_problem(op, kt, dim: int) -> str | None:
    """Why the sort's second operand is not an iota of indices the forms can write, or None."""
    it = ir.RankedTensorType(op.operands[1].type)
    width = ir.IntegerType(it.element_type).width if isinstance(it.element_type, ir.IntegerType) else 0
    if width not in (32, 64):
        return "indices are not i32 or i64"
    if not is_iota(op.operands[1], dim):
        return "the second operand is not an iota along the sorted dimension"
    if width == 64 and (kt.is_dynamic_dim(dim) or kt.get_dim_size(dim) > INT32_MAX + 1):
        return "i64 indices over a width not known to fit in i32"
    return None


def _slices(op, dim: int, width: int | None):
    """((result index, user) pairs, their k along ``dim``) for every use; a whole use is k = width.
    A reason instead when a use is not a leading slice and the width is dynamic."""
    slices, ks = [], []
    for i, result in enumerate(op.results):
        for user, _ in uses(result):
            k = leading_slice_size(user, result, dim)
            if k is None and width is None:
                return f"result {i} is used other than through a leading slice, and the sorted dimension is dynamic"
            slices.append((i, user))
            ks.append(width if k is None else k)
    return slices, ks


def match_sort(op, allow_unordered_ties: bool) -> SortMatch | str:
    """The sort as a top-k, or why it is not one."""
    n = len(op.results)
    if n not in (1, 2) or len(op.operands) != n:
        return "not a tensor sort of keys and an optional iota"
    if operand_segments(op)[0] != 0:
        return "the sort has ins operands"
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    keys = op.operands[0]
    kt = ir.RankedTensorType(keys.type)
    if not is_float_key(kt.element_type) and not isinstance(kt.element_type, ir.IntegerType):
        return "keys are neither floats nor integers"
    order, why = comparator_order(op, allow_unordered_ties)
    if order is None:
        return why
    if n == 2 and (why := _index_operand_problem(op, kt, dim)) is not None:
        return why
    width = None if kt.is_dynamic_dim(dim) else kt.get_dim_size(dim)
    found = _slices(op, dim, width)
    if isinstance(found, str):
        return found
    slices, ks = found
    if not slices:
        return "no result is used"
    if width is not None and max(ks) > width:
        return "a slice is longer than the sorted dimension"
    index_type = ir.RankedTensorType(op.operands[1].type).element_type if n == 2 else None
    return SortMatch(op, keys, dim, order, index_type, width, max(ks), tuple(slices))

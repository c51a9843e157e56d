"""Facts about torch-dialect IR (torch-mlir's ``!torch.*`` types and constants) that the torch patterns ask.

The wheel's bindings register the torch dialect but give it no Python classes:
types are read from their printed form (``!torch.vtensor<[2,?],si64>``) and
ops are built with ``ir.Operation.create``. Dtypes are torch-mlir's spellings
(``i1``, ``ui8``, ``si64``, ``f32``, ...); promotion follows PyTorch's
``torch.promote_types`` and ``torch.result_type`` for those dtypes alone, and
answers None for any other (complex, float8, wider unsigned), so a pattern
that needs it refuses what it does not know.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from iree.compiler import ir

from .ir_utils import defining_op

INT64_MAX = 9223372036854775807  # what torch exports as the open end of a slice (x[1:])

# c10::ScalarType codes: what torch.prims.convert_element_type and aten.to.dtype take as the dtype.
SCALAR_TYPE = {"ui8": 0, "si8": 1, "si16": 2, "si32": 3, "si64": 4, "f16": 5, "f32": 6, "f64": 7, "i1": 11, "bf16": 15}
INTEGERS = ("ui8", "si8", "si16", "si32", "si64")
FLOATS = ("f16", "bf16", "f32", "f64")
_WIDTH = {"ui8": 8, "si8": 8, "si16": 16, "si32": 32, "si64": 64, "f16": 16, "bf16": 16, "f32": 32, "f64": 64}
_VTENSOR = re.compile(r"^!torch\.vtensor<\[([^\]]*)\],(.+)>$")


@dataclass(frozen=True)
class VTensor:
    """A ranked ``!torch.vtensor``: its sizes (None where dynamic) and its dtype."""

    sizes: tuple[int | None, ...]
    dtype: str

    @property
    def rank(self) -> int:
        return len(self.sizes)

    def with_sizes(self, sizes) -> VTensor:
        return VTensor(tuple(sizes), self.dtype)

    def with_dtype(self, dtype: str) -> VTensor:
        return VTensor(self.sizes, dtype)

    def ir_type(self) -> ir.Type:
        return ir.Type.parse(
            f"!torch.vtensor<[{','.join('?' if s is None else str(s) for s in self.sizes)}],{self.dtype}>"
        )


def vtensor(t) -> VTensor | None:
    """The ranked ``!torch.vtensor`` type ``t`` as a VTensor; None for anything else (unranked, ``!torch.int``)."""
    m = _VTENSOR.match(str(t))
    if m is None:
        return None
    sizes = tuple(None if s.strip() == "?" else int(s) for s in m.group(1).split(",") if s.strip())
    return VTensor(sizes, m.group(2))


def ranked_refusal(subject: str, types, dim: int | None = None, zero_d: str = "torch raises") -> str | None:
    """Why a torch pattern leaves its op alone, or None: a type in ``types`` (``vtensor``'s answers)
    that is not a ranked ``!torch.vtensor``, ``subject`` naming them; then, where the op takes a
    ``dim`` of the first, that type 0-d (``zero_d`` says why that is refused) or ``dim`` out of its range.
    The patterns' refusal texts, which the lit tests check, are written here once."""
    if any(t is None for t in types):
        return f"{subject} is not a ranked !torch.vtensor"
    if dim is None:
        return None
    rank = types[0].rank
    if rank == 0:
        return f"a 0-d input ({zero_d})"
    if not -rank <= dim < rank:
        return f"dim {dim} out of range for rank {rank} (torch raises)"
    return None


def compatible(a: VTensor, b: VTensor) -> bool:
    """Same dtype and rank, and no size static in both that differs: one may stand for the other."""
    if a.dtype != b.dtype or a.rank != b.rank:
        return False
    return all(x is None or y is None or x == y for x, y in zip(a.sizes, b.sizes))


# --------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------


def _constant(value, name: str):
    op = defining_op(value)
    return op.attributes["value"] if op is not None and op.name == name else None


def constant_int(value) -> int | None:
    """The integer a ``torch.constant.int`` defines, or None."""
    attr = _constant(value, "torch.constant.int")
    return ir.IntegerAttr(attr).value if attr is not None else None


def constant_bool(value) -> bool | None:
    """The boolean a ``torch.constant.bool`` defines, or None."""
    attr = _constant(value, "torch.constant.bool")
    return ir.BoolAttr(attr).value if attr is not None else None


def constant_number(value) -> int | float | None:
    """The number a ``torch.constant.int`` or ``torch.constant.float`` defines (a ``Scalar`` argument), or None."""
    attr = _constant(value, "torch.constant.float")
    if attr is not None:
        return ir.FloatAttr(attr).value
    return constant_int(value)


def constant_str(value) -> str | None:
    """The string a ``torch.constant.str`` defines, or None."""
    attr = _constant(value, "torch.constant.str")
    return ir.StringAttr(attr).value if attr is not None else None


def is_none(value) -> bool:
    """Whether ``value`` is ``torch.constant.none`` (an optional argument left out)."""
    op = defining_op(value)
    return op is not None and op.name == "torch.constant.none"


# --------------------------------------------------------------------------
# Promotion (PyTorch's, for the dtypes above)
# --------------------------------------------------------------------------


def promote(a: str | None, b: str | None) -> str | None:
    """``torch.promote_types`` of two dtypes; None where either is unknown here."""
    if a is None or b is None or not {a, b} <= set(SCALAR_TYPE):
        return None
    if a == b:
        return a
    if a == "i1" or b == "i1":
        return b if a == "i1" else a
    if (a in FLOATS) != (b in FLOATS):
        return a if a in FLOATS else b
    if {a, b} == {"f16", "bf16"}:
        return "f32"
    if {a, b} == {"ui8", "si8"}:
        return "si16"
    return max(a, b, key=_WIDTH.__getitem__)


def promote_all(dtypes) -> str | None:
    """``promote`` folded over ``dtypes`` (at least one)."""
    dtypes = list(dtypes)
    out = dtypes[0] if dtypes[0] in SCALAR_TYPE else None
    for d in dtypes[1:]:
        out = promote(out, d)
    return out


def result_type(operands: list[VTensor]) -> str | None:
    """``torch.result_type`` of tensor operands: 0-d tensors take part only where their category
    (bool < integer < float) is above the other operands' (an si32 tensor & a 0-d si64 is si32)."""
    dims = [t.dtype for t in operands if t.rank]
    zeros = [t.dtype for t in operands if not t.rank]
    if not dims or not zeros:
        return promote_all(dims or zeros)
    higher, lower = promote_all(dims), promote_all(zeros)
    if higher is None or lower is None:
        return None
    if higher in FLOATS:
        return higher
    if higher == "i1" or lower in FLOATS:
        return promote(higher, lower)
    return higher


# --------------------------------------------------------------------------
# Building (at the current insertion point and location)
# --------------------------------------------------------------------------


def create(name: str, results, operands, attributes=None) -> ir.Operation:
    """A torch op built generically: the bindings have no builders for the torch dialect."""
    return ir.Operation.create(name, results=list(results), operands=list(operands), attributes=attributes or {})


def int_constant(n: int):
    """``torch.constant.int n``."""
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), n)
    return create("torch.constant.int", [ir.Type.parse("!torch.int")], [], {"value": attr}).result


def float_constant(x: float):
    """``torch.constant.float x`` (an f64; an op taking it as a Scalar rounds it to the tensor's dtype)."""
    attr = ir.FloatAttr.get(ir.F64Type.get(), x)
    return create("torch.constant.float", [ir.Type.parse("!torch.float")], [], {"value": attr}).result


def bool_constant(b: bool):
    """``torch.constant.bool b``."""
    return create("torch.constant.bool", [ir.Type.parse("!torch.bool")], [], {"value": ir.BoolAttr.get(b)}).result


def none_constant():
    """``torch.constant.none`` (an optional argument left out)."""
    return create("torch.constant.none", [ir.Type.parse("!torch.none")], []).result


def int_list(values):
    """``torch.prim.ListConstruct`` of ``!torch.int`` values (ints become ``torch.constant.int``)."""
    items = [int_constant(v) if isinstance(v, int) else v for v in values]
    return create("torch.prim.ListConstruct", [ir.Type.parse("!torch.list<int>")], items).result


def convert(value, t: VTensor, dtype: str):
    """``value`` (of type ``t``) as ``dtype``, as torch converts (``torch.prims.convert_element_type``,
    what torch exports for ``.to``); ``value`` itself where it has that dtype already.

    Explicit, because torch-mlir's lowerings of ``cat`` and ``bitwise_and`` convert mixed
    operands without the source's signedness: a ui8 operand is sign-extended, and a si8 or
    ui8 result is refused; this conversion carries its source dtype."""
    if t.dtype == dtype:
        return value
    code = int_constant(SCALAR_TYPE[dtype])
    return create("torch.prims.convert_element_type", [t.with_dtype(dtype).ir_type()], [value, code]).result


def static_info_cast(value, t: VTensor, to: VTensor):
    """``value`` (of type ``t``) typed as ``to``, a compatible type: ``torch.tensor_static_info_cast``
    where they differ in what is static."""
    if t == to:
        return value
    return create("torch.tensor_static_info_cast", [to.ir_type()], [value]).result


def dim_size(value, t: VTensor, dim: int):
    """The size of ``value`` (of type ``t``) along ``dim`` as a ``!torch.int``: a constant where static,
    else ``torch.aten.size.int``."""
    if t.sizes[dim] is not None:
        return int_constant(t.sizes[dim])
    return create("torch.aten.size.int", [ir.Type.parse("!torch.int")], [value, int_constant(dim)]).result

"""A reshape of a tensor with no elements is an empty tensor of the target shape.

Root cause. IREE's torch frontend lowers ``torch.aten.view`` (what
``aten.reshape``, ONNX's ``Reshape`` and the flatten family become) with
``ConvertAtenViewOp``, which matches input and output dims by the products of
their sizes and divides by them: a static 0-sized dim makes it divide by zero
(SIGFPE in ``getMultiplier``), and ``iree-compile`` dies, in opt-py's process
silently (onnx_ops' ``test_reshape_allowzero_reordered``).

A reshape keeps the number of elements, so one whose input or output type has
a static 0 has none: its result is the empty tensor of its result type,
whatever it is computed from. The patterns replace it by exactly that, a
``tensor.empty`` of the builtin type brought in by
``torch_c.from_builtin_tensor``, which the frontend passes through; ONNX's
``Reshape`` as imported likewise. Dynamic result dims take their sizes from
the view's size list where those are ``torch.aten.size.int`` or non-negative
constants. Left alone: reshapes with elements, unknown dtypes, a dynamic
result dim whose size is not provably such a size (-1, a runtime shape), and
an ONNX result type that has elements while the input has none.
"""

from __future__ import annotations

import re

from iree.compiler import ir
from iree.compiler.dialects import arith, tensor

from ..authoring import pattern
from .ir_utils import defining_op

VIEWS = ("torch.aten.view", "torch.aten.reshape", "torch.aten._unsafe_view")
_VTENSOR = re.compile(r"^!torch\.vtensor<\[([^\]]*)\],(.+)>$")
_BUILTIN = {"f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64", "i1": "i1"}
_BUILTIN.update({f"{s}i{w}": f"i{w}" for s in ("s", "u") for w in (8, 16, 32, 64)})


def vtensor(t):
    """(sizes with None where dynamic, dtype) of a ``!torch.vtensor`` type with known sizes, else None."""
    m = _VTENSOR.match(str(t))
    if not m:
        return None
    sizes = [None if s == "?" else int(s) for s in m.group(1).split(",")] if m.group(1) else []
    return sizes, m.group(2)


def _constant_int(value):
    op = defining_op(value)
    if op is None or op.name != "torch.constant.int":
        return None
    return ir.IntegerAttr(op.attributes["value"]).value


def _list_items(value):
    op = defining_op(value)
    return list(op.operands) if op is not None and op.name == "torch.prim.ListConstruct" else None


def _size_of(item):
    """``item`` when it provably is a size (>= 0): a torch.aten.size.int, or a constant >= 0."""
    op = defining_op(item)
    if op is not None and op.name == "torch.aten.size.int":
        return item
    c = _constant_int(item)
    return item if c is not None and c >= 0 else None


def _plan(op, sizes_list):
    """(result sizes, builtin element type) for the empty result, where a dynamic size is the
    !torch.int it comes from, or a reason."""
    source, result = vtensor(op.operands[0].type), vtensor(op.results[0].type)
    if source is None or result is None:
        return "not a reshape between tensors of known sizes"
    (in_sizes, _), (out_sizes, dtype) = source, result
    if 0 not in in_sizes and 0 not in out_sizes:
        return "neither side has a static 0-sized dim: the reshape may have elements"
    if dtype not in _BUILTIN:
        return f"element type {dtype} has no builtin tensor type here"
    if None not in out_sizes:
        if 0 not in out_sizes:
            return "the input has no elements but the result type has some"
        return out_sizes, ir.Type.parse(_BUILTIN[dtype])
    items = _list_items(sizes_list) if sizes_list is not None else None
    if items is None or len(items) != len(out_sizes):
        return "a dynamic result dim and no list of sizes to take it from"
    sizes = [size if size is not None else _size_of(item) for size, item in zip(out_sizes, items)]
    if any(s is None for s in sizes):
        return "a dynamic result dim whose size is not provably a size (-1 or computed)"
    return sizes, ir.Type.parse(_BUILTIN[dtype])


def _rewrite(op, rewriter, sizes_list):
    plan = _plan(op, sizes_list)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    sizes, elem = plan
    for dialect in ("tensor", "torch_c", "arith"):  # on the module as parsed they may not be loaded yet
        op.context.dialects[dialect]
    with rewriter.ip, op.location:
        i64 = ir.IntegerType.get_signless(64)
        dims = []
        for s in sizes:
            if isinstance(s, int):
                dims.append(s)
                continue
            raw = ir.Operation.create("torch_c.to_i64", results=[i64], operands=[s]).results[0]
            dims.append(arith.index_cast(ir.IndexType.get(), raw))
        empty = tensor.empty(dims, elem)
        new = ir.Operation.create("torch_c.from_builtin_tensor", results=[op.results[0].type], operands=[empty])
    rewriter.replace_op(op, new)
    return True


def _view(op, rewriter):
    op = op.operation
    return _rewrite(op, rewriter, op.operands[1])


view_to_empty = pattern("torch.aten.view", name="view_to_empty")(_view)
reshape_to_empty = pattern("torch.aten.reshape", name="reshape_to_empty")(_view)
unsafe_view_to_empty = pattern("torch.aten._unsafe_view", name="unsafe_view_to_empty")(_view)


@pattern("torch.operator")
def onnx_reshape_to_empty(op, rewriter):
    """ONNX's Reshape as imported (its shape is a runtime tensor: only static result sizes are used)."""
    op = op.operation
    if ir.StringAttr(op.attributes["name"]).value != "onnx.Reshape" or len(op.operands) != 2:
        return rewriter.fail("not an onnx.Reshape of data and a shape")
    return _rewrite(op, rewriter, None)

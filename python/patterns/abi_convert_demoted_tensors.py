"""A demoted tensor at a function's boundary converted to and from the type the caller passes.

Root cause. IREE's type demotions (``--iree-input-demote-f64-to-f32``, on by
default; f32-to-f16, i64-to-i32, bf16/f16-to-f32) rewrite every f64 in the
module, the storage type of the torch ABI's ``hal.tensor.import``/``export``
included, but leave their ABI type (``tensor<4xf64> as tensor<4xf32>``), a
bitcast by those ops' contract: nothing converts. The caller's f64 bytes are
read as f32, and the f32 result is handed back as an f64 view of a buffer
half the size (``hal.buffer_view.create`` fails at run time).

The boundary gets the caller's type and converts inside, computing in the
storage type as the demotion means: ``import_in_abi_type`` imports as the
ABI type and truncates in a ``linalg.generic`` (``truncf``, a complex's parts
alike, ``trunci``); ``barrier_in_abi_type`` extends (``extf``, ``extsi``)
before the ``hal.tensor.barrier`` that signals a result ready, its exports
and their ``tensor.dim`` sizes then reading the new value;
``export_in_abi_type`` extends before an export with no barrier. Left alone:
same-width pairs (a real bitcast), float/integer pairs, shapes that differ,
a barrier result also used by other ops.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor
from iree.compiler.dialects import complex as complex_d

from ..authoring import pattern
from .ir_utils import index_constant, operation


def _kind_and_width(t):
    if isinstance(t, ir.FloatType):
        return "float", t.width
    if isinstance(t, ir.IntegerType) and t.is_signless:
        return "int", t.width
    if isinstance(t, ir.ComplexType) and isinstance(ir.ComplexType(t).element_type, ir.FloatType):
        return "complex", ir.FloatType(ir.ComplexType(t).element_type).width
    return None, None


def converted_pair(storage, abi) -> str | None:
    """Why ``abi as storage`` is left alone, or None when it is a demotion's pair to convert."""
    if not (isinstance(storage, ir.RankedTensorType) and isinstance(abi, ir.RankedTensorType)):
        return "not two ranked tensors"
    storage, abi = ir.RankedTensorType(storage), ir.RankedTensorType(abi)
    if storage == abi:
        return "no ABI type of its own"
    if storage.shape != abi.shape:
        return "the two types differ in shape (a bitcast between ranks)"
    (k1, w1), (k2, w2) = _kind_and_width(storage.element_type), _kind_and_width(abi.element_type)
    if k1 is None or k1 != k2:
        return f"{abi.element_type} as {storage.element_type}: not two floats, complex or signless integers"
    if w1 == w2:
        return f"{abi.element_type} as {storage.element_type}: the same width (a bitcast)"
    return None


def _convert(value, to_type):
    """``value`` (a ranked tensor) elementwise as ``to_type``'s element type (its dynamic sizes by
    ``tensor.dim``, valid wherever ``value`` is)."""
    src = ir.RankedTensorType(value.type)
    dst = ir.RankedTensorType(to_type)
    sizes = [
        tensor.dim(value, index_constant(i)) if src.is_dynamic_dim(i) else src.get_dim_size(i) for i in range(src.rank)
    ]
    empty = tensor.empty(sizes, dst.element_type)
    identity = ir.AffineMapAttr.get(ir.AffineMap.get_identity(src.rank))
    par = ir.Attribute.parse("#linalg.iterator_type<parallel>")
    g = linalg.GenericOp(
        [dst], [value], [empty], ir.ArrayAttr.get([identity, identity]), ir.ArrayAttr.get([par] * src.rank)
    )
    block = g.regions[0].blocks.append(src.element_type, dst.element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([_convert_element(block.arguments[0], src.element_type, dst.element_type)])
    return g.results[0]


def _convert_element(x, from_t, to_t):
    """The scalar ``x`` of ``from_t`` as ``to_t``: a float or the parts of a complex rounded or extended, an
    integer truncated or sign-extended."""
    wider = _kind_and_width(to_t)[1] > _kind_and_width(from_t)[1]
    if isinstance(to_t, ir.ComplexType):
        part_from, part_to = ir.ComplexType(from_t).element_type, ir.ComplexType(to_t).element_type
        re, im = (_convert_element(f(x), part_from, part_to) for f in (complex_d.re, complex_d.im))
        return complex_d.create_(to_t, re, im)
    if isinstance(to_t, ir.FloatType):
        return arith.extf(to_t, x) if wider else arith.truncf(to_t, x)
    return arith.extsi(to_t, x) if wider else arith.trunci(to_t, x)


def _attributes(op) -> dict:
    """``op``'s attributes by name (iterating them gives names in these bindings)."""
    return {n: op.attributes[n] for n in op.attributes}


@pattern("hal.tensor.import")
def import_in_abi_type(op, rewriter):
    op = op.operation
    storage, abi = op.results[0].type, ir.TypeAttr(op.attributes["target_encoding"]).value
    refusal = converted_pair(storage, abi)
    if refusal is not None:
        return rewriter.fail(refusal)
    with rewriter.ip, op.location:
        attrs = _attributes(op)
        imported = ir.Operation.create("hal.tensor.import", results=[abi], operands=list(op.operands), attributes=attrs)
        converted = _convert(imported.result, storage)
    rewriter.replace_op(op, [converted])
    return True


def _export_refusal(export) -> str | None:
    return converted_pair(export.operands[0].type, ir.TypeAttr(export.attributes["source_encoding"]).value)


def _plain_export(export, source):
    """``export`` of ``source`` (already in the ABI type): the same op, its storage type the ABI's."""
    attrs = _attributes(export)
    operands = [source, *list(export.operands)[1:]]
    return ir.Operation.create(
        "hal.tensor.export", results=[export.results[0].type], operands=operands, attributes=attrs
    )


def _converted_result(result):
    """The ABI type to convert a barrier's ``result`` to, or None: each of its users is an export of one
    demoted type (at least one) or a ``tensor.dim`` (the exports' sizes)."""
    users = [operation(u.owner) for u in result.uses]
    exports = [u for u in users if u.name == "hal.tensor.export"]
    if not exports or any(u.name not in ("hal.tensor.export", "tensor.dim") for u in users):
        return None
    if any(_export_refusal(u) is not None for u in exports):
        return None
    abi = {str(ir.TypeAttr(u.attributes["source_encoding"]).value) for u in exports}
    return ir.TypeAttr(exports[0].attributes["source_encoding"]).value if len(abi) == 1 else None


@pattern("hal.tensor.barrier")
def barrier_in_abi_type(op, rewriter):
    op = op.operation
    sources, fence = list(op.operands)[:-1], op.operands[-1]
    converted = {i: t for i, r in enumerate(op.results) if (t := _converted_result(r)) is not None}
    if not converted:
        return rewriter.fail("no result used only by exports of a demoted type (and tensor.dim)")
    users = {i: [operation(u.owner) for u in op.results[i].uses] for i in converted}
    with rewriter.ip, op.location:
        new_sources = [_convert(s, converted[i]) if i in converted else s for i, s in enumerate(sources)]
        barrier = ir.Operation.create(
            "hal.tensor.barrier",
            results=[s.type for s in new_sources],
            operands=[*new_sources, fence],
            attributes=_attributes(op),
        )
    for i, ops in users.items():
        for user in ops:
            with ir.InsertionPoint(user), user.location:
                if user.name == "hal.tensor.export":
                    rewriter.replace_op(user, _plain_export(user, barrier.results[i]))
                else:
                    rewriter.replace_op(user, [tensor.dim(barrier.results[i], user.operands[1])])
    # A converted result has no use left; the old source stands for it (of its type).
    rewriter.replace_op(op, [s if i in converted else r for i, (s, r) in enumerate(zip(sources, barrier.results))])
    return True


@pattern("hal.tensor.export")
def export_in_abi_type(op, rewriter):
    op = op.operation
    source = op.operands[0]
    owner = operation(source.owner)
    if isinstance(owner, ir.Operation) and owner.name == "hal.tensor.barrier":
        return rewriter.fail("its source comes from a hal.tensor.barrier (barrier_in_abi_type converts before it)")
    refusal = _export_refusal(op)
    if refusal is not None:
        return rewriter.fail(refusal)
    abi = ir.TypeAttr(op.attributes["source_encoding"]).value
    with rewriter.ip, op.location:
        new = _plain_export(op, _convert(source, abi))
    rewriter.replace_op(op, new)
    return True

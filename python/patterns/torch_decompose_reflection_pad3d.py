"""Patterns on ``torch.aten.reflection_pad3d`` and ``torch.aten.pad(mode="reflect")`` over three dims: slices
flipped and concatenated.

torch-mlir lowers ``reflection_pad1d`` and ``reflection_pad2d`` to linalg but has
no lowering for ``reflection_pad3d``, and IREE's frontend turns
``aten.pad(mode="reflect")`` with six pads (``F.pad``, a ``Conv3d`` with
``padding_mode="reflect"``: video autoencoders) into it. The op is left
unconverted: ``failed to legalize operation 'torch.constant.int'``.

``decompose_reflection_pad3d`` pads one dim at a time, last first (reflection
padding is separable: a corner is the reflection of a reflection): before a
dim of size ``n`` go ``x[1 : l + 1]`` flipped, after it ``x[n - 1 - r : n - 1]``
flipped (``l``, ``r`` < ``n``: torch raises otherwise), all concatenated. Pure
data movement, so every dtype is exact. A dynamic size is sliced from its end.

Left alone, with the reason: pads that are not six constant ints; a negative
pad; a pad not less than its dim's static size (torch raises); an input that
is not a ranked value tensor of rank 4 or 5; ``aten.pad`` of another mode or
with a value; a result typed otherwise than the padded shape.
"""

from __future__ import annotations

from iree.compiler import ir

from ..authoring import pattern
from .ir_utils import defining_op
from .torch_ir import (
    VTensor,
    compatible,
    constant_int,
    constant_str,
    create,
    int_constant,
    int_list,
    is_none,
    ranked_refusal,
    static_info_cast,
    vtensor,
)


def constant_pads(value) -> list[int] | None:
    """The ints of a ``torch.prim.ListConstruct`` of ``torch.constant.int``, or None."""
    listed = defining_op(value)
    if listed is None or listed.name != "torch.prim.ListConstruct":
        return None
    pads = [constant_int(v) for v in listed.operands]
    return None if any(p is None for p in pads) else pads


def plan_pad(x, pads_value, result) -> tuple[VTensor, list[int], VTensor] | str:
    """(input type, pads, padded type) for reflecting ``x`` by ``pads_value`` into ``result``, or why not."""
    pads = constant_pads(pads_value)
    if pads is None or len(pads) != 6:
        return "pads are not six torch.constant.int"
    xt, rt = vtensor(x.type), vtensor(result.type)
    why = ranked_refusal("the input or the result", (xt, rt))
    if why is not None:
        return why
    if xt.rank not in (4, 5):
        return f"a rank-{xt.rank} input (torch takes rank 4 or 5)"
    if any(p < 0 for p in pads):
        return "a negative pad"
    sizes = list(xt.sizes)
    for i, (before, after) in enumerate(zip(pads[0::2], pads[1::2])):
        n = sizes[-1 - i]
        if n is not None and max(before, after) >= n:
            return f"a pad of {max(before, after)} on a dim of size {n} (torch raises)"
        sizes[-1 - i] = None if n is None else n + before + after
    padded = VTensor(tuple(sizes), xt.dtype)
    if not compatible(padded, rt):
        return f"the result {rt.ir_type()} is not the padded {padded.ir_type()}"
    return xt, pads, padded


def flipped_slice(x, t: VTensor, dim: int, start: int, end: int):
    """``x[start:end]`` along ``dim`` (negative bounds count from the end), flipped along ``dim``; a
    one-element slice is its own flip and is not flipped (IREE 3.13's CPU code generation fails on a
    ``flip`` of a unit dim beside a dynamic one: ``LLVM Translation failed for operation:
    builtin.unrealized_conversion_cast``)."""
    part = t.with_sizes(tuple(end - start if d == dim else s for d, s in enumerate(t.sizes)))
    sliced = create(
        "torch.aten.slice.Tensor",
        [part.ir_type()],
        [x, int_constant(dim), int_constant(start), int_constant(end), int_constant(1)],
    ).result
    if end - start == 1:
        return sliced
    return create("torch.aten.flip", [part.ir_type()], [sliced, int_list([dim])]).result


def reflect_dim(x, t: VTensor, dim: int, before: int, after: int):
    """``x`` (type ``t``) reflection-padded by ``before`` and ``after`` along ``dim``: (value, its type)."""
    if before == 0 and after == 0:
        return x, t
    n = t.sizes[dim]
    parts = [x]
    if before:
        parts.insert(0, flipped_slice(x, t, dim, 1, before + 1))
    if after:
        start, end = (n - 1 - after, n - 1) if n is not None else (-after - 1, -1)
        parts.append(flipped_slice(x, t, dim, start, end))
    out = t.with_sizes(
        tuple((None if s is None else s + before + after) if d == dim else s for d, s in enumerate(t.sizes))
    )
    listed = create("torch.prim.ListConstruct", [ir.Type.parse("!torch.list<vtensor>")], parts).result
    return create("torch.aten.cat", [out.ir_type()], [listed, int_constant(dim)]).result, out


def build_reflection_pad(x, xt: VTensor, pads: list[int]):
    """``x`` reflection-padded by ``pads`` (last dim's pair first), one dim at a time: (value, its type)."""
    value, t = x, xt
    for i, (before, after) in enumerate(zip(pads[0::2], pads[1::2])):
        value, t = reflect_dim(value, t, xt.rank - 1 - i, before, after)
    return value, t


def rewrite(op, rewriter, x, pads_value):
    plan = plan_pad(x, pads_value, op.results[0])
    if isinstance(plan, str):
        return rewriter.fail(plan)
    xt, pads, padded = plan
    with rewriter.ip, op.location:
        value, t = build_reflection_pad(x, xt, pads)
        value = static_info_cast(value, t, vtensor(op.results[0].type))
    rewriter.replace_op(op, [value])
    return True


@pattern("torch.aten.reflection_pad3d")
def decompose_reflection_pad3d(op, rewriter):
    op = op.operation
    return rewrite(op, rewriter, op.operands[0], op.operands[1])


@pattern("torch.aten.pad")
def decompose_pad_reflect(op, rewriter):
    op = op.operation
    if len(op.operands) != 4 or constant_str(op.operands[2]) != "reflect":
        return rewriter.fail("not aten.pad with mode 'reflect'")
    if not is_none(op.operands[3]):
        return rewriter.fail("a value given (torch raises for a reflect pad with one)")
    return rewrite(op, rewriter, op.operands[0], op.operands[1])

"""Patterns on ``torch.aten.native_group_norm_backward``: group norm's three gradients as reshapes,
sums and broadcasting arithmetic over ``[N, group, C/group, HxW]``.

IREE's torch frontend (3.13) has no decomposition nor lowering of the op and fails on the
constants it leaves (``failed to legalize operation 'torch.constant.bool'``).

``decompose_group_norm_backward`` computes what PyTorch defines, with ``ds``, ``db`` the sums over
HxW of ``grad_out * input`` and ``grad_out``, gamma the weight (1 where None), ``s = 1 / (HxW *
C/group)`` and ``ds_g``, ``db_g`` the group sums of ``ds * gamma``, ``db * gamma``: grad_input is
``grad_out * rstd * gamma + input * c2 + c3``, ``c2 = (db_g * mean - ds_g) * rstd^3 * s``,
``c3 = -c2 * mean - db_g * rstd * s``; grad_weight ``sum_N((ds - db * mean) * rstd)``, grad_bias
``sum_N(db)``. A masked result typed ``!torch.none`` (as exported) is ``torch.constant.none``; one
typed as a tensor and unused is computed all the same (dead).

Left alone, with the reason: an operand or result not a ranked value tensor; an input of rank < 2;
a dtype other than f32, f64, or not one dtype; N, C, HxW, group not positive constant ints, C not
divisible by group; static sizes contradicting ``[N, C, *spatial]`` (HxW elements in spatial),
``[N, group]`` or ``[C]``; an output_mask not 3 constant bools; a masked tensor result with uses;
a ``!torch.none`` result whose bit is true.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..authoring import pattern
from .ir_utils import defining_op, has_uses
from .torch_ir import (
    VTensor,
    bool_constant,
    compatible,
    constant_bool,
    constant_int,
    create,
    dim_size,
    float_constant,
    int_constant,
    int_list,
    is_none,
    none_constant,
    static_info_cast,
    vtensor,
)

DTYPES = ("f32", "f64")  # the op's CPU kernel computes f16/bf16 in f32 with f32 mean/rstd: not written here


@dataclass(frozen=True)
class Plan:
    n: int
    c: int
    hxw: int
    group: int
    mask: tuple[bool, bool, bool]
    input: VTensor
    has_weight: bool
    results: tuple  # each result's VTensor, or None where it is !torch.none (masked)

    @property
    def cpg(self) -> int:
        return self.c // self.group

    @property
    def dtype(self) -> str:
        return self.input.dtype


def constant_bools(value) -> list[bool] | None:
    """The bools of a ``torch.prim.ListConstruct`` of ``torch.constant.bool``, or None."""
    op = defining_op(value)
    if op is None or op.name != "torch.prim.ListConstruct":
        return None
    bools = [constant_bool(v) for v in op.operands]
    return None if any(b is None for b in bools) else bools


def sizes_refusal(xt: VTensor, n: int, c: int, hxw: int) -> str | None:
    """Why an input of type ``xt`` is not ``[N, C, *spatial]`` with spatial of ``hxw`` elements, or None."""
    if xt.sizes[0] not in (None, n) or xt.sizes[1] not in (None, c):
        return f"an input {xt.ir_type()} that is not [N={n}, C={c}, ...]"
    spatial = [s for s in xt.sizes[2:] if s is not None]
    known = math.prod(spatial)
    if known == 0 or hxw % known or (len(spatial) == xt.rank - 2 and known != hxw):
        return f"an input {xt.ir_type()} whose spatial dims do not hold HxW = {hxw} elements"
    return None


def result_types(op, mask, want) -> tuple | str:
    """Each result's VTensor (None where it is ``!torch.none``), or why the op is left alone."""
    types = []
    for i, (result, bit, expected) in enumerate(zip(op.results, mask, want)):
        if str(result.type) == "!torch.none":
            if bit:
                return f"result {i} is !torch.none but its output_mask bit is true"
            types.append(None)
            continue
        rt = vtensor(result.type)
        if rt is None:
            return f"result {i} is not a ranked !torch.vtensor"
        if not bit and has_uses(result):
            return f"result {i} is masked out (undefined in PyTorch) yet has uses"
        if not compatible(expected, rt):
            return f"result {i} {rt.ir_type()} is not {expected.ir_type()}"
        types.append(rt)
    return tuple(types)


def plan_group_norm_backward(op) -> Plan | str:
    """The decomposition of ``native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C,
    HxW, group, output_mask)``, or why it is left alone."""
    if len(op.operands) != 10 or len(op.results) != 3:
        return "not native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, mask) -> 3"
    grad, x, mean, rstd, weight = op.operands[:5]
    gt, xt, mt, st = (vtensor(v.type) for v in (grad, x, mean, rstd))
    wt = None if is_none(weight) else vtensor(weight.type)
    if any(t is None for t in (gt, xt, mt, st)) or (wt is None and not is_none(weight)):
        return "grad_out, input, mean, rstd or weight is not a ranked !torch.vtensor"
    if xt.rank < 2:
        return f"an input of rank {xt.rank} (group norm takes [N, C, ...])"
    if xt.dtype not in DTYPES:
        return f"a {xt.dtype} input: not f32 nor f64"
    if any(t.dtype != xt.dtype for t in (gt, mt, st, *([wt] if wt else []))):
        return "grad_out, input, mean, rstd and weight are not of one dtype"
    n, c, hxw, group = (constant_int(v) for v in op.operands[5:9])
    if None in (n, c, hxw, group):
        return "N, C, HxW or group is not a constant int"
    if min(n, c, hxw, group) <= 0 or c % group:
        return f"N={n}, C={c}, HxW={hxw}, group={group}: not positive, or C not divisible by group"
    why = sizes_refusal(xt, n, c, hxw)
    if why is not None:
        return why
    if not compatible(gt, xt):
        return f"grad_out {gt.ir_type()} is not the input's shape {xt.ir_type()}"
    stats = VTensor((n, group), xt.dtype)
    if not (compatible(mt, stats) and compatible(st, stats)):
        return f"mean {mt.ir_type()} or rstd {st.ir_type()} is not {stats.ir_type()}"
    if wt is not None and not compatible(wt, VTensor((c,), xt.dtype)):
        return f"a weight {wt.ir_type()} that is not [{c}]"
    mask = constant_bools(op.operands[9])
    if mask is None or len(mask) != 3:
        return "an output_mask that is not a list of 3 constant bools"
    channel = VTensor((c,), xt.dtype)
    types = result_types(op, mask, (xt, channel, channel))
    if isinstance(types, str):
        return types
    return Plan(n, c, hxw, group, tuple(mask), xt, wt is not None, types)


def _op(name, t: VTensor, *operands):
    return create(name, [t.ir_type()], operands).result


def _view(value, t: VTensor, sizes):
    return _op("torch.aten.view", t.with_sizes(sizes), value, int_list(sizes))


def _sum(value, t: VTensor, dims, keepdim: bool):
    """``value.sum(dims, keepdim)`` (``value`` of type ``t``) and its type."""
    out = t.with_sizes(
        [1 if d in dims else s for d, s in enumerate(t.sizes)]
        if keepdim
        else [s for d, s in enumerate(t.sizes) if d not in dims]
    )
    value = _op("torch.aten.sum.dim_IntList", out, value, int_list(dims), bool_constant(keepdim), none_constant())
    return value, out


def build_grad_input(grad4, x4, mean4, rstd4, gamma4, ds, db, t4: VTensor, plan: Plan):
    """grad_input over ``[N, G, C/G, HxW]``; ``ds``, ``db`` are ``[N, G, C/G, 1]``, mean4/rstd4 ``[N, G, 1, 1]``."""
    ch = t4.with_sizes((plan.n, plan.group, plan.cpg, 1))
    if gamma4 is not None:
        ds = _op("torch.aten.mul.Tensor", ch, ds, gamma4)
        db = _op("torch.aten.mul.Tensor", ch, db, gamma4)
    ds_g, g = _sum(ds, ch, [2], True)
    db_g, _ = _sum(db, ch, [2], True)
    scale = float_constant(1.0 / (plan.hxw * plan.cpg))
    c1 = rstd4 if gamma4 is None else _op("torch.aten.mul.Tensor", ch, rstd4, gamma4)
    c2 = _op("torch.aten.sub.Tensor", g, _op("torch.aten.mul.Tensor", g, db_g, mean4), ds_g, int_constant(1))
    for _ in range(3):
        c2 = _op("torch.aten.mul.Tensor", g, c2, rstd4)
    c2 = _op("torch.aten.mul.Scalar", g, c2, scale)
    c3 = _op("torch.aten.mul.Tensor", g, _op("torch.aten.neg", g, c2), mean4)
    shift = _op("torch.aten.mul.Scalar", g, _op("torch.aten.mul.Tensor", g, db_g, rstd4), scale)
    c3 = _op("torch.aten.sub.Tensor", g, c3, shift, int_constant(1))
    out = _op("torch.aten.mul.Tensor", t4, grad4, c1)
    out = _op("torch.aten.add.Tensor", t4, out, _op("torch.aten.mul.Tensor", t4, x4, c2), int_constant(1))
    return _op("torch.aten.add.Tensor", t4, out, c3, int_constant(1))


def build_group_norm_backward(op, plan: Plan) -> list:
    """The op's three results (a ``torch.constant.none`` where it is typed ``!torch.none``)."""
    grad, x, mean, rstd, weight = op.operands[:5]
    n, g, cpg, hxw, dtype = plan.n, plan.group, plan.cpg, plan.hxw, plan.dtype
    t4 = VTensor((n, g, cpg, hxw), dtype)
    grad4, x4 = _view(grad, t4, t4.sizes), _view(x, t4, t4.sizes)
    mean4, rstd4 = _view(mean, t4, (n, g, 1, 1)), _view(rstd, t4, (n, g, 1, 1))
    gamma4 = _view(weight, t4, (1, g, cpg, 1)) if plan.has_weight else None
    ds, ch = _sum(_op("torch.aten.mul.Tensor", t4, grad4, x4), t4, [3], True)
    db, _ = _sum(grad4, t4, [3], True)
    xt, (rt0, rt1, rt2) = plan.input, plan.results
    values = []
    if rt0 is not None:
        value = build_grad_input(grad4, x4, mean4, rstd4, gamma4, ds, db, t4, plan)
        sizes = [dim_size(x, xt, d) for d in range(xt.rank)]
        value = create("torch.aten.view", [xt.ir_type()], [value, int_list(sizes)]).result
        values.append(static_info_cast(value, xt, rt0))
    else:
        values.append(none_constant())
    channel = VTensor((plan.c,), dtype)
    if rt1 is not None:
        centred = _op("torch.aten.sub.Tensor", ch, ds, _op("torch.aten.mul.Tensor", ch, db, mean4), int_constant(1))
        per_n = _op("torch.aten.mul.Tensor", ch, centred, rstd4)
        summed, st = _sum(per_n, ch, [0], False)
        values.append(static_info_cast(_view(summed, st, (plan.c,)), channel, rt1))
    else:
        values.append(none_constant())
    if rt2 is not None:
        summed, st = _sum(db, ch, [0], False)
        values.append(static_info_cast(_view(summed, st, (plan.c,)), channel, rt2))
    else:
        values.append(none_constant())
    return values


@pattern("torch.aten.native_group_norm_backward")
def decompose_group_norm_backward(op, rewriter):
    op = op.operation
    plan = plan_group_norm_backward(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    with rewriter.ip, op.location:
        values = build_group_norm_backward(op, plan)
    rewriter.replace_op(op, values)
    return True

"""Patterns on ``torch.aten.cross_entropy_loss``: class-index targets, no class weights, no label smoothing,
as log_softmax, a gather, a mask and the reduction.

IREE's torch frontend (3.13) fails on the op (its decomposition leaves a ``torch.prim.NumToTensor.Scalar``);
``F.cross_entropy(logits, labels)``, a model's loss on class-index labels, exports as it.

``decompose_cross_entropy_loss`` writes what PyTorch computes
(``log_softmax`` then ``nll_loss``): the log-probabilities over the class dim
(1, or 0 for a 1-d input and a 0-d target), each target's gathered (an ignored
target first replaced by class 0, a valid index), negated, 0 where the target
is ``ignore_index``; then the reduction: none (each element), sum, or mean, the
sum divided by the count of targets not ignored (0 / 0, NaN, where every one is,
as PyTorch gives).

Left alone, with the reason: an operand or the result not a ranked value
tensor; class weights; ``reduction``, ``ignore_index`` or ``label_smoothing``
not constants, a reduction other than 0, 1, 2, a nonzero label smoothing; an
input dtype other than f32 and f64, targets other than si64 class indices of
the input's shape without its class dim; a result type that is not the
reduction's (the target's shape for none, 0-d for sum and mean).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..authoring import pattern
from .torch_ir import (
    VTensor,
    bool_constant,
    compatible,
    constant_int,
    constant_number,
    convert,
    create,
    float_constant,
    int_constant,
    is_none,
    none_constant,
    ranked_refusal,
    static_info_cast,
    vtensor,
)

REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}  # at::Reduction


@dataclass(frozen=True)
class LossPlan:
    reduction: str
    ignore_index: int
    class_dim: int
    input: VTensor
    target: VTensor
    result: VTensor


def plan_cross_entropy_loss(op) -> LossPlan | str:
    """The decomposition of ``cross_entropy_loss(self, target, weight, reduction, ignore_index,
    label_smoothing)``, or why it is left alone."""
    if len(op.operands) != 6 or len(op.results) != 1:
        return "not cross_entropy_loss(self, target, weight, reduction, ignore_index, label_smoothing) -> tensor"
    x, target, weight, reduction_value, ignore_value, smoothing_value = op.operands
    xt, tt, rt = vtensor(x.type), vtensor(target.type), vtensor(op.results[0].type)
    why = ranked_refusal("the input, the target or the result", (xt, tt, rt))
    if why is not None:
        return why
    if not is_none(weight):
        return "class weights (weight is not torch.constant.none)"
    reduction, ignore_index = constant_int(reduction_value), constant_int(ignore_value)
    smoothing = constant_number(smoothing_value)
    if reduction is None or ignore_index is None or smoothing is None:
        return "reduction, ignore_index or label_smoothing is not a constant"
    if reduction not in REDUCTIONS:
        return f"reduction = {reduction} (torch raises)"
    if smoothing != 0:
        return f"label_smoothing = {smoothing}"
    if xt.dtype not in ("f32", "f64"):
        return f"a {xt.dtype} input (f32 and f64 only)"
    if tt.dtype != "si64":
        return f"a {tt.dtype} target (si64 class indices only)"
    if xt.rank == 0:
        return "a 0-d input (torch raises)"
    class_dim = 0 if xt.rank == 1 else 1
    batch = VTensor(xt.sizes[:class_dim] + xt.sizes[class_dim + 1 :], "si64")
    if not compatible(batch, tt):
        return f"the target {tt.ir_type()} is not the input's shape without its class dim {class_dim}"
    want = VTensor(tt.sizes, xt.dtype) if REDUCTIONS[reduction] == "none" else VTensor((), xt.dtype)
    if not compatible(want, rt):
        return f"the result {rt.ir_type()} is not {want.ir_type()}, reduction {REDUCTIONS[reduction]}'s"
    return LossPlan(REDUCTIONS[reduction], ignore_index, class_dim, xt, tt, rt)


def build_losses(x, target, plan: LossPlan):
    """Each target's loss, ``-log_softmax(x)[target]``, 0 where it is ``ignore_index``; with the mask of
    the targets that count (i1) and the loss's type."""
    xt, tt = plan.input, plan.target
    dim = int_constant(plan.class_dim)
    logp = create("torch.aten.log_softmax.int", [xt.ir_type()], [x, dim, none_constant()]).result
    counted = create(
        "torch.aten.ne.Scalar", [tt.with_dtype("i1").ir_type()], [target, int_constant(plan.ignore_index)]
    ).result
    index = create("torch.aten.where.ScalarOther", [tt.ir_type()], [counted, target, int_constant(0)]).result
    column = VTensor(tt.sizes[: plan.class_dim] + (1,) + tt.sizes[plan.class_dim :], "si64")
    index = create("torch.aten.unsqueeze", [column.ir_type()], [index, dim]).result
    picked = create(
        "torch.aten.gather", [column.with_dtype(xt.dtype).ir_type()], [logp, dim, index, bool_constant(False)]
    ).result
    lt = tt.with_dtype(xt.dtype)
    picked = create("torch.aten.squeeze.dim", [lt.ir_type()], [picked, dim]).result
    loss = create("torch.aten.neg", [lt.ir_type()], [picked]).result
    loss = create("torch.aten.where.ScalarOther", [lt.ir_type()], [counted, loss, float_constant(0.0)]).result
    return loss, counted, lt


def build_cross_entropy_loss(x, target, plan: LossPlan):
    """The loss ``plan`` describes, built at the current insertion point."""
    loss, counted, lt = build_losses(x, target, plan)
    if plan.reduction == "none":
        return static_info_cast(loss, lt, plan.result)
    scalar = VTensor((), plan.input.dtype)
    total = create("torch.aten.sum", [scalar.ir_type()], [loss, none_constant()]).result
    if plan.reduction == "sum":
        return static_info_cast(total, scalar, plan.result)
    ones = convert(counted, lt.with_dtype("i1"), plan.input.dtype)
    count = create("torch.aten.sum", [scalar.ir_type()], [ones, none_constant()]).result
    mean = create("torch.aten.div.Tensor", [scalar.ir_type()], [total, count]).result
    return static_info_cast(mean, scalar, plan.result)


@pattern("torch.aten.cross_entropy_loss")
def decompose_cross_entropy_loss(op, rewriter):
    op = op.operation
    plan = plan_cross_entropy_loss(op)
    if isinstance(plan, str):
        return rewriter.fail(plan)
    x, target = op.operands[0], op.operands[1]
    with rewriter.ip, op.location:
        value = build_cross_entropy_loss(x, target, plan)
    rewriter.replace_op(op, [value])
    return True

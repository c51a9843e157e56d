"""onnx-runtime-axes-as-select: an ONNX reduction or CumSum over runtime axes as a select over constant axes."""

from dataclasses import dataclass

from ..authoring import TORCH_OPERATOR, Fix, PatternPass
from ..patterns.onnx_runtime_axes_as_select import runtime_axes_as_select


@dataclass(frozen=True)
class OnnxRuntimeAxesAsSelect(PatternPass):
    name = "onnx-runtime-axes-as-select"
    anchor = "any"
    summary = (
        "Emit an ONNX ReduceX or CumSum whose axes are a runtime tensor once per axes its static types "
        "allow, with constant axes, and select the copy the runtime axes name (IREE lowers no runtime axes)"
    )
    # On the module as parsed: the ONNX ops must still be torch.operator, before the ONNX-to-torch conversion
    # reads their axes operand.
    fix = Fix(
        "an ONNX ReduceX or CumSum whose axes are a runtime tensor has no lowering: one copy per axes "
        "the static types allow, selected at run time",
        phase="start",
        ops=TORCH_OPERATOR,
    )

    def patterns(self):
        return [runtime_axes_as_select]

"""abi-convert-demoted-tensors: a torch program's f64 tensors converted at its boundary under IREE's demotion."""

from dataclasses import dataclass

from ..authoring import Fix, PatternPass
from ..patterns.abi_convert_demoted_tensors import barrier_in_abi_type, export_in_abi_type, import_in_abi_type


@dataclass(frozen=True)
class AbiConvertDemotedTensors(PatternPass):
    name = "abi-convert-demoted-tensors"
    anchor = "any"  # IREE's util.func
    summary = (
        "Import and export a tensor that IREE's type demotion left as 'tensor<f64> as tensor<f32>' (a bitcast "
        "between sizes) in its ABI type, converted to and from the demoted type inside (truncf/extf, trunci/extsi)"
    )
    # After IREE's input conversion: its f64-to-f32 demotion (and the other type demotions) runs at the end of
    # it, after the torch frontend wrote the ABI's imports and exports.
    fix = Fix(
        "f64 torch programs under IREE's default f64-to-f32 demotion: the ABI reads the caller's f64 buffers as "
        "f32 and returns f32 data as f64 views (hal.buffer_view.create fails); converted at the boundary",
        phase="input",
        ops=("hal.tensor.barrier", "hal.tensor.export", "hal.tensor.import"),
    )

    def patterns(self):
        return [import_in_abi_type, barrier_in_abi_type, export_in_abi_type]

"""abi-convert-demoted-tensors: a torch program's f64 tensors converted at its boundary under IREE's demotion."""

from dataclasses import dataclass

from ..authoring import PatternPass
from ..patterns.abi_convert_demoted_tensors import barrier_in_abi_type, export_in_abi_type, import_in_abi_type


@dataclass(frozen=True)
class AbiConvertDemotedTensors(PatternPass):
    name = "abi-convert-demoted-tensors"
    anchor = "any"  # IREE's util.func
    summary = (
        "Import and export a tensor that IREE's type demotion left as 'tensor<f64> as tensor<f32>' (a bitcast "
        "between sizes) in its ABI type, converted to and from the demoted type inside (truncf/extf, trunci/extsi)"
    )

    def patterns(self):
        return [import_in_abi_type, barrier_in_abi_type, export_in_abi_type]

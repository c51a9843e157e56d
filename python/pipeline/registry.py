"""Where pass names come from: opt-py's own passes, plugins, and C++ passes.

Opt-py's own passes are listed by name and imported only when named, and the
``opt_py.passes`` entry-point group is scanned only when a name is neither
opt-py's nor a C++ pass's (scanning costs about as much as a whole small
run). A plugin entry point names a ``Pass`` subclass or a list of them.
"""

from __future__ import annotations

import functools
import importlib
import re
import subprocess

from ..authoring import Pass
from ..errors import PassRegistrationError
from .cpp import cpp_probe

# name -> "module:Class", relative to opt_py.passes. Kept in sync with the
# declarations by test/unit/test_registry.py.
BUILTIN_PASSES: dict[str, str] = {
    "sort-drop-unused-results": "sort_drop_unused_results:SortDropUnusedResults",
    "sort-slice-to-topk": "sort_slice_to_topk:SortSliceToTopk",
    "gather-to-load": "gather_to_load:GatherToLoad",
    "fold-subview-into-gather": "fold_subview_into_gather:FoldSubviewIntoGather",
    "forall-reuse-shared-outs": "forall_reuse_shared_outs:ForallReuseSharedOuts",
    "softmax-fuse-elementwise": "softmax_fuse_elementwise:SoftmaxFuseElementwise",
    "fold-collapse-shape-into-store": "fold_collapse_shape_into_store:FoldCollapseShapeIntoStore",
    "fold-collapse-shape-into-generic": "fold_collapse_shape_into_generic:FoldCollapseShapeIntoGeneric",
    "clone-splat-dispatch-per-tied-use": "clone_splat_dispatch_per_tied_use:CloneSplatDispatchPerTiedUse",
    "copy-shared-tied-operand": "copy_shared_tied_operand:CopySharedTiedOperand",
    "copy-tied-operand-through-barrier": "copy_tied_operand_through_barrier:CopyTiedOperandThroughBarrier",
    "attention-add-zero-mask": "attention_add_zero_mask:AttentionAddZeroMask",
    "torch-decompose-diff": "torch_decompose_diff:TorchDecomposeDiff",
    "torch-and-to-bitwise-and": "torch_and_to_bitwise_and:TorchAndToBitwiseAnd",
    "torch-xor-to-bitwise-xor": "torch_xor_to_bitwise_xor:TorchXorToBitwiseXor",
    "torch-bitwise-convert-operands": "torch_bitwise_convert_operands:TorchBitwiseConvertOperands",
    "torch-sdpa-agree-shapes": "torch_sdpa_agree_shapes:TorchSdpaAgreeShapes",
    "torch-decompose-logsumexp": "torch_decompose_logsumexp:TorchDecomposeLogsumexp",
    "torch-topk-unsorted-as-sorted": "torch_topk_unsorted_as_sorted:TorchTopkUnsortedAsSorted",
    "torch-decompose-histc": "torch_decompose_histc:TorchDecomposeHistc",
    "torch-decompose-grouped-mm": "torch_decompose_grouped_mm:TorchDecomposeGroupedMM",
    "torch-concat-as-cat": "torch_concat_as_cat:TorchConcatAsCat",
    "torch-scatter-wrap-dim": "torch_scatter_wrap_dim:TorchScatterWrapDim",
    "argsort-indices-only": "argsort_indices_only:ArgsortIndicesOnly",
    "rotation-map-to-slices": "rotation_map_to_slices:RotationMapToSlices",
    "torch-zero-size-reshape-to-empty": "torch_zero_size_reshape_to_empty:TorchZeroSizeReshapeToEmpty",
    "torch-roll-shift-mod-size": "torch_roll_shift_mod_size:TorchRollShiftModSize",
    "torch-decompose-gelu-tanh": "torch_decompose_gelu_tanh:TorchDecomposeGeluTanh",
    "torch-argsort-stable-as-argsort": "torch_argsort_stable_as_argsort:TorchArgsortStableAsArgsort",
    "onnx-runtime-axes-as-select": "onnx_runtime_axes_as_select:OnnxRuntimeAxesAsSelect",
    "torch-decompose-meshgrid": "torch_decompose_meshgrid:TorchDecomposeMeshgrid",
    "torch-decompose-signbit": "torch_decompose_signbit:TorchDecomposeSignbit",
    "torch-decompose-reflection-pad3d": "torch_decompose_reflection_pad3d:TorchDecomposeReflectionPad3d",
    "torch-decompose-scaled-mm": "torch_decompose_scaled_mm:TorchDecomposeScaledMM",
    "torch-decompose-xlogy": "torch_decompose_xlogy:TorchDecomposeXlogy",
    "torch-decompose-kthvalue": "torch_decompose_kthvalue:TorchDecomposeKthvalue",
    "torch-index-put-bool-mask": "torch_index_put_bool_mask:TorchIndexPutBoolMask",
    "torch-adaptive-max-pool2d-as-3d": "torch_adaptive_max_pool2d_as_3d:TorchAdaptiveMaxPool2dAs3d",
    "torch-decompose-weight-norm": "torch_decompose_weight_norm:TorchDecomposeWeightNorm",
    "torch-mutable-int-import-signless": "torch_mutable_int_import_signless:TorchMutableIntImportSignless",
    "torch-floor-divide-exact": "torch_floor_divide_exact:TorchFloorDivideExact",
    "linalg-empty-loop-to-init": "linalg_empty_loop_to_init:LinalgEmptyLoopToInit",
    "abi-convert-demoted-tensors": "abi_convert_demoted_tensors:AbiConvertDemotedTensors",
    "torch-sdpa-masked-rows-zero": "torch_sdpa_masked_rows_zero:TorchSdpaMaskedRowsZero",
    "math-inline-libm-calls": "math_inline_libm_calls:MathInlineLibmCalls",
    "scan-fill-input-as-generic": "scan_fill_input_as_generic:ScanFillInputAsGeneric",
    "arg-compare-dynamic-as-generic": "arg_compare_dynamic_as_generic:ArgCompareDynamicAsGeneric",
}

ENTRY_POINT_GROUP = "opt_py.passes"

_registered: dict[str, type[Pass]] = {}


def builtin_pass(name: str) -> type[Pass] | None:
    if name in _registered:
        return _registered[name]
    target = BUILTIN_PASSES.get(name)
    if target is None:
        return None
    mod, _, cls = target.partition(":")
    return getattr(importlib.import_module(f"opt_py.passes.{mod}"), cls)


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Make a pass class nameable in pipelines of this process (scripts, notebooks)."""
    _check_declaration(cls)
    if cls.name in BUILTIN_PASSES or is_cpp_pass(cls.name):
        raise PassRegistrationError(f"pass name '{cls.name}' is already taken by a registered pass")
    _registered[cls.name] = cls
    return cls


def _check_declaration(cls) -> None:
    if not (isinstance(cls, type) and issubclass(cls, Pass)):
        raise PassRegistrationError(f"{cls!r} is not an opt_py.Pass subclass")
    if not cls.name or not re.fullmatch(r"[A-Za-z0-9_.\-]+", cls.name):
        raise PassRegistrationError(f"{cls.__name__} declares no valid pass name ('{cls.name}')")
    anchor = getattr(cls, "anchor", None)
    if not isinstance(anchor, str) or not (anchor == "any" or re.fullmatch(r"\w+(\.\w+)+", anchor)):
        raise PassRegistrationError(
            f"pass '{cls.name}' declares anchor {anchor!r}: expected 'any' or an op name such as 'func.func'"
        )


def load_pass_file(path: str) -> list[type[Pass]]:
    """Import a Python file and register every pass class it declares.

    ``--load-pass-plugin=fixes.py``: the quickest loop for writing a fix, no
    packaging needed. A class counts when it is a Pass subclass with a name,
    defined in that file.
    """
    import importlib.util
    import os
    import sys

    mod_name = "opt_py_plugin_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise PassRegistrationError(f"cannot load pass plugin '{path}': not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except FileNotFoundError:
        raise PassRegistrationError(f"cannot load pass plugin '{path}': no such file") from None
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise PassRegistrationError(f"cannot load pass plugin '{path}': {type(e).__name__}: {e}") from e
    found = [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Pass) and obj.name and obj.__module__ == mod_name
    ]
    if not found:
        raise PassRegistrationError(f"pass plugin '{path}' declares no pass")
    for cls in found:
        register_pass(cls)
    return found


def load_pass_files(paths) -> None:
    """``--load-pass-plugin`` of every subcommand: each file in order."""
    for path in paths:
        load_pass_file(path)


def is_cpp_pass(name: str) -> bool:

    problem = cpp_probe(name)
    return problem is None or f"'{name}' does not refer to a registered pass" not in problem


@functools.cache
def plugin_passes() -> dict[str, type[Pass]]:
    import importlib.metadata as md

    found: dict[str, type[Pass]] = {}
    for ep in md.entry_points(group=ENTRY_POINT_GROUP):
        where = f"opt-py plugin '{ep.name}' ({ep.value})"
        try:
            obj = ep.load()
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            raise PassRegistrationError(f"cannot load {where}: {type(e).__name__}: {e}") from None
        for cls in obj if isinstance(obj, (list, tuple)) else [obj]:
            try:
                _check_declaration(cls)
            except PassRegistrationError as e:
                raise PassRegistrationError(f"{where}: {e}") from None
            if cls.name in BUILTIN_PASSES or cls.name in found:
                raise PassRegistrationError(f"plugin '{ep.name}' declares pass '{cls.name}', which is already declared")
            if is_cpp_pass(cls.name):
                raise PassRegistrationError(
                    f"plugin '{ep.name}' declares pass '{cls.name}', which collides with a registered C++ pass"
                )
            found[cls.name] = cls
    return found


def plugin_pass(name: str) -> type[Pass] | None:
    return plugin_passes().get(name)


def python_passes() -> dict[str, type[Pass]]:
    out = {name: builtin_pass(name) for name in BUILTIN_PASSES}
    out.update(_registered)
    out.update(plugin_passes())
    return dict(sorted(out.items()))


@functools.cache
def cpp_passes() -> list[tuple[str, str]]:
    """(name, summary) of every C++ pass and pipeline registered with iree-opt."""
    from iree.compiler.tools.binaries import find_tool

    try:
        out = subprocess.run(
            [find_tool("iree-opt"), "--help"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    passes, in_section = [], False
    for line in out.splitlines():
        if re.match(r"^\s{4}(Passes|Pass Pipelines):", line):
            in_section = True
            continue
        if in_section and re.match(r"^\s{0,2}\S", line):
            in_section = False
        m = in_section and re.match(r"^ {6}--([A-Za-z0-9_.\-]+)\s+-\s+(.*)$", line)
        if m:
            passes.append((m.group(1), m.group(2).strip()))
    return passes


def all_pass_names() -> list[str]:
    names = set(BUILTIN_PASSES) | set(_registered)
    try:
        names |= set(plugin_passes())
    except PassRegistrationError:
        pass
    names |= {n for n, _ in cpp_passes()}
    return sorted(names)

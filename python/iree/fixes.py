"""``opt-py compile --fixes``: every opt-py fix at its documented point, for the target at hand.

A user should not need to know which pass fixes which IREE bug, nor where in
IREE's compilation each must run. A ``Fix`` names a pass and the point it is
proven at: a phase (``--inject PHASE:...``) or, for a fix that must run in the
middle of a dispatch's code generation, a codegen point per target kind
(``--inject-codegen before|after:PASS:...``). Fixes sharing a phase run at one
stop, in the order listed here.

A user turns ``--fixes`` on blind, so it must cost nothing where it finds
nothing: each fix names the ops it works on (``ops``) and runs only where one
is in the module (its module is not even imported otherwise). A fix that
rewrites what stock compiles fine, for a failure only some programs have
(``failure``), is held back: it runs only in a second compile of a program
whose first one failed with that error.

The contract, checked on the test programs, the model corpora and the peers'
suites: with ``--fixes`` a program compiles wherever stock IREE compiles, and
its numbers equal stock's or are right where stock's are wrong.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from ..errors import CompileError
from .codegen import CodegenInjection
from .phases import PHASES, CompileResult, Injection

# The failures held-back fixes exist for, as IREE words them.
WORKGROUP_MEMORY = r"bytes of shared memory; exceeded the limit of"  # GPUCheckResourceUsage
STACK = r"exceeded stack allocation limit of|expected no unbounded stack allocations|stack allocation size overflows"  # LLVMCPUCheckIRBeforeLLVM...

# The named linalg ops with reduction loops (linalg-empty-loop-to-init's roots; kept in step by test_fixes.py).
EMPTY_LOOP_ROOTS = (
    "linalg.reduce",
    *(
        f"linalg.{n}"
        for n in (
            "batch_matmul batch_matvec batch_mmt4d batch_reduce_matmul batch_vecmat contract dot matmul matvec mmt4d "
            "quantized_batch_matmul quantized_matmul vecmat conv_1d conv_1d_ncw_fcw conv_1d_nwc_wcf conv_2d "
            "conv_2d_nchw_fchw conv_2d_nchw_fchw_q conv_2d_ngchw_fgchw conv_2d_ngchw_gfchw conv_2d_ngchw_gfchw_q "
            "conv_2d_nhwc_fhwc conv_2d_nhwc_fhwc_q conv_2d_nhwc_hwcf conv_2d_nhwc_hwcf_q conv_2d_nhwgc_gfhwc "
            "conv_2d_nhwgc_gfhwc_q conv_3d conv_3d_ncdhw_fcdhw conv_3d_ndhwc_dhwcf conv_3d_ndhwc_dhwcf_q "
            "depthwise_conv_1d_ncw_cw depthwise_conv_1d_nwc_wc depthwise_conv_1d_nwc_wcm depthwise_conv_2d_nchw_chw "
            "depthwise_conv_2d_nhwc_hwc depthwise_conv_2d_nhwc_hwc_q depthwise_conv_2d_nhwc_hwcm "
            "depthwise_conv_2d_nhwc_hwcm_q depthwise_conv_3d_ncdhw_cdhw depthwise_conv_3d_ndhwc_dhwc "
            "depthwise_conv_3d_ndhwc_dhwcm pooling_nchw_max pooling_nchw_sum pooling_ncw_max pooling_ncw_sum "
            "pooling_ndhwc_max pooling_ndhwc_min pooling_ndhwc_sum pooling_nhwc_max pooling_nhwc_max_unsigned "
            "pooling_nhwc_min pooling_nhwc_min_unsigned pooling_nhwc_sum pooling_nwc_max pooling_nwc_max_unsigned "
            "pooling_nwc_min pooling_nwc_min_unsigned pooling_nwc_sum"
        ).split()
    ),
)
# The math ops math-inline-libm-calls rewrites where its targets cannot link them (its patterns' roots).
MATH_LIBM_ROOTS = (
    "arith.remf",
    *(f"math.{n}" for n in "acos asin atan atan2 cbrt ceil cos erf log10 log2 sin tan tanh trunc".split()),
)
# The torch ops IREE's frontend has no lowering for reach it as torch.operator "name".
TORCH_OPERATOR = ("torch.operator",)
# What IREE's vectorizer makes a vector.gather of, as a dispatch has it before its code generation: a
# tensor.extract in a generic's body, a gather op; vector.gather itself, should a dispatch carry one.
GATHER_SOURCES = ("tensor.extract", "tensor.gather", "iree_linalg_ext.gather", "vector.gather")


@dataclass(frozen=True)
class Fix:
    name: str  # the pass
    fixes: str  # what it fixes, one line
    ops: tuple[str, ...]  # the ops it works on: it runs only where one of them is in the module at its point
    phase: str | None = None  # phase-level injection point
    codegen: dict = field(default_factory=dict)  # target kind -> "before:PASS" / "after:PASS"
    targets: tuple = ("cpu", "cuda", "rocm", "other")  # where the phase-level injection applies
    options: dict = field(default_factory=dict)  # target kind -> pass options there, e.g. "{rule=gpu}"
    failure: str | None = None  # held back until a compile fails with this (a regex of IREE's error)

    def spelled(self, kind: str) -> str:
        """The pass as the pipeline for ``kind`` names it (with that target's options)."""
        return self.name + self.options.get(kind, "")


FIXES: tuple[Fix, ...] = (
    # The module as parsed: torch ops IREE's frontend lowering has no conversion for. Before the frontend runs,
    # so its decompositions and canonicalizations see ops they know; on another input there is nothing to match.
    Fix(
        "torch-decompose-diff",
        "torch.aten.diff has no lowering (transformers' attention masks): slices and subtractions",
        phase="start",
        ops=TORCH_OPERATOR,
    ),
    Fix(
        "torch-and-to-bitwise-and",
        "torch.aten.__and__.Tensor has no linalg lowering (transformers' masks): bitwise_and.Tensor",
        phase="start",
        ops=("torch.aten.__and__.Tensor",),
    ),
    Fix(
        "torch-xor-to-bitwise-xor",
        "torch.aten.__xor__.Tensor is not a torch-mlir op (a ^ b on tensors, a torch.operator): bitwise_xor.Tensor",
        phase="start",
        ops=TORCH_OPERATOR,
    ),
    Fix(
        "torch-bitwise-convert-operands",
        "a bitwise or/and/xor of a ui8 and a wider integer sign-extends the ui8 (ui8 | si32: -56 for 200), and "
        "bool | ui8 aborts the compile: the operands converted to the result's dtype first",
        phase="start",
        ops=(
            "torch.aten.__or__.Tensor",
            "torch.aten.bitwise_or.Tensor",
            "torch.aten.bitwise_and.Tensor",
            "torch.aten.bitwise_xor.Tensor",
        ),
    ),
    Fix(
        "torch-decompose-logsumexp",
        "torch.aten.logsumexp has no lowering (its constants fail IREE's input conversion): "
        "written as torch._refs.logsumexp decomposes it",
        phase="start",
        ops=("torch.aten.logsumexp",),
    ),
    Fix(
        "torch-topk-unsorted-as-sorted",
        "torch.topk(sorted=False) is not lowered (DeepSeek-V3's routing): computed sorted, an order it allows",
        phase="start",
        ops=("torch.aten.topk",),
    ),
    Fix(
        "torch-decompose-histc",
        "torch.aten.histc has no lowering (transformers' default MoE experts count tokens per expert): "
        "comparisons and a sum, binned as torch's CPU kernel",
        phase="start",
        ops=TORCH_OPERATOR,
    ),
    Fix(
        "torch-decompose-grouped-mm",
        "transformers::grouped_mm_fallback and aten._grouped_mm have no lowering (transformers' default MoE "
        "experts): each row's expert matrix gathered and a batched matmul",
        phase="start",
        ops=TORCH_OPERATOR,
    ),
    Fix(
        "torch-concat-as-cat",
        "torch.concat and torch.concatenate are unknown to torch-mlir (PhiMoE's router): the cat they alias",
        phase="start",
        ops=TORCH_OPERATOR,
    ),
    Fix(
        "torch-scatter-wrap-dim",
        "a scatter with a negative dim crashes torch-mlir's lowering (PhiMoE's router): dim + rank, as torch wraps it",
        phase="start",
        ops=(
            "torch.aten.scatter.reduce",
            "torch.aten.scatter.src",
            "torch.aten.scatter.value",
            "torch.aten.scatter.value_reduce",
            "torch.aten.scatter_add",
            "torch.aten.scatter_reduce.two",
        ),
    ),
    # On the module as parsed, before IREE's torch frontend lowers the reshape (and crashes on it); the
    # frontend passes the empty tensor through. Views made later by decompositions need
    # --inject-input before:convert-torch-to-linalg (docs/passes/torch-zero-size-reshape-to-empty.md).
    Fix(
        "torch-zero-size-reshape-to-empty",
        "a torch/ONNX reshape of a tensor with a 0-sized dim: IREE's view lowering divides by zero (SIGFPE)",
        phase="start",
        ops=("torch.aten._unsafe_view", "torch.aten.reshape", "torch.aten.view", "torch.operator"),
    ),
    # On the module as parsed: the roll must be fixed before IREE's torch frontend decomposes it.
    Fix(
        "torch-roll-shift-mod-size",
        "torch.roll by more than the dim's size: IREE's torch frontend returns the tensor unrotated",
        phase="start",
        ops=("torch.aten.roll",),
    ),
    # On the module as parsed: torch-mlir's TorchToLinalg writes gelu(tanh) with its own constant.
    Fix(
        "torch-decompose-gelu-tanh",
        'torch.aten.gelu(approximate="tanh") lowered with 0.7977240 for sqrt(2/pi) (Gemma\'s gelu_pytorch_tanh): '
        "wrong numbers; written out as PyTorch computes it",
        phase="start",
        ops=("torch.aten.gelu",),
    ),
    # On the module as parsed: torch-mlir has no op for argsort.stable; aten.argsort's lowering sorts stably.
    Fix(
        "torch-argsort-stable-as-argsort",
        "torch.argsort(stable=True) exports as torch.aten.argsort.stable, which has no lowering: aten.argsort",
        phase="start",
        ops=TORCH_OPERATOR,
    ),
    # On the module as parsed: torch-mlir's TorchToLinalg writes integer floor division through f32.
    Fix(
        "torch-floor-divide-exact",
        "si32/si64 floor division (a // b, div rounding_mode='floor') computed in f32 by torch-mlir: "
        "wrong beyond 2^24 ((2^63 - 2) // 2^30 off by one); written as an integer division and its correction",
        phase="start",
        ops=(
            "torch.aten.div.Scalar_mode",
            "torch.aten.div.Tensor_mode",
            "torch.aten.floor_divide",
            "torch.aten.floor_divide.Scalar",
        ),
    ),
    # On the module as parsed, before torch-sdpa-masked-rows-zero, which then works on types that agree.
    Fix(
        "torch-sdpa-agree-shapes",
        "scaled_dot_product_attention whose q, k, v, mask and result differ in which sizes are static, or whose "
        "mask has a lower rank, fails torch-mlir's lowering: the static sizes one proves, the mask unsqueezed",
        phase="start",
        ops=("torch.aten.scaled_dot_product_attention",),
    ),
    # On the module as parsed: the mask is still the one torch passed (IREE's frontend folds it into the
    # attention op's own i1 mask).
    Fix(
        "torch-sdpa-masked-rows-zero",
        "scaled_dot_product_attention rows a mask hides from every key: NaN from IREE's attention, 0 in torch; "
        "computed unmasked and given 0 times their output",
        phase="start",
        ops=("torch.aten.scaled_dot_product_attention",),
    ),
    # On the module as parsed: the ONNX ops must still be torch.operator, before the ONNX-to-torch conversion
    # reads their axes operand.
    Fix(
        "onnx-runtime-axes-as-select",
        "an ONNX ReduceX or CumSum whose axes are a runtime tensor has no lowering: one copy per axes "
        "the static types allow, selected at run time",
        phase="start",
        ops=TORCH_OPERATOR,
    ),
    # On the module as parsed: IREE's frontend recomposes an unpacked meshgrid into untyped !torch.tensor ops
    # (torch-recompose-complex-ops, its first torch pass).
    Fix(
        "torch-decompose-meshgrid",
        "torch.meshgrid fails IREE's torch frontend (untyped !torch.tensor results; vision models' coordinate "
        "grids): each grid a view of its input expanded",
        phase="start",
        ops=("torch.aten.meshgrid", "torch.aten.meshgrid.indexing"),
    ),
    # On the module as parsed: IREE lowers view.dtype in torch-iree-bitcast-tensor, which runs before
    # torch-mlir's decomposition of signbit makes one.
    Fix(
        "torch-decompose-signbit",
        "torch.signbit and torch.copysign of floats fail IREE's torch frontend (their view.dtype is made after "
        "IREE's bitcast lowering ran): the same decomposition, made first",
        phase="start",
        ops=("torch.aten.signbit", "torch.aten.copysign.Tensor"),
    ),
    # On the module as parsed: IREE's frontend turns aten.pad "reflect" with six pads into reflection_pad3d.
    Fix(
        "torch-decompose-reflection-pad3d",
        "torch.aten.reflection_pad3d has no linalg lowering (F.pad 'reflect' on 5-d tensors, Conv3d with "
        "padding_mode='reflect': video autoencoders): flipped slices concatenated",
        phase="start",
        ops=("torch.aten.reflection_pad3d", "torch.aten.pad"),
    ),
    Fix(
        "torch-decompose-scaled-mm",
        "torch.aten._scaled_mm has no linalg lowering (fp8 inference): operands in f32 times their "
        "tensor-wise or row-wise scales, an f32 matmul, as PyTorch's CPU kernel",
        phase="start",
        ops=("torch.aten._scaled_mm",),
    ),
    Fix(
        "torch-decompose-xlogy",
        "torch.aten.xlogy.Tensor has no lowering (wav2vec2-style codebook perplexity, entropies): NaN where y "
        "is, 0 where x == 0, else x * log(y), as PyTorch defines it",
        phase="start",
        ops=("torch.aten.xlogy.Tensor",),
    ),
    # On the module as parsed: its float key is a view.dtype, which IREE lowers only in torch-iree-bitcast-tensor.
    Fix(
        "torch-decompose-kthvalue",
        "torch.kthvalue fails IREE's torch frontend (tm_tensor.topk is never converted): a smallest-k top-k "
        "of a key ordering NaN last, the value gathered",
        phase="start",
        ops=("torch.aten.kthvalue",),
    ),
    # On the module as parsed: IREE's frontend turns the mask into nonzero and a scatter.
    Fix(
        "torch-index-put-bool-mask",
        "index_put with a bool mask fails IREE where the selected count has a static length (x[mask] = feats, "
        "a mask beside an integer index) or a None precedes the mask: a select, or the mask's positions",
        phase="start",
        ops=("torch.aten.index_put",),
    ),
    # On the module as parsed: IREE's frontend decomposes adaptive_max_pool2d into max_pool2d.
    Fix(
        "torch-adaptive-max-pool2d-as-3d",
        "adaptive_max_pool2d whose windows vary or are dynamic fails IREE's frontend (its max_pool2d "
        "decomposition holds only for fixed windows): a 3-d adaptive pool over a unit depth",
        phase="start",
        ops=("torch.aten.adaptive_max_pool2d",),
    ),
    Fix(
        "torch-decompose-weight-norm",
        "torch.aten._weight_norm has no torch-mlir op (wav2vec2, HuBERT, WavLM: their weight-normalized "
        "positional convolution; aten._weight_norm_interface decomposes mistyped): v * (g / norm_except_dim(v, 2, "
        "dim)), as PyTorch defines it",
        phase="start",
        ops=(*TORCH_OPERATOR, "torch.aten._weight_norm_interface"),
    ),
    # After IREE's input conversion, before global optimization: its const-eval compiles a K = 0 matmul of
    # zero-size (constant) operands in a JIT of its own, which injections at a later phase never reach.
    Fix(
        "linalg-empty-loop-to-init",
        "a named linalg op with a loop of static range 0 (a K = 0 matmul, a reduction over an empty dim): "
        "iree-flow-annotate-dispatches divides by the range (SIGFPE); the result is its init",
        phase="input",
        ops=EMPTY_LOOP_ROOTS,
    ),
    # After IREE's input conversion: its f64-to-f32 demotion (and the other type demotions) runs at the end of
    # it, after the torch frontend wrote the ABI's imports and exports.
    Fix(
        "abi-convert-demoted-tensors",
        "f64 torch programs under IREE's default f64-to-f32 demotion: the ABI reads the caller's f64 buffers as "
        "f32 and returns f32 data as f64 views (hal.buffer_view.create fails); converted at the boundary",
        phase="input",
        ops=("hal.tensor.barrier", "hal.tensor.export", "hal.tensor.import"),
    ),
    # Before global optimization: its const-eval compiles constant subgraphs for the host's llvm-cpu in a JIT of
    # its own (whatever the target), which injections at a later phase never reach; the module's device targets
    # are known from preprocessing on. On GPU targets only ops computed from constants are rewritten.
    Fix(
        "math-inline-libm-calls",
        "math ops llvm-cpu lowers to libm calls its embedded ELF cannot link (undefined symbol: log10f; f64 sin, "
        "tanh, erf, ... with --iree-input-demote-f64-to-f32=false): written out with musl's f64 log/exp and floor",
        phase="preprocessing",
        ops=MATH_LIBM_ROOTS,
    ),
    # On GPUs the GPU rule (argmax, rank counts, chunks with rank picks), composites materialized.
    Fix(
        "sort-slice-to-topk",
        "a sort read only through a leading slice (torch.topk, argsort[:k]): IREE's "
        "O(n^2) sort becomes a top-k, an arg-max, a rank count or chunks",
        phase="global-optimization",
        targets=("cpu", "cuda", "rocm"),
        options={"cuda": "{rule=gpu materialize=true}", "rocm": "{rule=gpu materialize=true}"},
        ops=("iree_linalg_ext.sort",),
    ),
    # CPU only, and held back: on static rows stock compiles it is 0.39x-1.56x stock's time (its page). After
    # sort-slice-to-topk (its top-k forms beat a sort where they apply; this takes what it leaves), before
    # dispatch creation puts the values in a read-only binding. GPUs: sort-drop-unused-results.
    Fix(
        "argsort-indices-only",
        "an argsort keeping only the indices (torch.sort(x)[1]) over a dynamic or long row: "
        "IREE copies the values to the stack, unbounded or over its limit",
        phase="global-optimization",
        targets=("cpu",),
        ops=("iree_linalg_ext.sort",),
        failure=STACK,
    ),
    # Where the rotated read reaches dispatch creation as a linalg.generic (any target: all tile it).
    Fix(
        "rotation-map-to-slices",
        "a linalg.generic reading an input through a rotation (d + c) mod n: tiling refuses "
        "the map (wrong numbers in older IREE)",
        phase="global-optimization",
        ops=("linalg.generic",),
    ),
    # Before dispatch creation clones the fill into the scan's dispatch (any target: each sizes the temporary
    # by the dims' upper bound).
    Fix(
        "scan-fill-input-as-generic",
        "a cumulative sum or product of a splat over a dynamic dim (torch.cumsum of torch.ones: OPT's positions, "
        "Falcon's ALiBi): IREE allocates the splat inside the scan's dispatch by the dim's upper bound (2^55 bytes)",
        phase="global-optimization",
        ops=("iree_linalg_ext.scan",),
    ),
    # GPU only, and held back: the fusion it unblocks keeps a dispatch within a GPU's workgroup memory, where
    # the program overflows it; elsewhere it rewrites what stock compiles and runs well (a BERT ran slower on an
    # H200). On the CPU no faster, and IREE compiles the rewritten program slower (its page has the figures).
    Fix(
        "fold-collapse-shape-into-generic",
        "reshapes between generics that block fusion, where a dispatch overflows workgroup memory",
        phase="global-optimization",
        targets=("cuda", "rocm"),
        ops=("linalg.generic", "tensor.collapse_shape"),
        failure=WORKGROUP_MEMORY,
    ),
    # GPU only, and held back: the full-size temporaries it removes matter where a dispatch overflows workgroup
    # memory; elsewhere its decomposed softmax can run slower than IREE's own lowering (its page has the figures).
    Fix(
        "softmax-fuse-elementwise",
        "softmax/normalization fused with its neighbours without full-size temporaries, where a dispatch "
        "overflows workgroup memory",
        phase="global-optimization",
        targets=("cuda", "rocm"),
        ops=("linalg.generic", "linalg.softmax"),
        failure=WORKGROUP_MEMORY,
    ),
    # GPU only: on the CPU stock is right without a mask, and the mask would cost a little.
    Fix(
        "attention-add-zero-mask",
        "attention over a dynamic key length without a mask (nn.MultiheadAttention, "
        "a TransformerEncoder): wrong numbers on GPUs, the padded keys unmasked",
        phase="global-optimization",
        targets=("cuda", "rocm"),
        ops=("iree_linalg_ext.attention",),
    ),
    # GPU only: on the CPU stock tiles the arg_compare right; before dispatch creation, where IREE's torch frontend
    # has made the arg_compare and no codegen has tiled it.
    Fix(
        "arg-compare-dynamic-as-generic",
        "torch.argmax / argmin over a dynamic dim (CLIP's text pooling) fails for GPUs: IREE's partial-reduction "
        "tiling of arg_compare mis-sizes the last tile ('size mismatch'); the same reduction as a linalg.generic",
        phase="global-optimization",
        targets=("cuda", "rocm"),
        ops=("iree_linalg_ext.arg_compare",),
    ),
    Fix(
        "clone-splat-dispatch-per-tied-use",
        "scatters into one broadcast destination merged by stream's CSE "
        "(wrong numbers, e.g. an MoE router over a dynamic token count)",
        phase="flow",
        ops=("flow.dispatch",),
    ),
    # After clone-splat: once each in-place use of a splat-like dispatch has its own dispatch, only values
    # stream really shares are left for this one to copy.
    Fix(
        "copy-shared-tied-operand",
        "a value written in place and also used elsewhere (returned, read) seen "
        "with the writes: stream reorders the reader's copy, or the ABI returns the written argument",
        phase="flow",
        ops=("flow.dispatch",),
    ),
    # After copy-shared-tied-operand, for reading: that one copies the shared values whose writes stream
    # sees, this one those a util.optimization_barrier hides from it. Each copy replaces one tied operand
    # by a fresh value the other pass leaves alone, so either order gives the same copies.
    Fix(
        "copy-tied-operand-through-barrier",
        "a constant, global or shared value reaching an in-place op through an optimization barrier "
        "(util.unfoldable_constant, jax.lax.optimization_barrier) is written in place: results change "
        "from call to call, and a module loaded read-only (mmap) faults",
        phase="flow",
        ops=("util.optimization_barrier",),
    ),
    # On the CPU without the working copy: stock's CPU code makes that copy itself, and an explicit one over a
    # dynamic length is sized by the assumed maximum (a 2^56-byte allocation) where stock's error was clearer.
    Fix(
        "sort-drop-unused-results",
        "top-k keeping only some sort results fails to bufferize for GPUs",
        phase="executable-sources",
        options={"cpu": "{copy-read-only=false}"},
        ops=("iree_linalg_ext.sort",),
    ),
    Fix(
        "fold-subview-into-gather",
        "subviews fold-memref-alias-ops cannot fold into a gather (wrong reads on CUDA)",
        codegen={
            "cuda": "before:iree-codegen-fold-memref-alias-ops",
            "rocm": "before:iree-codegen-fold-memref-alias-ops",
        },
        ops=GATHER_SOURCES,
    ),
    Fix(
        "fold-collapse-shape-into-store",
        "IREE's reshape-into-store fold writes to wrong addresses",
        phase="executable-sources",
        ops=("iree_tensor_ext.dispatch.tensor.store", "tensor.expand_shape"),
    ),
    # Held back: it rewrites every tile destination it can prove, while IREE's own empty-tensor elimination
    # already avoids the allocation for tiles that keep all their dims; the blow-up is a failure to compile.
    Fix(
        "forall-reuse-shared-outs",
        "a tile of scf.forall allocated privately: the stack or workgroup memory overflows",
        phase="executable-sources",
        ops=("tensor.empty",),
        failure=f"{STACK}|{WORKGROUP_MEMORY}",
    ),
)

TARGET_KINDS = ("cpu", "cuda", "rocm")


def target_kind(iree_flags) -> str:
    """'cpu', 'cuda', 'rocm' or 'other', from iree-compile's target flags."""
    devices, backends = [], []
    for f in iree_flags:
        name, _, value = f.partition("=")
        if name == "--iree-hal-target-device":
            devices.append(value.split("[")[0])
        elif name in ("--iree-hal-local-target-device-backends", "--iree-hal-target-backends"):
            backends += value.split(",")
    kinds = {"local": "cpu", "llvm-cpu": "cpu", "cuda": "cuda", "hip": "rocm", "rocm": "rocm"}
    found = {kinds.get(x, "other") for x in devices + backends if not (x == "local" and backends)}
    if len(found) != 1:
        return "other"
    return found.pop()


def select(spec: str) -> list[Fix]:
    """The fixes named by ``--fixes=a,b`` (all for ``all`` or an empty spec), in table order."""
    known = {f.name: f for f in FIXES}
    names = [n.strip() for n in spec.split(",") if n.strip()] if spec not in ("", "all") else list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise CompileError(f"unknown fix(es) {', '.join(unknown)} in --fixes (fixes: {', '.join(known)})")
    return [f for f in FIXES if f.name in names]


def injections(
    fixes: list[Fix], iree_flags, compile_to: str | None = None
) -> tuple[list[Injection], list[CodegenInjection]]:
    """The phase and codegen injections carrying ``fixes`` for the flags' target, each guarded by its ops;
    with ``compile_to`` (--compile-to) only those that run before that stop, as stock's IR there has none
    of the later ones. Fixes sharing a codegen point share one injection (one capture of the dispatches)."""
    kind = target_kind(iree_flags)
    end = PHASES.index(compile_to) if compile_to in PHASES else len(PHASES)
    codegen_ok = PHASES.index("executable-configurations") < end
    phase_level: list[Injection] = []
    by_point: dict[str, list[Fix]] = {}
    for f in fixes:
        if f.phase and kind in f.targets and PHASES.index(f.phase) < end:
            phase_level.append(Injection(f.phase, f.spelled(kind), frozenset(f.ops)))
        if f.codegen.get(kind) and codegen_ok:
            by_point.setdefault(f.codegen[kind], []).append(f)
    codegen = []
    for point, at in by_point.items():
        inj = CodegenInjection.parse(f"{point}:{','.join(f.spelled(kind) for f in at)}")
        inj.ops = frozenset(op for f in at for op in f.ops)
        codegen.append(inj)
    return phase_level, codegen


def specs(spec: str, iree_flags) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ``--inject`` and ``--inject-codegen`` arguments that run the fixes ``spec`` names unconditionally:
    for tools that vary or leave out one fix (``--fixes`` itself runs each on its ops and holds some back)."""
    phase, codegen = injections(select(spec), iree_flags)
    return tuple(f"{j.phase}:{j.pipeline}" for j in phase), tuple(c.spelled() for c in codegen)


def applies(f: Fix, iree_flags, compile_to: str | None = None) -> bool:
    """Whether ``f`` is injected for the flags' target (before ``compile_to``)."""
    return any(injections([f], iree_flags, compile_to))


@dataclass
class FixRun:
    """What ``--fixes`` did in a compile: the fixes chosen, those held back and never needed, and those a
    first compile's failure brought into a second one (with that failure's line)."""

    chosen: list[Fix]
    held: list[Fix] = field(default_factory=list)
    brought: list[Fix] = field(default_factory=list)
    failure: str = ""
    const_eval: bool = False  # opt-py evaluated the constants, the fixes inside (IREE's failed in its phase)


def compile_with_fixes(
    input_path: str,
    iree_flags: list[str],
    spec: str = "all",
    *,
    injections_after: tuple = (),
    codegen_after: tuple = (),
    compile_to: str | None = None,
    leave_out: tuple[str, ...] = (),
    **compile_options,
) -> tuple[CompileResult, FixRun]:
    """Compile with the fixes ``spec`` names (``--fixes=spec``), then the caller's injections at each point.

    With every fix (``all``), the held-back ones (``Fix.failure``) are left out of the compile; if it fails
    with the failure one of them exists for, the program is compiled again with those too, until it
    compiles or no held-back fix answers its error. Named fixes all run in the first compile. IREE's
    const-eval JIT, a compile of its own where no fix runs, is held back the same way: if the compile
    fails in global-optimization (where that JIT runs), it is compiled again with opt-py's const-eval,
    the fixes inside (iree/const_eval.py), which costs a nested compile of its own where IREE's works.
    ``leave_out``: fixes dropped from ``spec``, the others run as ``spec`` runs them (with ``all``, the
    held-back ones still held back): ``--fixes`` minus one, to find what one fix costs (opt-py bundle)."""
    from .const_eval import PHASE as CONST_EVAL_PHASE  # where IREE's const-eval JIT runs
    from .phases import compile_with_injections

    dropped = {f.name for f in select(",".join(leave_out))} if leave_out else set()
    run = FixRun([f for f in select(spec) if f.name not in dropped])
    if spec in ("", "all"):
        run.held = [f for f in run.chosen if f.failure and applies(f, iree_flags, compile_to)]
    # Where opt-py could take const-eval over, a stop after global-optimization tells a failure there.
    can_take = const_eval_takeover(run.chosen, iree_flags, compile_to)[0] is not None
    after = dict(compile_options.pop("after_phase", None) or {})
    if can_take:
        after.setdefault(CONST_EVAL_PHASE, [])
    data = None
    if (run.held or can_take) and not _regular_file(input_path):
        with open(input_path, "rb") as f:  # a stream is read once, for every compile
            data = f.read()
    notes: list[str] = []
    while True:
        fixes = [f for f in run.chosen if f not in run.held]
        phase, codegen = injections(fixes, iree_flags, compile_to)
        const_eval, flags = None, iree_flags
        if run.const_eval:
            const_eval, flags, said = const_eval_takeover(fixes, iree_flags, compile_to)
            notes += [n for n in said if n not in notes]
        result = compile_with_injections(
            input_path,
            flags,
            [*phase, *injections_after],
            codegen_injections=[*codegen, *codegen_after],
            compile_to=compile_to,
            data=data,
            const_eval=const_eval,
            after_phase=after,
            **compile_options,
        )
        if result.ok:
            break
        text = "\n".join(result.messages)
        if can_take and not run.const_eval and f"before reaching phase '{CONST_EVAL_PHASE}'" in text:
            run.const_eval = True
            notes.append(
                f"opt-py: note: IREE failed in {CONST_EVAL_PHASE}, where its const-eval JIT compiles constants "
                "without the fixes: compiling again with opt-py's const-eval, the fixes inside"
            )
            continue
        wanted = [f for f in run.held if re.search(f.failure, text)]
        if not wanted:
            break
        line = next(m for m in result.messages if any(re.search(f.failure, m) for f in wanted))
        run.failure = run.failure or line.strip().splitlines()[0]
        run.held = [f for f in run.held if f not in wanted]
        run.brought += wanted
        notes.append(
            f"opt-py: note: IREE failed with '{line.strip().splitlines()[0]}': compiling again with "
            f"{', '.join(f.name for f in wanted)} (--fixes runs them only where a program has that failure)"
        )
    result.messages[:0] = notes
    return result, run


def const_eval_takeover(chosen, iree_flags, compile_to: str | None = None):
    """IREE's const-eval JIT is a compile of its own where no injection runs: opt-py's const-eval with
    ``chosen`` inside (a ``ConstEval`` step, or None where it stays IREE's), the outer flags, notes."""
    from .const_eval import takeover

    return takeover(lambda nested: injections(list(chosen), nested), iree_flags, compile_to)


def _regular_file(path: str) -> bool:
    import os
    import stat

    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # the compile reports it


def describe(iree_flags) -> str:
    """The ``--list-fixes`` table for the flags' target."""
    kind = target_kind(iree_flags)
    rows = [f"fixes for target '{kind}':"]
    for f in FIXES:
        where = [f"--inject {shlex.quote(f'{f.phase}:{f.spelled(kind)}')}"] if f.phase and kind in f.targets else []
        if f.codegen.get(kind):
            where.append(f"--inject-codegen {shlex.quote(f'{f.codegen[kind]}:{f.spelled(kind)}')}")
        rows.append(f"  {f.name:<34} {' and '.join(where) or '(none for this target)'}")
        rows.append(f"  {'':<34} {f.fixes}")
        if where:
            rows.append(f"  {'':<34} runs where the module has {' or '.join(f.ops)}")
            if f.failure:
                rows.append(
                    f"  {'':<34} held back: runs only in a second compile, after IREE failed with '{f.failure}'"
                )
    return "\n".join(rows)


def report(run: FixRun, iree_flags, result: CompileResult, compile_to: str | None = None) -> str:
    """The ``--fixes-report`` table: each fix injected for the flags' target, where it ran, the time it
    took and what it rewrote where (``result.rewrites``: ``authoring.Rewrite`` records); fixes that found
    none of their ops, held-back fixes no failure called for; last, the fixes' time in all."""
    kind = target_kind(iree_flags)
    seconds = result.seconds
    ran = [f for f in run.chosen if f not in run.held]
    phases, codegen = injections(ran, iree_flags, compile_to)
    ran_at = {}
    for j in phases:
        ran_at.setdefault(j.pipeline.split("{", 1)[0], []).append(j.phase)
    for c in codegen:
        for name in c.pipeline.split(","):
            ran_at.setdefault(name.split("{", 1)[0], []).append(f"codegen {c.where}:{c.pass_name}")
    by_pass: dict[str, list] = {}
    for r in result.rewrites:
        by_pass.setdefault(r.pass_name, []).append(r)
    rows = [f"opt-py: fixes report (target '{kind}'):"]
    if run.brought:
        rows.append(f"  (a first compile failed with '{run.failure}': compiled again with the fixes for it)")
    if run.const_eval:
        rows.append("  (IREE failed where its const-eval runs: opt-py evaluated the constants, the fixes inside)")
    for f in run.chosen:
        if f in run.held:
            rows.append(f"  {f.name:<34} {'held back':<22} {'':>8}  no compile failed with the failure it is for")
            continue
        if f.name not in ran_at:
            continue
        done = by_pass.get(f.name, [])
        where = ", ".join(ran_at[f.name])
        if f.name not in seconds:
            rows.append(f"  {f.name:<34} {where:<22} {'0 ms':>8}  none of its ops in the module: not run")
            continue
        took = f"{seconds[f.name] * 1e3:.0f} ms"
        if not done:
            rows.append(f"  {f.name:<34} {where:<22} {took:>8}  nothing to rewrite")
            continue
        counts = {}
        for r in done:
            counts[r.what] = counts.get(r.what, 0) + 1
        what = ", ".join(f"{n} x {w}" for w, n in counts.items())
        rows.append(f"  {f.name:<34} {where:<22} {took:>8}  {what}")
        places = list(dict.fromkeys(f"'{r.op_name}' at {r.where}" for r in done))
        more = f" and {len(places) - 3} more" if len(places) > 3 else ""
        rows.append(f"  {'':<34} {'':<22} {'':>8}  {'; '.join(places[:3])}{more}")
    total = sum(seconds.get(f.name, 0.0) for f in ran if f.name in ran_at)
    rows.append(f"opt-py: the fixes took {total:.3f} s in all (the rest of the compile is IREE's)")
    return "\n".join(rows)

"""``opt-py compile --fixes``: every opt-py fix at its documented point, for the target at hand.

A user should not need to know which pass fixes which IREE bug, nor where in
IREE's compilation each must run. A ``Fix`` names a pass and the point it is
proven at: a phase (``--inject PHASE:...``) or, for a fix that must run in the
middle of a dispatch's code generation, a codegen point per target kind
(``--inject-codegen before|after:PASS:...``). Fixes sharing a phase run as
one pipeline, in the order listed here, so the compilation stops once per
phase.

The contract, checked on the test programs and the real-model corpus: with
``--fixes`` a program compiles wherever stock IREE compiles, and its numbers
equal stock's or are right where stock's are wrong.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from ..errors import CompileError
from .codegen import CodegenInjection
from .phases import PHASES, Injection


@dataclass(frozen=True)
class Fix:
    name: str  # the pass
    fixes: str  # what it fixes, one line
    phase: str | None = None  # phase-level injection point
    codegen: dict = field(default_factory=dict)  # target kind -> "before:PASS" / "after:PASS"
    targets: tuple = ("cpu", "cuda", "rocm", "other")  # where the phase-level injection applies
    options: dict = field(default_factory=dict)  # target kind -> pass options there, e.g. "{rule=gpu}"
    ops: tuple = ()  # op names at least one of which must be in the module at the fix's stop for it to have work

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
    ),
    Fix(
        "torch-and-to-bitwise-and",
        "torch.aten.__and__.Tensor has no linalg lowering (transformers' masks): bitwise_and.Tensor",
        phase="start",
    ),
    Fix(
        "torch-topk-unsorted-as-sorted",
        "torch.topk(sorted=False) is not lowered (DeepSeek-V3's routing): computed sorted, an order it allows",
        phase="start",
    ),
    Fix(
        "torch-decompose-histc",
        "torch.aten.histc has no lowering (transformers' default MoE experts count tokens per expert): "
        "comparisons and a sum, binned as torch's CPU kernel",
        phase="start",
    ),
    Fix(
        "torch-decompose-grouped-mm",
        "transformers::grouped_mm_fallback and aten._grouped_mm have no lowering (transformers' default MoE "
        "experts): each row's expert matrix gathered and a batched matmul",
        phase="start",
    ),
    Fix(
        "torch-concat-as-cat",
        "torch.concat and torch.concatenate are unknown to torch-mlir (PhiMoE's router): the cat they alias",
        phase="start",
    ),
    Fix(
        "torch-scatter-wrap-dim",
        "a scatter with a negative dim crashes torch-mlir's lowering (PhiMoE's router): dim + rank, as torch wraps it",
        phase="start",
    ),
    # On the module as parsed, before IREE's torch frontend lowers the reshape (and crashes on it); the
    # frontend passes the empty tensor through. Views made later by decompositions need
    # --inject-input before:convert-torch-to-linalg (docs/passes/torch-zero-size-reshape-to-empty.md).
    Fix(
        "torch-zero-size-reshape-to-empty",
        "a torch/ONNX reshape of a tensor with a 0-sized dim: IREE's view lowering divides by zero (SIGFPE)",
        phase="start",
    ),
    # On the module as parsed: the roll must be fixed before IREE's torch frontend decomposes it.
    Fix(
        "torch-roll-shift-mod-size",
        "torch.roll by more than the dim's size: IREE's torch frontend returns the tensor unrotated",
        phase="start",
    ),
    # On the module as parsed: torch-mlir's TorchToLinalg writes gelu(tanh) with its own constant.
    Fix(
        "torch-decompose-gelu-tanh",
        'torch.aten.gelu(approximate="tanh") lowered with 0.7977240 for sqrt(2/pi) (Gemma\'s gelu_pytorch_tanh): '
        "wrong numbers; written out as PyTorch computes it",
        phase="start",
    ),
    # On the module as parsed: torch-mlir has no op for argsort.stable; aten.argsort's lowering sorts stably.
    Fix(
        "torch-argsort-stable-as-argsort",
        "torch.argsort(stable=True) exports as torch.aten.argsort.stable, which has no lowering: aten.argsort",
        phase="start",
    ),
    # On the module as parsed: the ONNX ops must still be torch.operator, before the ONNX-to-torch conversion
    # reads their axes operand.
    Fix(
        "onnx-runtime-axes-as-select",
        "an ONNX ReduceX or CumSum whose axes are a runtime tensor has no lowering: one copy per axes "
        "the static types allow, selected at run time",
        phase="start",
    ),
    # On GPUs the GPU rule (argmax, rank counts, chunks with rank picks), composites materialized.
    Fix(
        "sort-slice-to-topk",
        "a sort read only through a leading slice (torch.topk, argsort[:k]): IREE's "
        "O(n^2) sort becomes a top-k, an arg-max, a rank count or chunks",
        phase="global-optimization",
        targets=("cpu", "cuda", "rocm"),
        options={"cuda": "{rule=gpu materialize=true}", "rocm": "{rule=gpu materialize=true}"},
    ),
    # CPU only, after sort-slice-to-topk (its top-k forms beat a sort where they apply; this takes what it
    # leaves), before dispatch creation puts the values in a read-only binding. GPUs: sort-drop-unused-results.
    Fix(
        "argsort-indices-only",
        "an argsort keeping only the indices (torch.sort(x)[1]) over a dynamic or long row: "
        "IREE copies the values to the stack, unbounded or over its limit",
        phase="global-optimization",
        targets=("cpu",),
    ),
    # Where the rotated read reaches dispatch creation as a linalg.generic (any target: all tile it).
    Fix(
        "rotation-map-to-slices",
        "a linalg.generic reading an input through a rotation (d + c) mod n: tiling refuses "
        "the map (wrong numbers in older IREE)",
        phase="global-optimization",
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
    # GPU only: the fusion it unblocks keeps a dispatch within a GPU's workgroup memory; on the CPU the programs
    # run at stock's speed without it, and IREE compiles the rewritten one slower (its page has the figures).
    Fix(
        "fold-collapse-shape-into-generic",
        "reshapes between generics that block fusion",
        phase="global-optimization",
        targets=("cuda", "rocm"),
    ),
    # GPU only: the full-size temporaries it removes are a GPU's workgroup-memory problem; on the CPU its
    # decomposed softmax can run slower than IREE's own lowering of linalg.softmax (its page has the figures).
    Fix(
        "softmax-fuse-elementwise",
        "softmax/normalization fused with its neighbours without full-size temporaries",
        phase="global-optimization",
        targets=("cuda", "rocm"),
    ),
    # GPU only: on the CPU stock is right without a mask, and the mask would cost a little.
    Fix(
        "attention-add-zero-mask",
        "attention over a dynamic key length without a mask (nn.MultiheadAttention, "
        "a TransformerEncoder): wrong numbers on GPUs, the padded keys unmasked",
        phase="global-optimization",
        targets=("cuda", "rocm"),
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
    ),
    # After clone-splat: once each in-place use of a splat-like dispatch has its own dispatch, only values
    # stream really shares are left for this one to copy.
    Fix(
        "copy-shared-tied-operand",
        "a value written in place and also used elsewhere (returned, read) seen "
        "with the writes: stream reorders the reader's copy, or the ABI returns the written argument",
        phase="flow",
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
    ),
    # On the CPU without the working copy: stock's CPU code makes that copy itself, and an explicit one over a
    # dynamic length is sized by the assumed maximum (a 2^56-byte allocation) where stock's error was clearer.
    Fix(
        "sort-drop-unused-results",
        "top-k keeping only some sort results fails to bufferize for GPUs",
        phase="executable-sources",
        options={"cpu": "{copy-read-only=false}"},
    ),
    # GPU only: on the CPU stock's gathers are right, and a codegen point costs an extra codegen run.
    Fix(
        "gather-to-load",
        "contiguous vector.gather IREE's vectorizer emits for tensor.extract reads",
        codegen={
            "cuda": "before:iree-codegen-fold-memref-alias-ops",
            "rocm": "before:iree-codegen-fold-memref-alias-ops",
        },
    ),
    Fix(
        "fold-subview-into-gather",
        "subviews fold-memref-alias-ops cannot fold into a gather (wrong reads on CUDA)",
        codegen={
            "cuda": "before:iree-codegen-fold-memref-alias-ops",
            "rocm": "before:iree-codegen-fold-memref-alias-ops",
        },
    ),
    Fix(
        "fold-collapse-shape-into-store",
        "IREE's reshape-into-store fold writes to wrong addresses",
        phase="executable-sources",
    ),
    Fix(
        "forall-reuse-shared-outs",
        "a tile of scf.forall allocated privately (stack/workgroup memory blow-up)",
        phase="executable-sources",
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
    """The phase and codegen injections carrying ``fixes`` for the flags' target; with ``compile_to``
    (--compile-to) only those that run before that stop, as stock's IR there has none of the later ones."""
    kind = target_kind(iree_flags)
    end = PHASES.index(compile_to) if compile_to in PHASES else len(PHASES)
    codegen_ok = PHASES.index("executable-configurations") < end
    by_phase: dict[str, list[str]] = {}
    by_point: dict[str, list[str]] = {}
    for f in fixes:
        if f.phase and kind in f.targets and PHASES.index(f.phase) < end:
            by_phase.setdefault(f.phase, []).append(f.spelled(kind))
        if f.codegen.get(kind) and codegen_ok:
            by_point.setdefault(f.codegen[kind], []).append(f.spelled(kind))
    return (
        [Injection(phase, ",".join(names)) for phase, names in by_phase.items()],
        [CodegenInjection.parse(f"{point}:{','.join(names)}") for point, names in by_point.items()],
    )


def specs(spec: str, iree_flags) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ``--inject`` and ``--inject-codegen`` arguments that ``--fixes=spec`` stands for."""
    phase, codegen = injections(select(spec), iree_flags)
    return (
        tuple(f"{j.phase}:{j.pipeline}" for j in phase),
        tuple(f"{c.where}:{c.pass_name}#{c.occurrence or '*'}:{c.pipeline}" for c in codegen),
    )


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
    return "\n".join(rows)


def report(chosen: list[Fix], iree_flags, rewrites, compile_to: str | None = None, seconds=None) -> str:
    """The ``--fixes-report`` table: each fix injected for the flags' target, where it ran, the time it
    took (``seconds``: pass name -> seconds) and what it rewrote where (``rewrites``: the
    ``authoring.Rewrite`` records of the compile); last, the fixes' time in all."""
    kind = target_kind(iree_flags)
    seconds = seconds or {}
    phases, codegen = injections(chosen, iree_flags, compile_to)
    ran_at = {}
    for j in phases:
        for name in j.pipeline.split(","):
            ran_at.setdefault(name.split("{", 1)[0], []).append(j.phase)
    for c in codegen:
        for name in c.pipeline.split(","):
            ran_at.setdefault(name.split("{", 1)[0], []).append(f"codegen {c.where}:{c.pass_name}")
    by_pass: dict[str, list] = {}
    for r in rewrites:
        by_pass.setdefault(r.pass_name, []).append(r)
    rows = [f"opt-py: fixes report (target '{kind}'):"]
    for f in chosen:
        if f.name not in ran_at:
            continue
        done = by_pass.get(f.name, [])
        where = ", ".join(ran_at[f.name])
        took = f"{seconds.get(f.name, 0.0) * 1e3:.0f} ms"
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
    total = sum(seconds.get(f.name, 0.0) for f in chosen if f.name in ran_at)
    rows.append(f"opt-py: the fixes took {total:.3f} s in all (the rest of the compile is IREE's)")
    return "\n".join(rows)

"""opt-py compile --fixes: which fixes, where, for which target; and the contract on known bugs.

The contract (docs/reference/fixes.md): with --fixes a program compiles wherever stock
IREE compiles, and its numbers equal stock's or are right where stock's are
wrong. The real-model corpus checks it on whole models; here, the table's
mechanics and the bugs the fixes exist for.
"""

import re
import shlex
import subprocess
import sys

import numpy as np
import pytest
from opt_py.cases import topk
from opt_py.errors import CompileError
from opt_py.execution import e2e
from opt_py.iree import fixes
from opt_py.iree.phases import PHASES
from opt_py.pipeline import registry

CPU = list(e2e.TARGETS["cpu"].compile_flags)
CUDA = list(e2e.TARGETS["cuda"].compile_flags)
ROCM = list(e2e.TARGETS["rocm"].compile_flags)


def opt_py(*args):
    return subprocess.run([sys.executable, "-m", "opt_py", *args], capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    "flags,kind",
    [
        (CPU, "cpu"),
        (CUDA, "cuda"),
        (ROCM, "rocm"),
        (["--iree-hal-target-backends=llvm-cpu"], "cpu"),
        (["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=vmvx"], "other"),
        (["--iree-hal-target-device=cuda", "--iree-hal-target-device=hip"], "other"),
        ([], "other"),
    ],
)
def test_target_kind(flags, kind):
    assert fixes.target_kind(flags) == kind


def test_every_fix_is_a_registered_pass():
    for f in fixes.FIXES:
        assert registry.builtin_pass(f.name) is not None, f.name
        assert f.phase or f.codegen or f.frontend, f"{f.name} has no injection point"


def test_selection_keeps_table_order_and_rejects_unknown_names():
    names = [f.name for f in fixes.FIXES]
    assert [f.name for f in fixes.select("all")] == names
    assert [f.name for f in fixes.select(f"{names[-1]},{names[0]}")] == [names[0], names[-1]]
    with pytest.raises(CompileError, match="unknown fix"):
        fixes.select("no-such-fix")


def test_fixes_sharing_a_phase_run_at_one_stop_in_table_order_each_on_its_ops():
    phase_level, _ = fixes.injections(fixes.select("all"), CPU)
    assert [(j.phase, j.pipeline, j.ops) for j in phase_level] == [
        (f.phase, f.spelled("cpu"), frozenset(f.ops)) for f in fixes.FIXES if f.phase and "cpu" in f.targets
    ]
    phases = [j.phase for j in phase_level]
    assert phases == sorted(phases, key=PHASES.index)


@pytest.mark.parametrize("flags", [CPU, CUDA, ROCM])
def test_a_fix_whose_order_matters_runs_after_the_fix_it_names(flags):
    """``Fix.after``: where both are injected for a target, at one stop, the named fix runs first."""
    after = {f.name: f.after for f in fixes.FIXES if f.after}
    assert after == {
        "argsort-indices-only": "sort-slice-to-topk",
        "copy-shared-tied-operand": CLONE_SPLAT,
        "torch-avg-pool-as-padded-sum": "torch-pool-unbatched-as-batched",
        "torch-bitwise-convert-operands": "torch-xor-to-bitwise-xor",
        "torch-clamp-convert-input": "torch-clip-as-clamp",
        "torch-sdpa-masked-rows-zero": "torch-sdpa-agree-shapes",
    }
    phase_level, _ = fixes.injections(fixes.select("all"), flags)
    stops = {}
    for j in phase_level:
        stops.setdefault(j.phase, []).append(j.pipeline.split("{", 1)[0])
    for name, first in after.items():
        for names in stops.values():
            if name in names:
                assert first in names and names.index(first) < names.index(name), (name, names)


CLONE_SPLAT = "clone-splat-dispatch-per-tied-use"


def test_each_fix_runs_on_the_ops_its_patterns_are_rooted_on():
    """A fix runs only where one of its ``ops`` is in the module: for a pattern pass they must be its patterns'
    roots (a root left out would skip a module the pass could rewrite); the three flow passes walk for the
    ops they name; the gather fixes run inside codegen, on gathers IREE's vectorizer makes of GATHER_SOURCES."""
    from opt_py.authoring import PatternPass
    from opt_py.passes.fold_subview_into_gather import GATHER_SOURCES

    for f in fixes.FIXES:
        p = registry.builtin_pass(f.name)()
        if f.frontend:
            assert f.name in FRONTEND_OPS and f.ops == FRONTEND_OPS[f.name], f.name
        elif f.codegen:
            assert f.ops == GATHER_SOURCES and {x.root for x in p.patterns()} <= set(f.ops), f.name
        elif isinstance(p, PatternPass):
            assert set(f.ops) == {x.root for x in p.patterns()}, f.name
        else:
            assert f.name in CUSTOM_PASS_OPS and f.ops == CUSTOM_PASS_OPS[f.name], f.name


# A frontend fix's ops are looked for in the module as parsed, before IREE's frontend makes its patterns'
# roots: every mutable argument is read through torch.copy.to_vtensor, written through overwrite.tensor.contents.
FRONTEND_OPS = {
    "torch-mutable-int-import-signless": ("torch.copy.to_vtensor", "torch.overwrite.tensor.contents"),
}


# What the passes that are not pattern passes walk for (their modules say why): a tied flow.dispatch, a barrier.
CUSTOM_PASS_OPS = {
    "clone-splat-dispatch-per-tied-use": ("flow.dispatch",),
    "copy-shared-tied-operand": ("flow.dispatch",),
    "copy-tied-operand-through-barrier": ("util.optimization_barrier",),
}


@pytest.mark.parametrize("flags", [CPU, CUDA, ROCM])
def test_every_fix_plans_for_every_target(flags):
    """--fixes does not plan its pipelines before compiling (that would import every fix): each must plan."""
    from iree.compiler import ir
    from opt_py.pipeline.plan import plan_pipeline

    phase, codegen = fixes.injections(fixes.select("all"), flags)
    with ir.Context():
        for text in [j.pipeline for j in phase] + [f"func.func({c.pipeline})" for c in codegen]:
            assert plan_pipeline(text).steps, text


def test_a_fix_limited_to_some_targets_is_left_out_elsewhere():
    other = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=vmvx"]
    limited = {f.name: f.targets for f in fixes.FIXES if "other" not in f.targets}
    assert limited == {
        "sort-slice-to-topk": ("cpu", "cuda", "rocm"),  # its forms are proven on those
        "attention-add-zero-mask": ("cuda", "rocm"),  # stock is right on the CPU
        "arg-compare-dynamic-as-generic": ("cuda", "rocm"),  # stock tiles it right on the CPU
        "argsort-indices-only": ("cpu",),  # the stack copy it avoids is the CPU's
        "softmax-fuse-elementwise": ("cuda", "rocm"),  # workgroup memory; slower than IREE's softmax on the CPU
        "fold-collapse-shape-into-generic": ("cuda", "rocm"),  # workgroup memory; no faster on the CPU
    }
    for flags, kind in ((CPU, "cpu"), (CUDA, "cuda"), (ROCM, "rocm"), (other, "other")):
        phase_level, _ = fixes.injections(fixes.select("all"), flags)
        names = {n.split("{")[0] for j in phase_level for n in j.pipeline.split(",")}
        for f in fixes.FIXES:
            if f.phase:
                assert (f.name in names) == (kind in f.targets), (f.name, kind)


def test_gpus_get_the_gpu_selection_of_the_topk_fix():
    """On cuda and rocm the top-k fix runs with the GPU rule, materialized (the forms that compile there,
    proven on an H200 through a bundle: docs/passes/sort-slice-to-topk.md); on the CPU with its full cost rule."""
    gpu = "sort-slice-to-topk{rule=gpu materialize=true}"
    for flags, spelled in ((CPU, "sort-slice-to-topk"), (CUDA, gpu), (ROCM, gpu)):
        inject, _ = fixes.specs("all", flags)
        at_global_opt = [j for j in inject if j.startswith("global-optimization:")]
        assert at_global_opt[0] == f"global-optimization:{spelled}", inject
    proc = opt_py("compile", "--list-fixes", *CUDA)
    assert "--inject 'global-optimization:sort-slice-to-topk{rule=gpu materialize=true}'" in proc.stdout


def test_fixes_sharing_a_codegen_point_run_as_one_pipeline():
    for flags in (CUDA, ROCM):
        _, codegen = fixes.injections(fixes.select("all"), flags)
        points = [(c.where, c.pass_name) for c in codegen]
        assert len(points) == len(set(points)) and codegen, flags
        assert any("fold-subview-into-gather" == c.pipeline for c in codegen)


def test_cpu_fixes_need_no_codegen_point():
    """A codegen point costs a second codegen run; on the CPU no fix needs one."""
    assert fixes.injections(fixes.select("all"), CPU)[1] == []


def test_list_fixes_names_each_fix_and_its_point():
    """--list-fixes prints FIXES: each fix once, in its order, with its point and what it fixes."""
    proc = opt_py("compile", "--list-fixes", *CUDA)
    assert proc.returncode == 0, proc.stderr
    listed = re.findall(r"^  ([\w-]+) ", proc.stdout, flags=re.M)
    assert listed == [f.name for f in fixes.FIXES]
    for f in fixes.FIXES:
        assert f.fixes in proc.stdout, f.name
        if f.phase and "cuda" in f.targets:
            spec = f"{f.phase}:{f.spelled('cuda')}"
            assert f"--inject {shlex.quote(spec)}" in proc.stdout
        if f.codegen.get("cuda"):
            spec = f"{f.codegen['cuda']}:{f.spelled('cuda')}"
            assert f"--inject-codegen {shlex.quote(spec)}" in proc.stdout
        if f.frontend and "cuda" in f.targets:
            spec = f"{f.frontend}:{f.spelled('cuda')}"
            assert f"--inject-input {shlex.quote(spec)}" in proc.stdout


def test_bare_fixes_never_swallows_the_input(tmp_path):
    out = tmp_path / "a.vmfb"
    proc = opt_py("compile", "--fixes", "examples/addi.mlir", "-o", str(out), *CPU)
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 0


def test_unknown_fix_is_a_clear_error(tmp_path):
    proc = opt_py("compile", "examples/addi.mlir", "-o", str(tmp_path / "a.vmfb"), "--fixes=nope", *CPU)
    assert proc.returncode == 1 and "unknown fix(es) nope" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "a.vmfb").exists()


def test_topk_that_stock_cannot_compile_for_cuda_compiles_with_fixes(tmp_path):
    v = topk.Variant("indices", 8, 64, "f32", 4, "desc")
    path = tmp_path / "topk.mlir"
    path.write_text(topk.program(v))
    stock = opt_py("compile", str(path), "-o", str(tmp_path / "stock.vmfb"), *CUDA)
    assert stock.returncode == 1 and "failed to bufferize op" in stock.stderr
    fixed = opt_py("compile", str(path), "-o", str(tmp_path / "fixed.vmfb"), "--fixes", *CUDA)
    assert fixed.returncode == 0, fixed.stderr


def test_topk_with_fixes_is_right_on_cpu(tmp_path):
    v = topk.Variant("both", 4, 64, "f32", None, "asc")
    path = tmp_path / "topk.mlir"
    path.write_text(topk.program(v))
    x = topk.make_input(v, np.random.default_rng(3))
    vmfb = tmp_path / "fixed.vmfb"
    proc = opt_py("compile", str(path), "-o", str(vmfb), "--fixes", *CPU)
    assert proc.returncode == 0, proc.stderr
    outs = e2e.run_runtime(vmfb.read_bytes(), e2e.TARGETS["cpu"], "topk", [x])
    assert not topk.check(v, x, outs)


@pytest.mark.parametrize("flags", [CPU, CUDA, ROCM])
def test_specs_are_the_arguments_the_injections_parse_from(flags):
    from opt_py.iree.codegen import CodegenInjection
    from opt_py.iree.phases import Injection

    phase, codegen = fixes.injections(fixes.select("all"), flags)
    inject, inject_codegen = fixes.specs("all", flags)
    assert [(j.phase, j.pipeline) for j in map(Injection.parse, inject)] == [(j.phase, j.pipeline) for j in phase]
    assert [c.spelled() for c in map(CodegenInjection.parse, inject_codegen)] == [c.spelled() for c in codegen]


def test_fixes_with_compile_to_keep_only_the_fixes_before_the_stop(tmp_path):
    """--compile-to=flow with --fixes: IR as stock's at flow, with the fixes that run before it
    (start, input, preprocessing, global-optimization) and none after (they were an error before: 'comes at or after')."""
    phase, codegen = fixes.injections(fixes.select("all"), CUDA, "flow")
    assert {j.phase for j in phase} == {"start", "input", "preprocessing", "global-optimization"} and codegen == []
    assert fixes.injections(fixes.select("all"), CUDA, "executable-configurations")[1] == []
    assert fixes.injections(fixes.select("all"), CUDA, "executable-targets")[1] != []
    out = tmp_path / "flow.mlir"
    proc = opt_py("compile", "test/models/mha_self/model.mlir", "--fixes", "--compile-to=flow", "-o", str(out), *CUDA)
    assert proc.returncode == 0, proc.stderr
    assert "stops before the fixes at flow, executable-sources, codegen: they are left out" in proc.stderr
    text = out.read_text()
    assert "flow.executable" in text and "tensor<?xf32>) outs(" in text  # the attention's zero mask


def test_the_report_names_each_fix_and_what_it_rewrote_where():
    """--fixes-report: the MoE router's top-k and its scatter are rewritten, at their lines of the model;
    fixes whose ops are not in the module did not run, a held-back fix no failure called for is listed as
    such, fixes with nothing to do are listed as such; fixes not injected for the target are not listed."""
    proc = opt_py("compile", "test/models/moe_router/model.mlir", "--fixes", "--fixes-report", "-o", "/dev/null", *CPU)
    assert proc.returncode == 0, proc.stderr
    report = proc.stderr[proc.stderr.index("opt-py: fixes report (target 'cpu'):") :].splitlines()
    rows = {line.split()[0]: line for line in report[1:] if line.startswith("  ") and line.split()[0] != "'"}
    assert "1 x sort_slice_to_topk" in rows["sort-slice-to-topk"]
    assert "1 x use given a copy" in rows["clone-splat-dispatch-per-tied-use"]
    assert "none of its ops in the module: not run" in rows["torch-decompose-diff"]
    assert "nothing to rewrite" in rows["copy-shared-tied-operand"]
    assert "held back" in rows["forall-reuse-shared-outs"]
    assert "attention-add-zero-mask" not in rows  # a GPU-only fix
    topk = report.index(rows["sort-slice-to-topk"])
    assert "'iree_linalg_ext.sort' at test/models/moe_router/model.mlir:13:25" in report[topk + 1]
    # Each fix's time, and the fixes' time in all: the sum of the rows (each rounded to 1 ms).
    fix_rows = [row for name, row in rows.items() if not name.startswith("'")]
    times = [int(row.split(" ms ", 1)[0].split()[-1]) for row in fix_rows if "held back" not in row]
    total = float(report[-1].split("the fixes took ", 1)[1].split(" s ", 1)[0])
    assert len(fix_rows) > 10 and total > 0
    assert abs(sum(times) - total * 1e3) <= len(times), (times, total)


def test_the_report_needs_the_fixes():
    proc = opt_py("compile", "test/models/moe_router/model.mlir", "--fixes-report", "-o", "/dev/null", *CPU)
    assert proc.returncode == 1 and "--fixes-report reports what --fixes did: give --fixes too" in proc.stderr


def test_leaving_one_fix_out_keeps_the_others_as_all_runs_them():
    """``leave_out`` (opt-py bundle's fixes-minus-NAME variants): the MoE router without sort-slice-to-topk
    rewrites only its scatter, and the held-back fixes stay held back, which naming the other fixes in a
    spec would not do (a named fix always runs); an unknown name is an error."""
    path = "test/models/moe_router/model.mlir"
    result, run = fixes.compile_with_fixes(path, CPU, record_rewrites=True, leave_out=("sort-slice-to-topk",))
    assert result.ok, result.messages
    assert {r.pass_name for r in result.rewrites} == {"clone-splat-dispatch-per-tied-use"}
    assert "sort-slice-to-topk" not in [f.name for f in run.chosen]
    held = ["torch-scatter-reduce-exclude-self", "argsort-indices-only", "forall-reuse-shared-outs"]
    assert [f.name for f in run.held] == held
    named = ",".join(f.name for f in fixes.FIXES if f.name != "sort-slice-to-topk")
    _, by_name = fixes.compile_with_fixes("examples/addi.mlir", CPU, named)
    assert by_name.held == [] and "forall-reuse-shared-outs" in [f.name for f in by_name.chosen]
    with pytest.raises(CompileError, match="unknown fix\\(es\\) nope"):
        fixes.compile_with_fixes(path, CPU, leave_out=("nope",))

"""`opt-py compile`: Python passes injected into IREE's real compilation.

Proof by running: a pass that changes meaning on purpose (addf -> subf),
injected at executable-sources, must change the numbers the IREE runtime
computes; an identity pipeline must not.
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
PLUGIN_SITE = ROOT / "plugins" / "site"
OPT_PY = [sys.executable, "-m", "opt_py"]
CPU = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=generic",
]

PROGRAM = """
func.func @add_mul(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = arith.addf %a, %b : tensor<8xf32>
  %1 = arith.mulf %0, %b : tensor<8xf32>
  return %1 : tensor<8xf32>
}
"""


def opt_py(*args, check=True):
    env = dict(os.environ, PYTHONPATH=str(PLUGIN_SITE))
    proc = subprocess.run([*OPT_PY, *map(str, args)], capture_output=True, text=True, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(f"opt-py failed ({proc.returncode}):\n{proc.stderr}")
    return proc


def run_vmfb(path, fn, *inputs):
    import iree.runtime as rt

    config = rt.Config("local-task")
    with open(path, "rb") as f:
        vm_module = rt.VmModule.copy_buffer(config.vm_instance, f.read())
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(vm_module)
    return np.asarray(ctx.modules.module[fn](*inputs))


@pytest.fixture
def program(tmp_path):
    p = tmp_path / "add_mul.mlir"
    p.write_text(PROGRAM)
    return p


@pytest.fixture
def inputs():
    rng = np.random.default_rng(0)
    return rng.standard_normal(8).astype(np.float32), rng.standard_normal(8).astype(np.float32)


def test_identity_injection_keeps_numbers(program, inputs, tmp_path):
    out = tmp_path / "m.vmfb"
    opt_py("compile", program, "-o", out, "--inject", "executable-sources:canonicalize,test-fold-addi-zero", *CPU)
    a, b = inputs
    np.testing.assert_allclose(run_vmfb(out, "add_mul", a, b), (a + b) * b, rtol=1e-6)


def test_injected_python_pass_changes_what_runs(program, inputs, tmp_path):
    out = tmp_path / "m.vmfb"
    opt_py("compile", program, "-o", out, "--inject", "executable-sources:test-addf-to-subf", *CPU)
    a, b = inputs
    np.testing.assert_allclose(run_vmfb(out, "add_mul", a, b), (a - b) * b, rtol=1e-6)


def test_injection_at_input_reaches_util_funcs(program, inputs, tmp_path):
    # Before dispatch formation the math lives in the program's functions.
    out = tmp_path / "m.vmfb"
    opt_py("compile", program, "-o", out, "--inject", "input:test-addf-to-subf", *CPU)
    a, b = inputs
    np.testing.assert_allclose(run_vmfb(out, "add_mul", a, b), (a - b) * b, rtol=1e-6)


def test_dump_phases_shows_before_and_after(program, tmp_path):
    dumps = tmp_path / "dumps"
    opt_py(
        "compile",
        program,
        "-o",
        tmp_path / "m.vmfb",
        "--dump-phases",
        dumps,
        "--inject",
        "executable-sources:test-addf-to-subf",
        *CPU,
    )
    before = (dumps / "00-executable-sources-before.mlir").read_text()
    after = (dumps / "00-executable-sources-after.mlir").read_text()
    assert "hal.executable" in before and "arith.addf" in before and "arith.subf" not in before
    assert "arith.subf" in after and "arith.addf" not in after


def test_mlir_output_and_compile_to(program, tmp_path):
    out = tmp_path / "flow.mlir"
    opt_py("compile", program, "-o", out, "--compile-to=flow", "--inject", "input:test-tag", *CPU)
    text = out.read_text()
    assert "flow.executable" in text and 'test.tag = "tagged' in text


@pytest.mark.parametrize(
    "target",
    [
        ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"],
        ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"],
    ],
    ids=["cuda-sm_80", "rocm-gfx942"],
)
def test_gpu_targets_compile_with_injection(program, tmp_path, target):
    out = tmp_path / "m.vmfb"
    opt_py("compile", program, "-o", out, "--inject", "executable-sources:test-addf-to-subf", *target)
    assert out.stat().st_size > 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--inject", "sources:canonicalize"], "unknown phase 'sources'"),
        (["--inject", "flow"], "malformed --inject 'flow': expected PHASE:PIPELINE"),
        (["--inject", "flow:no-such-pass"], "'no-such-pass' does not refer to a registered pass"),
        (["--iree-no-such-flag=1"], "option not found: iree-no-such-flag"),
        (
            ["--inject", "executable-sources:test-raise-in-pass"],
            "injected pipeline 'test-raise-in-pass' failed at phase 'executable-sources'",
        ),
    ],
)
def test_bad_input_is_reported_and_nothing_written(program, tmp_path, args, message):
    out = tmp_path / "m.vmfb"
    proc = opt_py("compile", program, "-o", out, *CPU, *args, check=False)
    assert proc.returncode == 1
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def test_pass_failure_names_pass_and_location(program, tmp_path):
    proc = opt_py(
        "compile",
        program,
        "-o",
        tmp_path / "m.vmfb",
        *CPU,
        "--inject",
        "executable-sources:test-raise-in-pass",
        check=False,
    )
    assert proc.returncode == 1
    assert "error: pass 'test-raise-in-pass' failed: RuntimeError: deliberate failure in a pass" in proc.stderr
    assert "add_mul.mlir:" in proc.stderr


def test_iree_compile_error_is_shown_with_location(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f(%a: tensor<4xf32>) -> tensor<4xi32> {\n  return %a : tensor<4xf32>\n}\n")
    out = tmp_path / "m.vmfb"
    proc = opt_py("compile", bad, "-o", out, *CPU, check=False)
    assert proc.returncode == 1
    assert "bad.mlir:2:3: error:" in proc.stderr
    assert not out.exists()


def test_tool_mode_through_iree_compile(program, inputs, tmp_path):
    """iree-compile pipes each hal.executable through `opt-py --pipeline=...`."""
    from iree.compiler.tools.binaries import find_tool

    out = tmp_path / "m.vmfb"
    bindir = Path(sys.executable).parent
    env = dict(os.environ, PYTHONPATH=str(PLUGIN_SITE), PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = subprocess.run(
        [
            find_tool("iree-compile"),
            str(program),
            "-o",
            str(out),
            *CPU,
            "--iree-hal-preprocess-executables-with=opt-py --pipeline=test-addf-to-subf",
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    a, b = inputs
    np.testing.assert_allclose(run_vmfb(out, "add_mul", a, b), (a - b) * b, rtol=1e-6)


# --------------------------------------------------------------------------
# Codegen-level injection
# --------------------------------------------------------------------------


def test_list_codegen_passes_shows_insertion_points(program):
    proc = opt_py("compile", program, "--list-codegen-passes", *CPU)
    assert "@add_mul_dispatch_0" in proc.stdout
    assert "#iree_cpu.pipeline<" in proc.stdout
    assert "iree-codegen-generic-vectorization{" in proc.stdout


def test_codegen_injection_runs_inside_cpu_lowering(program, inputs, tmp_path):
    # Before vectorization the dispatch still computes on tensors: a pass
    # injected there changes what the runtime computes.
    out = tmp_path / "m.vmfb"
    opt_py(
        "compile",
        program,
        "-o",
        out,
        *CPU,
        "--inject-codegen",
        "before:iree-codegen-generic-vectorization:test-addf-to-subf",
    )
    a, b = inputs
    np.testing.assert_allclose(run_vmfb(out, "add_mul", a, b), (a - b) * b, rtol=1e-6)


def test_codegen_replay_with_identity_injection_keeps_numbers(program, inputs, tmp_path):
    out = tmp_path / "m.vmfb"
    opt_py(
        "compile",
        program,
        "-o",
        out,
        *CPU,
        "--inject-codegen",
        "after:iree-codegen-generic-vectorization#*:canonicalize,test-fold-addi-zero",
    )
    a, b = inputs
    np.testing.assert_allclose(run_vmfb(out, "add_mul", a, b), (a + b) * b, rtol=1e-6)


@pytest.mark.parametrize(
    "target",
    [
        ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"],
        ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"],
    ],
    ids=["cuda-sm_80", "rocm-gfx942"],
)
def test_codegen_injection_before_gpu_alias_folding(program, tmp_path, target):
    dumps = tmp_path / "dumps"
    out = tmp_path / "m.vmfb"
    opt_py(
        "compile",
        program,
        "-o",
        out,
        "--dump-phases",
        dumps,
        *target,
        "--inject-codegen",
        "before:iree-codegen-fold-memref-alias-ops:test-addf-to-subf",
    )
    after = next(dumps.glob("*-codegen-after.mlir")).read_text()
    assert "arith.subf" in after and "arith.addf" not in after
    assert '#iree_codegen.pass_pipeline<"">' in after  # IREE does not lower it a second time
    assert "workgroup_size = [" in after  # the launch configuration is kept
    assert out.stat().st_size > 0


def test_codegen_injection_point_absent_is_a_warning(program, inputs, tmp_path):
    out = tmp_path / "m.vmfb"
    proc = opt_py("compile", program, "-o", out, *CPU, "--inject-codegen", "before:no-such-pass:test-addf-to-subf")
    assert "no dispatch function's codegen pipeline has the --inject-codegen insertion point" in proc.stderr
    a, b = inputs
    np.testing.assert_allclose(run_vmfb(out, "add_mul", a, b), (a + b) * b, rtol=1e-6)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("inside:cse:canonicalize", "malformed --inject-codegen"),
        ("before:cse", "malformed --inject-codegen"),
        ("before:cse#x:canonicalize", "malformed occurrence '#x'"),
        ("before:cse:no-such-pass", "'no-such-pass' does not refer to a registered pass"),
    ],
)
def test_bad_codegen_injection(program, tmp_path, spec, message):
    out = tmp_path / "m.vmfb"
    proc = opt_py("compile", program, "-o", out, *CPU, "--inject-codegen", spec, check=False)
    assert proc.returncode == 1 and message in proc.stderr and not out.exists()


def test_dump_headers_record_where_lowering_failed():
    from opt_py.iree.codegen_lowering import parse_dump_headers

    stderr = "\n".join(
        [
            "// -----// IR Dump After LowerExecutableUsingTransformDialectPass: "
            "iree-codegen-lower-executable-using-transform-dialect //----- //",
            "module {...}",
            "// -----// IR Dump After CSEPass: cse //----- //",
            "func.func @d0() attributes {translation_info = #x} {...}",
            "// -----// IR Dump After FooPass Failed: foo{a=1} //----- //",
            "func.func @d0() attributes {translation_info = #x} {...}",
        ]
    )
    lowered = parse_dump_headers(stderr, compile_failed=True)
    assert lowered["d0"].passes == ["cse"]
    assert lowered["d0"].failed_at == "foo{a=1}"


def test_iree_diagnostics_from_many_dispatches_come_back_located(tmp_path):
    """Errors that IREE's worker threads emit (codegen of several dispatches at once) reach
    the user as file:line:col with the source line, and the compile neither hangs nor aborts:
    while IREE runs, no Python diagnostic handler is attached (iree/phases.Compilation.in_iree)."""
    from opt_py.cases import topk

    program = topk.program(topk.Variant("indices", 8, 64, "f32", 4, "desc"))  # one function, @topk, 4x64
    widths = (64, 65, 66, 67)
    path = tmp_path / "sorts.mlir"
    path.write_text("\n".join(program.replace("@topk(", f"@topk_{w}(").replace("4x64", f"4x{w}") for w in widths))
    proc = subprocess.run(
        [
            *OPT_PY,
            "compile",
            str(path),
            "-o",
            str(tmp_path / "x.vmfb"),
            "--iree-hal-target-device=cuda",
            "--iree-cuda-target=sm_80",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    located = [line for line in proc.stderr.splitlines() if line.endswith(": error: failed to bufferize op")]
    assert len(located) == len(widths) and all(line.startswith(f"{path}:") for line in located), proc.stderr
    assert "loc(" not in proc.stderr and "Traceback" not in proc.stderr


def test_console_diagnostics_are_parsed_and_other_output_kept():
    from opt_py.run.diagnostics import Diag, from_console

    text = (
        'loc(callsite("a.mlir":9:10 at "a.mlir":1:1)): error: failed to bufferize op\n'
        "// -----// IR Dump After Foo //----- //\n"
        "loc(unknown): warning: no location\n"
    )
    assert from_console(text) == [
        Diag("error", "failed to bufferize op", "a.mlir", 9, 10),
        "// -----// IR Dump After Foo //----- //",
        Diag("warning", "no location"),
    ]


FILL = """
func.func @f(%n: index) -> tensor<?xf32> {
  %c = arith.constant 3.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}
"""


def test_process_wide_iree_flag_compiles_as_iree_compile(tmp_path):
    """--iree-stream-emulate-memset is one of LLVM's process-wide options, which an IREE session rejects
    ('option not found'): set for the process as iree-compile sets it, the module is iree-compile's."""
    from iree.compiler.tools.binaries import find_tool

    src = tmp_path / "fill.mlir"
    src.write_text(FILL)
    flag = "--iree-stream-emulate-memset"
    outs = {k: tmp_path / f"{k}.vmfb" for k in ("plain", "stock", "cold", "warm")}
    subprocess.run([find_tool("iree-compile"), src, "-o", outs["plain"], *CPU], check=True, capture_output=True)
    subprocess.run([find_tool("iree-compile"), src, "-o", outs["stock"], *CPU, flag], check=True, capture_output=True)
    cold = dict(os.environ, OPT_PY_NO_SERVER="1")
    subprocess.run([*OPT_PY, "compile", src, "-o", outs["cold"], *CPU, flag], check=True, env=cold)
    opt_py("compile", src, "-o", outs["warm"], *CPU, flag)
    stock = outs["stock"].read_bytes()
    assert stock != outs["plain"].read_bytes(), "the flag no longer changes this module: pick another"
    assert outs["cold"].read_bytes() == stock and outs["warm"].read_bytes() == stock


def test_process_wide_iree_flag_not_inherited_by_a_later_compile(tmp_path):
    """LLVM's options cannot be unset: in a process that set one, a later compile without it is refused."""
    src = tmp_path / "fill.mlir"
    src.write_text(FILL)
    code = (
        "import sys\n"
        "from opt_py.errors import CompileError\n"
        "from opt_py.execution import e2e\n"
        "cpu = e2e.TARGETS['cpu']\n"
        "e2e.compile_program(sys.argv[1], cpu, extra_flags=['--iree-stream-emulate-memset'])\n"
        "try:\n"
        "    e2e.compile_program(sys.argv[1], cpu)\n"
        "except CompileError as e:\n"
        "    print(e)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, src], capture_output=True, text=True, check=True)
    assert "process-wide IREE options --iree-stream-emulate-memset were set by an earlier compile" in proc.stdout

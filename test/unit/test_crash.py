"""IREE crashing inside opt-py (python/tool/crash.py): reported by the run's supervisor, served or cold.

The report names the signal, the phase and the pass (IREE names it in a
re-run with its crash reproducer on), the reproducer, and IREE's stack (the
native iree-opt crashing on the reproducer); the exit status is 128 + the
signal; nothing is written; the warm server serves the next run. A crash in
a Python pass is that pass's, not IREE's.

The crashing program is onnx_ops' ``test_reshape_allowzero_reordered``
(iree-test-suites, /work/shared/peer/onnx_ops/onnx/node/generated/, its
model.mlir copied below): a reshape of a 0-sized tensor, which makes IREE
3.13's torch-to-linalg view conversion divide by zero
(``ConvertAtenViewOp::getMultiplier``). ``TORCH_VIEW`` is the same program
after IREE's ONNX-to-torch lowering (the local reproducer IREE writes for it).
"""

import os
import signal
from pathlib import Path

import pytest
from opt_py_process import own_server, run_opt_py, served_runs, sleeping_run

CRASH_PASS = Path(__file__).resolve().parents[1] / "lit" / "Inputs" / "crash_pass.py"
CPU = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
ONNX_RESHAPE_0 = """module {
  func.func @test_reshape_allowzero_reordered(%arg0: !torch.vtensor<[0,3,4],f32>, %arg1: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3,4,0],f32> attributes {torch.onnx_meta.ir_version = 10 : si64, torch.onnx_meta.opset_version = 21 : si64, torch.onnx_meta.producer_name = "backend-test", torch.onnx_meta.producer_version = ""} {
    %none = torch.constant.none
    %0 = torch.operator "onnx.Reshape"(%arg0, %arg1) {torch.onnx.allowzero = 1 : si64} : (!torch.vtensor<[0,3,4],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor<[3,4,0],f32>
    return %0 : !torch.vtensor<[3,4,0],f32>
  }
}
"""
TORCH_VIEW = """func.func @view_of_empty(%arg0: !torch.vtensor<[0,3,4],f32>) -> !torch.vtensor<[3,4,0],f32> {
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %int0 = torch.constant.int 0
  %0 = torch.prim.ListConstruct %int3, %int4, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[0,3,4],f32>, !torch.list<int> -> !torch.vtensor<[3,4,0],f32>
  return %1 : !torch.vtensor<[3,4,0],f32>
}
"""
SRC = "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n"


@pytest.fixture(params=["served", "cold"])
def env(request, tmp_path):
    """The run's environment, its own TMPDIR (progress files, crash directories) and server."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    with own_server(tmp_path, request.param, TMPDIR=str(tmp)) as env:
        yield env


def opt_py(args, env, cwd):
    before = served_runs(env)
    res = run_opt_py(args, env, cwd=cwd, timeout=300)
    assert served_runs(env) == before + ("OPT_PY_NO_SERVER" not in env), "served as the fixture says"
    return res


def _left_in_tmp(env) -> list[str]:
    return sorted(os.listdir(env["TMPDIR"]))


def _crash_dir(stderr: str, env) -> Path:
    dirs = [d for d in _left_in_tmp(env) if d.startswith("opt-py-crash-")]
    assert len(dirs) == 1, _left_in_tmp(env)
    assert str(Path(env["TMPDIR"]) / dirs[0]) in stderr  # named in the report
    return Path(env["TMPDIR"]) / dirs[0]


def test_an_iree_crash_in_a_compile_is_reported_and_the_server_serves_on(env, tmp_path):
    """Stock IREE divides by zero on the ONNX program: the signal, phase 'input', the pass and the
    function IREE names, its reproducer, IREE's stack; exit 128 + SIGFPE; -o untouched."""
    (tmp_path / "model.mlir").write_text(ONNX_RESHAPE_0)
    (tmp_path / "out.vmfb").write_bytes(b"old")
    res = opt_py(["compile", "model.mlir", "-o", "out.vmfb", *CPU], env, tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 128 + signal.SIGFPE, err
    lines = err.splitlines()
    assert lines[0] == "opt-py: error: IREE crashed (SIGFPE: floating-point exception) while compiling phase 'input'"
    assert lines[1] == (
        "opt-py: note: the pass: 'convert-torch-to-linalg' (ConvertTorchToLinalg) "
        "on 'func.func' @test_reshape_allowzero_reordered"
    )
    crash = _crash_dir(err, env)
    reproducer = (crash / "reproducer.mlir").read_text()
    assert (
        "torch.aten.view" in reproducer and 'pipeline: "builtin.module(func.func(convert-torch-to-linalg' in reproducer
    )
    assert "ConvertAtenViewOp::getMultiplier" in err and "ConvertTorchToLinalg::runOnOperation()" in err
    assert "Traceback" not in err and res.stdout == b""
    assert (tmp_path / "out.vmfb").read_bytes() == b"old"  # -o is written only after success
    assert set(os.listdir(tmp_path)) - {"run", "server.log", "tmp"} == {"model.mlir", "out.vmfb"}  # no temp file
    assert [d for d in _left_in_tmp(env) if d.startswith("opt-py-progress-")] == []
    (tmp_path / "in.mlir").write_text(SRC)
    after = opt_py(["-p", "canonicalize", "in.mlir"], env, tmp_path)  # served again, when served
    assert after.returncode == 0 and b"return %arg0" in after.stdout, after.stderr


def test_an_iree_pass_crash_in_the_opt_job_is_reported(env, tmp_path):
    """``opt-py -p`` running IREE's torch-to-linalg on a torch program: the signal, the C++ passes
    opt-py ran, and the pass and function IREE names in the re-run; no IR printed."""
    (tmp_path / "view.mlir").write_text(TORCH_VIEW)
    res = opt_py(["-p", "builtin.module(func.func(convert-torch-to-linalg))", "view.mlir"], env, tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 128 + signal.SIGFPE, err
    assert err.splitlines()[0] == (
        "opt-py: error: IREE crashed (SIGFPE: floating-point exception) in C++ passes "
        "'func.func(convert-torch-to-linalg)' of pipeline 'builtin.module(func.func(convert-torch-to-linalg))'"
    )
    assert "the pass: 'convert-torch-to-linalg' (ConvertTorchToLinalg) on 'func.func' @view_of_empty" in err
    assert (_crash_dir(err, env) / "reproducer.mlir").exists()
    assert "ConvertAtenViewOp::getMultiplier" in err
    assert res.stdout == b""


def test_a_crash_in_a_python_pass_is_that_pass_s(env, tmp_path):
    """A Python pass that segfaults is named, with its line; IREE is not blamed and nothing is re-run."""
    (tmp_path / "in.mlir").write_text(SRC)
    res = opt_py(["--load-pass-plugin", str(CRASH_PASS), "-p", "canonicalize,test-crash", "in.mlir"], env, tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 128 + signal.SIGSEGV, err
    assert err.splitlines()[0] == (
        "opt-py: error: Python pass 'test-crash' crashed (SIGSEGV: segmentation fault) in pipeline 'canonicalize,test-crash'"
    )
    assert f'File "{CRASH_PASS}", line' in err and "IREE" not in err and res.stdout == b""
    assert _left_in_tmp(env) == []  # no re-run, no crash directory, no progress file left


def test_a_python_pass_killed_by_its_own_signal_inside_a_compile(env, tmp_path):
    """``os.kill(os.getpid(), SIGSEGV)`` in a pass injected after a phase: the pass and the phase."""
    plugin = tmp_path / "kill_pass.py"
    plugin.write_text(
        CRASH_PASS.read_text()
        .replace("import ctypes", "import os, signal")
        .replace("ctypes.string_at(0)", "os.kill(os.getpid(), signal.SIGSEGV)")
    )
    (tmp_path / "t.mlir").write_text(
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n"
    )
    args = ["compile", "t.mlir", "--load-pass-plugin", str(plugin), "--inject", "input:test-crash", "-o", "t.vmfb"]
    res = opt_py([*args, *CPU], env, tmp_path)
    assert res.returncode == 128 + signal.SIGSEGV, res.stderr
    assert res.stderr.decode().splitlines()[0] == (
        "opt-py: error: Python pass 'test-crash' crashed (SIGSEGV: segmentation fault) run by opt-py after phase 'input'"
    )
    assert not (tmp_path / "t.vmfb").exists()


def test_a_signal_sent_to_the_run_is_not_a_crash(env, tmp_path):
    """A signal sent to opt-py reaches the run, which dies of it; so does opt-py, with no report. (A
    served client forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT; a cold one every signal that ends a
    process, SIGABRT included.)"""
    (tmp_path / "in.mlir").write_text(SRC)
    for sig in (signal.SIGTERM,) if "OPT_PY_NO_SERVER" not in env else (signal.SIGTERM, signal.SIGABRT):
        proc = sleeping_run(env, tmp_path)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == -sig and b"crashed" not in err and out == b"", err
    assert _left_in_tmp(env) == []


def test_the_cold_supervisor_forwards_every_signal_that_ends_a_process():
    from opt_py.tool.client import ENDING_SIGNALS

    names = "HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM STKFLT XCPU XFSZ VTALRM PROF IO PWR SYS"
    assert ENDING_SIGNALS == tuple(getattr(signal, "SIG" + n) for n in names.split())


LLVM_DUMP = """Stack dump:
0.	Program arguments: iree-opt --run-reproducer r.mlir
 #0 0x00007f1de255a0ab llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) Signals.cpp:0:0
 #1 0x00007f1de2557235 llvm::sys::RunSignalHandlers() Signals.cpp:0:0
 #2 0x00007f1de255ac10 SignalHandler(int, siginfo_t*, void*) Signals.cpp:0:0
 #3 0x00007f1ddc65a050 (/lib/x86_64-linux-gnu/libc.so.6+0x3c050)
 #4 0x00007f1de38b4246 (anonymous namespace)::ConvertAtenViewOp::getMultiplier() DataMovement.cpp:0:0
 #5 0x00007f1de38b1ee2 (anonymous namespace)::ConvertAtenViewOp::matchAndRewrite() const DataMovement.cpp:0:0
 #6 0x00007f791865ef92 mlir::torch::(anonymous namespace)::ConvertTorchToLinalg::runOnOperation() TorchToLinalg.cpp:0:0
 #7 0x00007f7917909731 mlir::detail::OpToOpPassAdaptor::run() Pass.cpp:0:0
"""


def test_iree_s_stack_is_its_frames_from_the_crash_to_the_pass():
    from opt_py.tool.crash import top_frames

    assert top_frames(LLVM_DUMP) == [
        "    #4 (anonymous namespace)::ConvertAtenViewOp::getMultiplier() DataMovement.cpp",
        "    #5 (anonymous namespace)::ConvertAtenViewOp::matchAndRewrite() const DataMovement.cpp",
        "    #6 mlir::torch::(anonymous namespace)::ConvertTorchToLinalg::runOnOperation() TorchToLinalg.cpp",
    ]
    assert top_frames(LLVM_DUMP, limit=2) == [
        "    #4 (anonymous namespace)::ConvertAtenViewOp::getMultiplier() DataMovement.cpp",
        "    ...",
        "    #6 mlir::torch::(anonymous namespace)::ConvertTorchToLinalg::runOnOperation() TorchToLinalg.cpp",
    ]


@pytest.mark.parametrize(
    "steps, line",
    [
        (
            [("iree", "phases input end")],
            "IREE crashed (SIGSEGV: segmentation fault) while compiling phases 'input' to 'end'",
        ),
        ([("iree", "parse")], "IREE crashed (SIGSEGV: segmentation fault) while parsing the input"),
        (
            [("stop", "flow"), ("pipeline", "cse,my-pass"), ("cpp", "cse")],
            "IREE crashed (SIGSEGV: segmentation fault) in C++ passes 'cse' of pipeline 'cse,my-pass' "
            "run by opt-py after phase 'flow'",
        ),
        ([("stop", "input")], "opt-py crashed (SIGSEGV: segmentation fault) run by opt-py after phase 'input'"),
        ([], "opt-py crashed (SIGSEGV: segmentation fault)"),
    ],
)
def test_the_headline_names_who_crashed_and_where(steps, line):
    from opt_py.tool.crash import headline

    assert headline(signal.SIGSEGV, steps) == "opt-py: error: " + line

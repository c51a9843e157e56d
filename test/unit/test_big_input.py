"""The lean path for an empty pipeline (issue 17, big inputs) changes no byte of the output.

An empty pipeline prints the IR as the parser verified it (no second
verification), printed as bytes into a buffer, and a regular file's text is
never decoded unless a diagnostic quotes it. Each shortcut is checked here
against what the plain bindings calls give.
"""

import subprocess
import sys

from iree.compiler import ir
from opt_py.run import engine
from opt_py.run.engine import OptOptions
from opt_py.tool import opt

MODULE = """module {
  func.func @f(%a: tensor<4xf32>, %s: index) -> (tensor<4xf32>, index) {
    %c1 = arith.constant 1 : index
    %0 = arith.addf %a, %a : tensor<4xf32> loc("x.py":3:4)
    %1 = arith.addi %s, %c1 : index
    %2 = "test.s"() {v = "h\\C3\\A9 \\FF \\22"} : () -> i32
    return %0, %1 : tensor<4xf32>, index
  }
}
"""

BAD = """func.func @f() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64
}
"""


def expected(text: str, **flags) -> bytes:
    """What the bindings print for ``text``, the slow way (get_asm, verifying)."""
    with ir.Context() as ctx, ir.Location.unknown():
        ctx.allow_unregistered_dialects = True
        return ir.Module.parse(text).operation.get_asm(**flags).encode()


def test_empty_pipeline_output_is_what_get_asm_prints(tmp_path, monkeypatch):
    src = tmp_path / "in.mlir"
    src.write_text(MODULE)
    verified = []
    monkeypatch.setattr(engine, "_verify", lambda root: verified.append(root))
    for flags, kw in (
        ({}, {}),
        ({"print_debuginfo": True}, {"enable_debug_info": True}),
        ({"print_op_generic": True}, {"print_generic_op_form": True}),
        ({"print_local_scope": True}, {"use_local_scope": True}),
    ):
        opts = OptOptions(allow_unregistered_dialect=True, **flags)
        r = opt.run_opt(src.read_bytes(), str(src), str(src), opts)
        assert r.ok
        want = expected(MODULE, **kw)
        want = want if want.endswith(b"\n") else want + b"\n"  # opt-py ends every output with one
        if "enable_debug_info" in kw:  # parsed from the file: locations name it
            assert f'loc("{src}":2:3)'.encode() in r.output
            assert r.output.replace(str(src).encode(), b"-") == want
        else:
            assert r.output == want
    assert verified == []  # the parser verified; nothing verified it again


def test_empty_pipeline_still_rejects_invalid_ir(tmp_path):
    src = tmp_path / "bad.mlir"
    src.write_text(BAD)
    for data in (src.read_bytes(), None):  # None: MLIR reads the file itself
        for verify_each in (True, False):
            lines = []
            r = opt.run_opt(data, str(src), str(src), OptOptions(verify_each=verify_each), lines.append)
            assert not r.ok and r.output == b""
            # the source line is quoted although the input was never decoded up front
            assert any(
                f"{src}:3:3: error: type of return operand 0" in line and "\n  return %c : i64\n  ^" in line
                for line in lines
            ), lines


def test_a_regular_text_file_is_left_to_mlir(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(MODULE)
    with open(src, "rb") as f:
        assert opt.read_input(f, OptOptions()) is None
    for opts in (OptOptions(split_input_file=True), OptOptions(verify_diagnostics=True)):
        with open(src, "rb") as f:
            assert opt.read_input(f, opts) == MODULE.encode()  # the text is read: it is split or scanned
    bc = tmp_path / "in.mlirbc"
    bc.write_bytes(b"ML\xefR" + b"rest")
    with open(bc, "rb") as f:
        assert opt.read_input(f, OptOptions()) == b"ML\xefRrest"
    r = opt.run_opt(None, str(src), str(src), OptOptions(allow_unregistered_dialect=True))
    assert r.ok and r.output == expected(MODULE)


def test_bytecode_round_trip_is_unchanged(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(MODULE)
    opts = OptOptions(allow_unregistered_dialect=True)
    bc = opt.run_opt(
        src.read_bytes(), str(src), str(src), OptOptions(allow_unregistered_dialect=True, emit_bytecode=True)
    ).output
    assert bc.startswith(b"ML\xefR")
    back = opt.run_opt(bc, "in.mlirbc", None, opts)
    assert back.ok and back.output == expected(MODULE)


def test_split_input_file_output_is_unchanged(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(MODULE + "// -----\n" + MODULE.replace("@f", "@g"))
    r = subprocess.run(
        [sys.executable, "-m", "opt_py", "--split-input-file", "--allow-unregistered-dialect", str(src)],
        capture_output=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected(MODULE) + b"// -----\n" + expected(MODULE.replace("@f", "@g"))

"""Injection before and inside IREE's input conversion (``--inject start:``, ``--inject-input``).

The contract: nothing injected gives stock's module, text for text after the
input phase and byte for byte at the end, at every point; a point that cannot
be faithful is refused naming why; a pipeline injected at a point runs there.
"""

import subprocess
from pathlib import Path

import pytest
from opt_py.errors import CompileError
from opt_py.iree import codegen_faithfulness as faithfulness
from opt_py.iree.input_conversion import InputInjection, element_pass_name, input_type
from opt_py.iree.phases import Injection, compile_with_injections

ROOT = Path(__file__).resolve().parents[2]
CPU = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
ONNX = ROOT.parent / "shared" / "peer" / "onnx_ops" / "onnx" / "node" / "generated"
TORCH_MODEL = ROOT / "test" / "models" / "topk_dynamic" / "model.mlir"
faithfulness.register_nothing()  # test-nothing: leaves the IR alone

LINALG = """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def stock(path, *flags) -> bytes:
    from iree.compiler.tools.binaries import find_tool

    res = subprocess.run([find_tool("iree-compile"), str(path), *CPU, *flags, "-o", "-"], capture_output=True)
    assert res.returncode == 0, res.stderr.decode()
    return res.stdout


def opt(path, injections=(), input_injections=(), compile_to=None, list_input=False, flags=()):
    res = compile_with_injections(
        str(path),
        [*CPU, *flags],
        [Injection.parse(s) for s in injections],
        input_injections=[InputInjection.parse(s) for s in input_injections],
        list_input=list_input,
        compile_to=compile_to,
    )
    assert res.ok, "\n".join(res.messages)
    return res.output


def frontend_names(path, flags=()) -> list[str]:
    listing = opt(path, list_input=True, flags=flags).decode().splitlines()
    return [element_pass_name(line.split(None, 1)[1]) for line in listing[1:]]


def test_listing_names_torch_to_iree_passes():
    names = frontend_names(TORCH_MODEL)
    assert names[0] == "torch-iree-bind-symbolic-shapes"
    assert "convert-torch-to-linalg" in names and names[-1] == "torch-finalizing-backend-type-conversion"
    assert names.count("canonicalize") >= 3


def test_torch_flags_reach_the_frontend():
    """--iree-torch-decompose-complex-ops=false drops the decomposition, as IREE's plugin does."""
    names = frontend_names(TORCH_MODEL, flags=["--iree-torch-decompose-complex-ops=false"])
    assert "torch-decompose-complex-ops" not in names
    assert "torch-decompose-complex-ops" in frontend_names(TORCH_MODEL)


def test_every_point_of_a_torch_program_is_stocks(tmp_path):
    """A pipeline that changes nothing, at each point in turn: the module after the input phase is stock's."""
    want = stock(TORCH_MODEL, "--compile-to=input")
    names = frontend_names(TORCH_MODEL)
    specs = [f"before:{names[0]}:test-nothing"] + [
        f"after:{name}#{names[: i + 1].count(name)}:test-nothing" for i, name in enumerate(names)
    ]
    for spec in specs:
        assert opt(TORCH_MODEL, input_injections=[spec], compile_to="input") == want, spec


def test_nothing_injected_is_stocks_module_byte_for_byte():
    want = stock(TORCH_MODEL)
    assert opt(TORCH_MODEL, input_injections=["after:cse#1:test-nothing"]) == want
    assert opt(TORCH_MODEL, injections=["start:test-nothing"]) == want


@pytest.mark.skipif(not ONNX.is_dir(), reason="the peers' ONNX suite (../shared/peer) is not beside this checkout")
@pytest.mark.parametrize("case", ["test_softmax_axis_0", "test_argmax_default_axis_example", "test_gather_0"])
def test_an_onnx_programs_frontend_is_stocks(case):
    path = ONNX / case / "model.mlir"
    names = frontend_names(path)
    assert names[0] == "convert-torch-onnx-to-torch" and "torch-iree-bind-symbolic-shapes" in names
    want = stock(path, "--compile-to=input")
    for spec in (f"before:{names[0]}:test-nothing", "after:cse#*:test-nothing", f"after:{names[-1]}:test-nothing"):
        assert opt(path, input_injections=[spec], compile_to="input") == want, spec


def test_an_injected_pipeline_runs_at_its_point():
    """torch-to-iree decomposes the top-k into a sort, then converts that sort: each point sees its stage."""

    def absent(op):
        return f"test-expect-absent{{op={op}}}"

    with pytest.raises(AssertionError, match="'torch.aten.topk' is still here"):
        opt(TORCH_MODEL, input_injections=[f"before:torch-decompose-complex-ops:{absent('torch.aten.topk')}"])
    with pytest.raises(AssertionError, match="'torch.aten.sort' is still here"):
        opt(TORCH_MODEL, input_injections=[f"before:convert-torch-to-tmtensor:{absent('torch.aten.sort')}"])
    opt(TORCH_MODEL, input_injections=[f"before:convert-torch-to-tmtensor:{absent('torch.aten.topk')}"])
    opt(TORCH_MODEL, input_injections=[f"after:convert-torch-to-tmtensor:{absent('torch.aten.sort')}"])


def test_a_program_without_a_frontend_is_refused(tmp_path):
    src = tmp_path / "linalg.mlir"
    src.write_text(LINALG)
    with pytest.raises(CompileError, match="neither torch nor ONNX"):
        compile_with_injections(str(src), CPU, [], input_injections=[InputInjection.parse("after:cse:test-nothing")])
    with pytest.raises(CompileError, match="--iree-input-type=stablehlo has no frontend lowering opt-py runs"):
        compile_with_injections(
            str(TORCH_MODEL),
            [*CPU, "--iree-input-type=stablehlo"],
            [],
            input_injections=[InputInjection.parse("after:cse:test-nothing")],
        )


def test_an_absent_point_is_a_warning():
    res = compile_with_injections(
        str(TORCH_MODEL), CPU, [], input_injections=[InputInjection.parse("after:no-such-pass:test-nothing")]
    )
    assert res.ok and any("has no after:no-such-pass#1" in m for m in res.messages)


def test_start_sees_the_module_as_parsed(tmp_path):
    """At 'start' the torch ops are there; a pipeline that fails there names the phase."""
    res = compile_with_injections(
        str(TORCH_MODEL), CPU, [Injection.parse("start:test-expect-absent{op=torch.aten.topk}")]
    )
    assert not res.ok and any("failed at phase 'start'" in m for m in res.messages)


def test_input_type_is_the_last_flag():
    assert input_type([]) == "auto"
    assert input_type(["--iree-input-type=torch", "--iree-input-type=onnx"]) == "onnx"

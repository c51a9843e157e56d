"""iree/written_arguments.py: which arguments a compiled function writes in place, read after IREE's stream phase.

Stock IREE 3.13 reuses an argument's buffer at its last use by an in-place
op (IREE #16168), which a caller lending its own memory must know. Each case
is compiled for llvm-cpu with the analysis hooked after the stream phase;
test/unit/test_torch_backend.py shows the scatter's write on a lent tensor.
"""

import pytest
from opt_py.execution.e2e import TARGETS
from opt_py.iree.phases import compile_with_injections
from opt_py.iree.written_arguments import PHASE, written_arguments

SCATTER = """
func.func @main(%x: !torch.vtensor<[4,3],f32>, %pos: !torch.vtensor<[1],si64>, %v: !torch.vtensor<[1,3],f32>) -> !torch.vtensor<[4,3],f32> {
  %0 = torch.prim.ListConstruct %pos : (!torch.vtensor<[1],si64>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %1 = torch.aten.index_put %x, %0, %v, %false : !torch.vtensor<[4,3],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[1,3],f32>, !torch.bool -> !torch.vtensor<[4,3],f32>
  %int2 = torch.constant.int 2
  %2 = torch.aten.mul.Scalar %1, %int2 : !torch.vtensor<[4,3],f32>, !torch.int -> !torch.vtensor<[4,3],f32>
  return %2 : !torch.vtensor<[4,3],f32>
}
"""

ACCUMULATE = """
func.func @main(%lhs: tensor<2x2xf32>, %rhs: tensor<2x2xf32>, %acc: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %r = linalg.matmul ins(%lhs, %rhs : tensor<2x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r, %acc : tensor<2x2xf32>, tensor<2x2xf32>
}
"""

READ_ONLY = """
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = arith.addf %x, %y : tensor<4xf32>
  return %x, %0 : tensor<4xf32>, tensor<4xf32>
}
"""


def analysed(tmp_path, program: str) -> dict:
    path = tmp_path / "program.mlir"
    path.write_text(program)
    seen = []
    result = compile_with_injections(
        str(path),
        list(TARGETS["cpu"].compile_flags),
        [],
        after_phase={PHASE: [lambda m: seen.append(written_arguments(m))]},
    )
    assert result.ok, result.messages
    return seen[0]


@pytest.mark.parametrize(
    "program,written",
    [(SCATTER, [0]), (ACCUMULATE, [2]), (READ_ONLY, [])],
    ids=["a scatter into its input", "a matmul accumulating into its input", "inputs only read or returned"],
)
def test_the_arguments_written_in_place(tmp_path, program, written):
    assert analysed(tmp_path, program) == {"main": written}

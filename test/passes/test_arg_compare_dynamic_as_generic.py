"""arg-compare-dynamic-as-generic end to end: argmax / argmin over a dynamic dim, by numbers.

Stock IREE 3.13 compiles ``iree_linalg_ext.arg_compare`` over a dynamic dim
for the CPU but not for cuda or rocm ("expected type to be 'tensor<1x?xf32>'
or a rank-reduced version. (size mismatch)"). The pass is in ``--fixes`` for
GPUs only; its numbers are checked here on the CPU, where it is injected by
hand: random arg_compares (rank 1-3, any dim reduced and dynamic, the others
static or dynamic, f32/f16/i32, argmax and argmin, many ties, i32 or index
indices, with or without an index_base) equal numpy's first-occurrence
argmax/argmin. For cuda and rocm: stock fails and the pass compiles, and a
torch.argmax as IREE's torch frontend lowers it goes through ``--fixes``.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py.errors import OptPyError
from opt_py.execution import e2e
from opt_py.iree import fixes as fix_table

CPU = e2e.TARGETS["cpu"]
PASS = ("global-optimization:arg-compare-dynamic-as-generic",)
STOCK_ERROR = "or a rank-reduced version. \\(size mismatch\\)"
NP = {"f32": np.float32, "f16": np.float16, "i32": np.int32}


@dataclass(frozen=True)
class Case:
    seed: int
    dtype: str
    shape: tuple
    dynamic: tuple
    dim: int
    kind: str  # argmax | argmin
    index_type: str  # i32 | i64
    base: int | None  # index_base

    def program(self) -> str:
        rank = len(self.shape)
        dims = ["?" if d else str(s) for s, d in zip(self.shape, self.dynamic)]
        t = f"tensor<{'x'.join(dims + [self.dtype])}>"
        rest = [dims[k] for k in range(rank) if k != self.dim]
        vt, it = (f"tensor<{'x'.join(rest + [e])}>" for e in (self.dtype, self.index_type))
        lines = [
            f"func.func @case{self.seed}(%x: {t}, %b0: tensor<i64>) -> {it} {{",
            "  %b64 = tensor.extract %b0[] : tensor<i64>",
            "  %base = arith.index_cast %b64 : i64 to index",
        ]
        dyn = [k for k in range(rank) if self.dynamic[k] and k != self.dim]
        for k in dyn:
            lines += [f"  %c{k} = arith.constant {k} : index", f"  %d{k} = tensor.dim %x, %c{k} : {t}"]
        sizes = ", ".join(f"%d{k}" for k in dyn)
        floats = self.dtype.startswith("f")
        inits = {"f32": ("0xFF800000", "0x7F800000"), "f16": ("0xFC00", "0x7C00"), "i32": ("-2147483648", "2147483647")}
        init = inits[self.dtype][self.kind == "argmin"]  # -inf / +inf, or the integer extremes
        pred = (
            ("cmpf ogt" if self.kind == "argmax" else "cmpf olt")
            if floats
            else ("cmpi sgt" if self.kind == "argmax" else "cmpi slt")
        )
        base = " index_base(%base : index)" if self.base is not None else ""
        lines += [
            f"  %iv = arith.constant {init} : {self.dtype}",
            f"  %ii = arith.constant 0 : {self.index_type}",
            f"  %ev = tensor.empty({sizes}) : {vt}",
            f"  %ei = tensor.empty({sizes}) : {it}",
            f"  %v0 = linalg.fill ins(%iv : {self.dtype}) outs(%ev : {vt}) -> {vt}",
            f"  %i0 = linalg.fill ins(%ii : {self.index_type}) outs(%ei : {it}) -> {it}",
            f"  %r:2 = iree_linalg_ext.arg_compare dimension({self.dim}) ins(%x : {t}) outs(%v0, %i0 : {vt}, {it})"
            f"{base} {{",
            f"  ^bb0(%a: {self.dtype}, %b: {self.dtype}):",
            f"    %p = arith.{pred}, %a, %b : {self.dtype}",
            "    iree_linalg_ext.yield %p : i1",
            f"  }} -> {vt}, {it}",
            f"  return %r#1 : {it}",
            "}",
        ]
        return "\n".join(lines) + "\n"

    def inputs(self):
        rng = np.random.default_rng(self.seed + 17)
        x = rng.integers(-3, 4, self.shape).astype(NP[self.dtype])  # seven values: ties everywhere
        return [x, np.array(self.base or 0, dtype=np.int64)]

    def expected(self, x, base):
        pick = np.argmax if self.kind == "argmax" else np.argmin  # the first of equal values, as the op
        out = pick(x, axis=self.dim) + int(base if self.base is not None else 0)
        return out.astype(np.int32 if self.index_type == "i32" else np.int64)


def random_case(seed: int) -> Case:
    rng = np.random.default_rng(seed)
    rank = int(rng.integers(1, 4))
    dim = int(rng.integers(0, rank))
    shape = tuple(int(rng.integers(1, 70)) if k == dim else int(rng.integers(1, 6)) for k in range(rank))
    dynamic = tuple(k == dim or bool(rng.random() < 0.5) for k in range(rank))
    return Case(
        seed,
        str(rng.choice(list(NP))),
        shape,
        dynamic,
        dim,
        str(rng.choice(["argmax", "argmin"])),
        str(rng.choice(["i32", "i64"])),
        int(rng.integers(0, 9)) if rng.random() < 0.3 else None,
    )


def test_random_arg_compares_match_numpy_with_the_pass(tmp_path):
    cases = [random_case(s) for s in range(10)]
    path = tmp_path / "argmax.mlir"
    path.write_text("".join(c.program() for c in cases))
    vmfb = e2e.compile_program(str(path), CPU, inject=PASS)
    for c in cases:
        x, base = c.inputs()
        (got,) = e2e.run_runtime(vmfb, CPU, f"case{c.seed}", [x, base])
        np.testing.assert_array_equal(got, c.expected(x, base), err_msg=str(c))


# rocm's compiles are the slower: with --runslow
@pytest.mark.parametrize("target", ["cuda", pytest.param("rocm", marks=pytest.mark.slow)])
def test_gpus_compile_with_the_pass(target, tmp_path):
    """Stock fails on each of four random arg_compares for GPUs; with the pass the module compiles."""
    cases = [random_case(s) for s in range(20, 24)]
    tgt = e2e.TARGETS[target]
    for c in cases[:1]:
        path = tmp_path / f"one{c.seed}.mlir"
        path.write_text(c.program())
        with pytest.raises(OptPyError, match=STOCK_ERROR):
            e2e.compile_program(str(path), tgt)
    path = tmp_path / "argmax.mlir"
    path.write_text("".join(c.program() for c in cases))
    assert len(e2e.compile_program(str(path), tgt, inject=PASS)) > 0


# CLIP's pooling as iree-turbine exports it: argmax over the ids' dynamic length (cast to i32).
TORCH_ARGMAX = """
func.func @main(%arg0: !torch.vtensor<[2,?],si64>) -> !torch.vtensor<[2],si64> {
  %int3 = torch.constant.int 3
  %0 = torch.prims.convert_element_type %arg0, %int3 : !torch.vtensor<[2,?],si64>, !torch.int -> !torch.vtensor<[2,?],si32>
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %1 = torch.aten.argmax %0, %int-1, %false : !torch.vtensor<[2,?],si32>, !torch.int, !torch.bool -> !torch.vtensor<[2],si64>
  return %1 : !torch.vtensor<[2],si64>
}
"""


def test_torch_argmax_with_fixes(tmp_path):
    """For cuda, stock fails and --fixes compiles; on the CPU (where --fixes leaves it to stock) the pass's
    program equals numpy."""
    path = tmp_path / "argmax.mlir"
    path.write_text(TORCH_ARGMAX)
    cuda = e2e.TARGETS["cuda"]
    with pytest.raises(OptPyError, match=STOCK_ERROR):
        e2e.compile_program(str(path), cuda)
    inject, codegen = fix_table.specs("all", cuda.compile_flags)
    assert any("arg-compare-dynamic-as-generic" in i for i in inject)
    assert len(e2e.compile_program(str(path), cuda, inject=inject, inject_codegen=codegen)) > 0
    vmfb = e2e.compile_program(str(path), CPU, inject=PASS)
    ids = np.random.default_rng(3).integers(0, 5, (2, 37)).astype(np.int64)
    (got,) = e2e.run_runtime(vmfb, CPU, "main", [ids])
    np.testing.assert_array_equal(got, ids.astype(np.int32).argmax(-1))

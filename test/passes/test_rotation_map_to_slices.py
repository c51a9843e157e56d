"""rotation-map-to-slices end to end: generics reading inputs through rotation maps, by numbers.

Stock IREE 3.13 does not compile a ``linalg.generic`` whose input map holds
``(d + c) mod n`` ("tiling is not supported for the semi-affine indexing
map"). With the pass, random generics (rank 1-3; one or two rotated dims,
shifts from -2n to 2n; the rotated input transposed or not, longer than the
period or dynamic; the other dims static or dynamic; a second input added)
compile in one module and each function equals numpy's ``np.take`` at
``(i + c) mod n``. Reading the input in the body instead would not do: the
test pins that IREE's vectorizer reads past the wrap there.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.errors import OptPyError
from opt_py.execution import e2e

CPU = e2e.TARGETS["cpu"]
PASS = ("global-optimization:rotation-map-to-slices",)
PARALLEL = '"parallel"'


@dataclass(frozen=True)
class Case:
    name: str
    loops: tuple  # loop sizes
    dynamic: tuple  # loops whose dims are dynamic in the types (never a rotated one in the output)
    perm: tuple  # x's dim k is indexed by loop perm[k]
    shifts: dict  # x's dim k -> shift c: x read at (d_perm[k] + c) mod loops[perm[k]]
    longer: dict  # x's dim k -> how much longer x is than the period (rotated dims only)
    x_dynamic: tuple  # x's dims that are dynamic in its type

    def x_shape(self):
        return tuple(self.loops[j] + self.longer.get(k, 0) for k, j in enumerate(self.perm))

    def function(self) -> str:
        rank = len(self.loops)
        ids = ", ".join(f"d{j}" for j in range(rank))
        out_t = "x".join("?" if j in self.dynamic else str(s) for j, s in enumerate(self.loops))
        x_t = "x".join("?" if k in self.x_dynamic else str(s) for k, s in enumerate(self.x_shape()))
        results = []
        for k, j in enumerate(self.perm):
            c = self.shifts.get(k)
            results.append(f"d{j}" if c is None else f"(d{j} + {c}) mod {self.loops[j]}")
        lines = [f"func.func @{self.name}(%x: tensor<{x_t}xf32>, %y: tensor<{out_t}xf32>) -> tensor<{out_t}xf32> {{"]
        dyn = []
        for j in self.dynamic:
            lines += [f"  %c{j} = arith.constant {j} : index", f"  %n{j} = tensor.dim %y, %c{j} : tensor<{out_t}xf32>"]
            dyn.append(f"%n{j}")
        lines += [
            f"  %e = tensor.empty({', '.join(dyn)}) : tensor<{out_t}xf32>",
            f"  %r = linalg.generic {{indexing_maps = [affine_map<({ids}) -> ({', '.join(results)})>, "
            f"affine_map<({ids}) -> ({ids})>, affine_map<({ids}) -> ({ids})>], "
            f"iterator_types = [{', '.join([PARALLEL] * rank)}]}} "
            f"ins(%x, %y : tensor<{x_t}xf32>, tensor<{out_t}xf32>) outs(%e : tensor<{out_t}xf32>) {{",
            "  ^bb0(%a: f32, %b: f32, %o: f32):",
            "    %s = arith.addf %a, %b : f32",
            "    linalg.yield %s : f32",
            f"  }} -> tensor<{out_t}xf32>",
            f"  return %r : tensor<{out_t}xf32>",
            "}",
        ]
        return "\n".join(lines)

    def expected(self, x, y):
        """out[i] = x[at] + y[i], at[k] = (i[perm[k]] + c_k) mod n for rotated dims, else i[perm[k]]."""
        grids = np.indices(self.loops)
        at = []
        for k, j in enumerate(self.perm):
            c = self.shifts.get(k)
            at.append(grids[j] if c is None else (grids[j] + c) % self.loops[j])
        return x[tuple(at)] + y


def random_case(rng, n: int) -> Case:
    rank = int(rng.integers(1, 4))
    loops = tuple(int(rng.integers(1, 9)) for _ in range(rank))
    perm = tuple(int(p) for p in rng.permutation(rank))
    rotated = sorted(int(k) for k in rng.choice(rank, size=min(rank, int(rng.integers(1, 3))), replace=False))
    shifts = {k: int(rng.integers(-2 * loops[perm[k]], 2 * loops[perm[k]] + 1)) for k in rotated}
    longer = {k: int(rng.integers(0, 3)) for k in rotated if rng.random() < 0.4}
    dynamic = tuple(j for j in range(rank) if j not in {perm[k] for k in rotated} and rng.random() < 0.5)
    x_dynamic = tuple(k for k in range(rank) if rng.random() < 0.4)
    return Case(f"case{n}", loops, dynamic, perm, shifts, longer, x_dynamic)


def cases(count: int, seed: int = 5) -> list[Case]:
    rng = np.random.default_rng(seed)
    return [random_case(rng, n) for n in range(count)]


CASES = cases(30)


def program(chosen) -> str:
    return "\n".join(c.function() for c in chosen) + "\n"


def compile_text(text, tmp_path, inject=(), name="p"):
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    return e2e.compile_program(str(path), CPU, inject=inject)


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    return compile_text(program(CASES), tmp_path_factory.mktemp("rotation"), PASS)


def test_every_case_is_rewritten():
    out = run_pipeline(program(CASES), "rotation-map-to-slices")
    assert " mod " not in out
    assert out.count("tensor.insert_slice") == 2 * sum(
        1 for c in CASES for k, s in c.shifts.items() if s % c.loops[c.perm[k]]
    )


def test_the_generator_covers_the_family():
    assert {len(c.loops) for c in CASES} == {1, 2, 3}
    assert any(len(c.shifts) == 2 for c in CASES)  # several rotated dims
    assert any(s < 0 for c in CASES for s in c.shifts.values())
    assert any(s >= c.loops[c.perm[k]] for c in CASES for k, s in c.shifts.items())  # beyond the period
    assert any(c.longer for c in CASES) and any(c.x_dynamic for c in CASES) and any(c.dynamic for c in CASES)
    assert any(c.perm != tuple(sorted(c.perm)) for c in CASES)  # a transposed read


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_rotation_matches_numpy(case, fixed):
    rng = np.random.default_rng(CASES.index(case))
    x = rng.standard_normal(case.x_shape()).astype(np.float32)
    y = rng.standard_normal(case.loops).astype(np.float32)
    (got,) = e2e.run_runtime(fixed, CPU, case.name, [x, y])
    np.testing.assert_array_equal(got, case.expected(x, y))


ISSUE_19898 = """
func.func @main(%x: tensor<1x1x1x6xf32>) -> tensor<1x1x1x6xf32> {
  %0 = tensor.empty() : tensor<1x1x1x6xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, (d3 + 3) mod 6)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x1x1x6xf32>) outs(%0 : tensor<1x1x1x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x1x6xf32>
  return %1 : tensor<1x1x1x6xf32>
}
"""

# The same rotation read in the body: IREE's vectorizer turns the canonicalized mod into a
# contiguous read from x[3] (in_bounds), so the wrapped half comes out as zeros.
EXTRACT = """
func.func @main(%x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = tensor.empty() : tensor<6xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%0 : tensor<6xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = affine.apply affine_map<(d0) -> ((d0 + 3) mod 6)>(%i)
    %v = tensor.extract %x[%j] : tensor<6xf32>
    linalg.yield %v : f32
  } -> tensor<6xf32>
  return %1 : tensor<6xf32>
}
"""


def test_issue_19898_stock_fails_and_the_pass_is_right(tmp_path):
    with pytest.raises(OptPyError, match="tiling is not supported for the semi-affine indexing map"):
        compile_text(ISSUE_19898, tmp_path)
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 1, 6)
    got = e2e.run_runtime(compile_text(ISSUE_19898, tmp_path, PASS, "fixed"), CPU, "main", [x])[0]
    np.testing.assert_array_equal(got, np.roll(x, -3, axis=3))


def test_reading_in_the_body_is_what_iree_gets_wrong(tmp_path):
    x = np.arange(6, dtype=np.float32)
    got = e2e.run_runtime(compile_text(EXTRACT, tmp_path), CPU, "main", [x])[0]
    np.testing.assert_array_equal(got, [3, 4, 5, 0, 0, 0])


def test_compiles_for_gpus_with_the_pass(gpu_compile_target, tmp_path):
    path = tmp_path / "issue.mlir"
    path.write_text(ISSUE_19898)
    with pytest.raises(OptPyError, match="linalg.generic"):  # a tiling error, a different one per target
        e2e.compile_program(str(path), gpu_compile_target)
    assert len(e2e.compile_program(str(path), gpu_compile_target, inject=PASS)) > 0

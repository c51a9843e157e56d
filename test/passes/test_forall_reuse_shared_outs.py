"""forall-reuse-shared-outs end to end, by numbers, through IREE.

The program is a function over tensors with an ``scf.forall`` whose body
computes each 16x32 tile of ``a * b + a`` (an elementwise ``linalg.generic``
over slices of the inputs) into a fresh ``tensor.empty`` and writes it back
with ``tensor.parallel_insert_slice``.

Two things IREE 3.13 does decide how the test is built:

* An ``scf.forall`` at function level is host code to IREE, and iree-compile
  crashes on it (a segfault in the stream affinity analysis); inside a
  ``flow.dispatch.region`` it is refused unless it carries
  ``#iree_linalg_ext.split_reduction_mapping``, and then it reaches the
  dispatch as written. So the program wraps the loop that way.
* The pass rewrites the function-level program as intended, but IREE's
  dispatch creation turns a destination that is never read back into a
  ``tensor.empty``: the empty is back by ``executable-sources``. To matter,
  the pass has to run after dispatch creation; run there
  (``--inject executable-sources:...``), its rewrite survives IREE's codegen
  up to ``iree-eliminate-empty-tensors`` (checked inside codegen).

Checked: the pass rewrites (no ``tensor.empty`` directly in an ``scf.forall``
body, where the control shows there is one); the CPU results with and without
the pass equal numpy, through ``iree.runtime`` and ``iree-run-module``; the
program compiles with the pass for cuda sm_80 and rocm gfx942. And 16 random
tilings (shapes, tile sizes; an elementwise tile, a fill-then-matmul chain,
or two half tiles of one output; sometimes a tile also inserted into a second
output, which the pass must leave alone): the pass rewrites exactly the
tiles it should, on the input program and after dispatch creation, and the
numbers equal numpy with and without it. Bufferization
allocates nothing for this program with or without the pass (IREE's own
empty-tensor elimination also handles this simple case); the pass makes the
tile's in-place destination explicit before IREE's tiling instead.
"""

import re
from dataclasses import dataclass

import numpy as np
import pytest
from opt_py import OptPyError, Pass, PipelineFailed, register_pass, run_pipeline
from opt_py.execution import e2e

PROGRAM = """
func.func @f(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %res = flow.dispatch.region -> (tensor<64x128xf32>) {
    %out = tensor.empty() : tensor<64x128xf32>
    %r = scf.forall (%i, %j) = (0, 0) to (64, 128) step (16, 32) shared_outs(%o = %out) -> (tensor<64x128xf32>) {
      %sa = tensor.extract_slice %a[%i, %j] [16, 32] [1, 1] : tensor<64x128xf32> to tensor<16x32xf32>
      %sb = tensor.extract_slice %b[%i, %j] [16, 32] [1, 1] : tensor<64x128xf32> to tensor<16x32xf32>
      %e = tensor.empty() : tensor<16x32xf32>
      %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                            affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%sa, %sb : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
      ^bb0(%x: f32, %y: f32, %z: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %p, %x : f32
        linalg.yield %s : f32
      } -> tensor<16x32xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %g into %o[%i, %j] [16, 32] [1, 1] : tensor<16x32xf32> into tensor<64x128xf32>
      }
    } {mapping = [#iree_linalg_ext.split_reduction_mapping<1>, #iree_linalg_ext.split_reduction_mapping<0>]}
    flow.return %r : tensor<64x128xf32>
  }
  return %res : tensor<64x128xf32>
}
"""

PASS = "forall-reuse-shared-outs"
CHECK = "test-expect-no-empty-in-forall"
NO_EMPTY = "a tensor.empty sits directly in an scf.forall body"
# Inside codegen: the last point before IREE's own empty-tensor elimination.
BEFORE_ELIMINATION = "before:iree-eliminate-empty-tensors"


@dataclass(frozen=True)
class ExpectNoEmptyInForall(Pass):
    name = CHECK
    anchor = "any"
    summary = "Test: fail where a tensor.empty sits directly in the body of an scf.forall"

    def run(self, root, ctx):
        from iree.compiler import ir

        found = []

        def visit(o):
            parent = o.parent
            if o.name == "tensor.empty" and parent is not None and parent.name == "scf.forall":
                found.append(o)
            return ir.WalkResult.ADVANCE

        root.operation.walk(visit)
        for o in found:
            ctx.emit_error(o, NO_EMPTY)


register_pass(ExpectNoEmptyInForall)


def inputs():
    rng = np.random.default_rng(5)
    return [rng.standard_normal((64, 128)).astype(np.float32) for _ in range(2)]


def reference(a, b):
    return a * b + a


def build(tmp_path, text, target, inject=(), inject_codegen=()):
    path = tmp_path / "forall.mlir"
    path.write_text(text)
    return e2e.compile_program(str(path), target, inject=inject, inject_codegen=inject_codegen)


def test_pass_rewrites_the_function():
    with pytest.raises(PipelineFailed, match=NO_EMPTY):
        run_pipeline(PROGRAM, CHECK)  # the control: the tile's empty is there
    out = run_pipeline(PROGRAM, f"{PASS},{CHECK}")
    assert "tensor.extract_slice %arg4[%arg2, %arg3] [16, 32] [1, 1]" in out
    assert "outs(%extracted_slice_1 : tensor<16x32xf32>)" in out


def test_dispatch_creation_brings_the_empty_back(tmp_path):
    """Why the pass must run after dispatch creation, not on the input program."""
    cpu = e2e.TARGETS["cpu"]
    rewritten = run_pipeline(PROGRAM, PASS)
    with pytest.raises(OptPyError, match=NO_EMPTY):
        build(tmp_path, rewritten, cpu, inject=(f"executable-sources:{CHECK}",))
    assert len(build(tmp_path, PROGRAM, cpu, inject=(f"executable-sources:{PASS},{CHECK}",))) > 0


@pytest.mark.parametrize("name", ["cpu", "cuda", "rocm"])
def test_numbers_match_numpy(name, tmp_path):
    target = e2e.TARGETS[name]
    ok, why = e2e.device_available(target)
    if not ok:
        pytest.skip(f"{name}: {why}")
    args = inputs()
    want = reference(*args)
    variants = {
        "without the pass": build(tmp_path, PROGRAM, target),
        "pass on the input program": build(tmp_path, run_pipeline(PROGRAM, PASS), target),
        "pass after dispatch creation": build(
            tmp_path, PROGRAM, target, inject=(f"executable-sources:{PASS},{CHECK}",)
        ),
    }
    for label, vmfb in variants.items():
        for runner, got in (
            ("runtime", e2e.run_runtime(vmfb, target, "f", args)),
            ("cli", e2e.run_cli(vmfb, target, "f", args, 1)),
        ):
            diffs = e2e.compare(got, [want])
            assert all(d.same for d in diffs), f"{label}, {runner}:\n{e2e.format_report(diffs, 'iree', 'numpy')}"


@pytest.mark.parametrize("name", ["cpu", "cuda", "rocm"])
def test_rewrite_reaches_bufferization(name, tmp_path):
    """Inside IREE's codegen (compiling for a GPU needs no GPU)."""
    target = e2e.TARGETS[name]
    check = (f"{BEFORE_ELIMINATION}:{CHECK}",)
    with pytest.raises(OptPyError, match=NO_EMPTY):
        build(tmp_path, PROGRAM, target, inject_codegen=check)  # the control: IREE keeps a tile empty
    vmfb = build(tmp_path, PROGRAM, target, inject=(f"executable-sources:{PASS}",), inject_codegen=check)
    assert len(vmfb) > 0


# --------------------------------------------------------------------------
# Random tilings
# --------------------------------------------------------------------------

MAPPING = "[#iree_linalg_ext.split_reduction_mapping<1>, #iree_linalg_ext.split_reduction_mapping<0>]"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"


def _tensor(rows, cols):
    return f"tensor<{rows}x{cols}xf32>"


def _elementwise(res, ins, out, ty):
    """``res = ins[0] * ins[1] + ins[0]`` over one tile, into ``out``."""
    maps = ", ".join([ID2] * (len(ins) + 1))
    return (
        f'      {res} = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}} '
        f"ins({', '.join(ins)} : {', '.join([ty] * len(ins))}) outs({out} : {ty}) {{\n"
        f"      ^bb0(%x0: f32, %x1: f32, %z: f32):\n        %p = arith.mulf %x0, %x1 : f32\n"
        f"        %y = arith.addf %p, %x0 : f32\n        linalg.yield %y : f32\n      }} -> {ty}"
    )


def random_tiling(rng, index):
    """One function @h{index}: (text, inputs, references, whether the pass should rewrite).

    An MxN result tiled (tm, tn) by an ``scf.forall`` whose shared output
    starts from ``tensor.empty``; each tile is ``a * b + a`` into a fresh
    empty, or ``fill`` then ``matmul`` (a chain of destinations), or two
    half-width tiles each with its own empty inserted into the same output.
    Sometimes the tile is also inserted into a second shared output: its
    result then has two uses and must be left alone. Tiles divide the shape,
    and the output starts empty: IREE 3.13 fails to compile such a loop
    stock otherwise (ragged ``affine.min`` tiles: "operand does not dominate
    this use"; a shared output starting from an input: "write affecting
    operations on global resources are restricted to workgroup distributed
    contexts"), so no other form can be compared by numbers.
    """
    m, n, k = rng.randint(2, 40), rng.randint(2, 40), rng.randint(1, 9)
    tm = rng.choice([d for d in range(1, m + 1) if m % d == 0])
    tn = rng.choice([d for d in range(1, n + 1) if n % d == 0])
    kind = rng.choice(["elementwise", "matmul"] + (["halves"] if tn > 1 else []))
    twice = rng.random() < 0.3
    nprng = np.random.default_rng(3000 + index)
    a_shape, b_shape = ((m, k), (k, n)) if kind == "matmul" else ((m, n), (m, n))
    a, b = (nprng.standard_normal(s).astype(np.float32) for s in (a_shape, b_shape))
    ta, tb, t, ts = _tensor(*a_shape), _tensor(*b_shape), _tensor(m, n), _tensor(tm, tn)
    outs = ["%o = %out"] + (["%o2 = %out2"] if twice else [])
    results = ", ".join([t] * len(outs))
    lines = [
        f"func.func @h{index}(%a: {ta}, %b: {tb}) -> ({results}) {{",
        f"  %res:{len(outs)} = flow.dispatch.region -> ({results}) {{",
        f"    %out = tensor.empty() : {t}",
        f"    %out2 = tensor.empty() : {t}",
        f"    %r:{len(outs)} = scf.forall (%i, %j) = (0, 0) to ({m}, {n}) step ({tm}, {tn}) "
        f"shared_outs({', '.join(outs)}) -> ({results}) {{",
    ]
    tiles = []  # (value, column offset, width)
    if kind == "matmul":
        lines += [
            f"      %sa = tensor.extract_slice %a[%i, 0] [{tm}, {k}] [1, 1] : {ta} to {_tensor(tm, k)}",
            f"      %sb = tensor.extract_slice %b[0, %j] [{k}, {tn}] [1, 1] : {tb} to {_tensor(k, tn)}",
            f"      %e = tensor.empty() : {ts}",
            "      %zero = arith.constant 0.0 : f32",
            f"      %f = linalg.fill ins(%zero : f32) outs(%e : {ts}) -> {ts}",
            f"      %g = linalg.matmul ins(%sa, %sb : {_tensor(tm, k)}, {_tensor(k, tn)}) outs(%f : {ts}) -> {ts}",
        ]
        tiles.append(("%g", "%j", tn))
        want = a.astype(np.float64) @ b.astype(np.float64)
    else:
        halves = [("%j", tn)] if kind == "elementwise" else [("%j", tn // 2), ("%j2", tn - tn // 2)]
        if kind == "halves":
            lines.append(f"      %j2 = affine.apply affine_map<(d0) -> (d0 + {tn // 2})>(%j)")
        for q, (col, width) in enumerate(halves):
            th = _tensor(tm, width)
            lines += [
                f"      %sa{q} = tensor.extract_slice %a[%i, {col}] [{tm}, {width}] [1, 1] : {t} to {th}",
                f"      %sb{q} = tensor.extract_slice %b[%i, {col}] [{tm}, {width}] [1, 1] : {t} to {th}",
                f"      %e{q} = tensor.empty() : {th}",
                _elementwise(f"%g{q}", [f"%sa{q}", f"%sb{q}"], f"%e{q}", th),
            ]
            tiles.append((f"%g{q}", col, width))
        want = a.astype(np.float64) * b + a
    lines.append("      scf.forall.in_parallel {")
    for value, col, width in tiles:
        for o in ("%o", "%o2")[: len(outs)]:
            lines.append(
                f"        tensor.parallel_insert_slice {value} into {o}[%i, {col}] [{tm}, {width}] [1, 1] "
                f": {_tensor(tm, width)} into {t}"
            )
    lines += [
        f"      }}\n    }} {{mapping = {MAPPING}}}",
        f"    flow.return {', '.join(f'%r#{q}' for q in range(len(outs)))} : {results}\n  }}",
        f"  return {', '.join(f'%res#{q}' for q in range(len(outs)))} : {results}\n}}",
    ]
    return "\n".join(lines) + "\n", [a, b], [want.astype(np.float32)] * len(outs), not twice


def empties_in_forall(text) -> dict[str, int]:
    """Per function: tensor.empty ops directly in an scf.forall body."""
    from iree.compiler import ir
    from opt_py.run.engine import make_context

    counts = {}
    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        for f in module.body.operations:
            found = []

            def visit(o, found=found):
                if o.name == "tensor.empty" and o.parent is not None and o.parent.name == "scf.forall":
                    found.append(o)
                return ir.WalkResult.ADVANCE

            f.operation.walk(visit)
            counts[f.attributes["sym_name"].value] = len(found)
    return counts


TILINGS = 16


def test_random_tilings(tmp_path):
    """Random shapes, tile sizes and tile bodies: the pass rewrites every
    tile's empty unless the tile also goes to a second output, and the
    program computes numpy's numbers without the pass, with it on the input
    program, and with it injected after dispatch creation."""
    import random

    rng = random.Random(20261122)
    cases = [random_tiling(rng, i) for i in range(TILINGS)]
    text = "\n".join(c[0] for c in cases)
    rewritten = run_pipeline(text, PASS)
    before, after = empties_in_forall(text), empties_in_forall(rewritten)
    for i, (src, _, _, rewrites) in enumerate(cases):
        assert before[f"h{i}"] > 0
        assert after[f"h{i}"] == (0 if rewrites else before[f"h{i}"]), f"h{i}:\n{src}"
    assert {c[3] for c in cases} == {True, False}
    assert all(any(f"linalg.{op}" in c[0] for c in cases) for op in ("matmul", "generic"))
    assert any("%j2" in c[0] for c in cases)  # two tiles of one output
    cpu = e2e.TARGETS["cpu"]
    # After dispatch creation too, the pass leaves no tile empty in the loops it should rewrite.
    build(tmp_path, "\n".join(c[0] for c in cases if c[3]), cpu, inject=(f"executable-sources:{PASS},{CHECK}",))
    variants = {
        "without the pass": build(tmp_path, text, cpu),
        "pass on the input program": build(tmp_path, rewritten, cpu),
        "pass after dispatch creation": build(tmp_path, text, cpu, inject=(f"executable-sources:{PASS}",)),
    }
    for i, (src, args, want, _) in enumerate(cases):
        for label, vmfb in variants.items():
            diffs = e2e.compare(e2e.run_runtime(vmfb, cpu, f"h{i}", args), want, rtol=1e-5, atol=1e-5)
            assert all(d.same for d in diffs), f"h{i}, {label}:\n{e2e.format_report(diffs, 'iree', 'numpy')}\n{src}"


# --------------------------------------------------------------------------
# One-row tiles: the issue's whole-row allocation, on llvm-cpu
# --------------------------------------------------------------------------


def one_row_tiles(rows, cols):
    """``a * b + a`` tiled one row at a time: dispatch creation drops the
    tile's unit dim, so a ``tensor.collapse_shape`` sits between the tile and
    its (rank-reducing) insertion."""
    t, tr = _tensor(rows, cols), _tensor(1, cols)
    return "\n".join(
        [
            f"func.func @f(%a: {t}, %b: {t}) -> {t} {{",
            f"  %res = flow.dispatch.region -> ({t}) {{",
            f"    %out = tensor.empty() : {t}",
            f"    %r = scf.forall (%i, %j) = (0, 0) to ({rows}, {cols}) step (1, {cols}) shared_outs(%o = %out) -> ({t}) {{",
            f"      %sa = tensor.extract_slice %a[%i, %j] [1, {cols}] [1, 1] : {t} to {tr}",
            f"      %sb = tensor.extract_slice %b[%i, %j] [1, {cols}] [1, 1] : {t} to {tr}",
            f"      %e = tensor.empty() : {tr}",
            _elementwise("%g", ["%sa", "%sb"], "%e", tr),
            "      scf.forall.in_parallel {",
            f"        tensor.parallel_insert_slice %g into %o[%i, %j] [1, {cols}] [1, 1] : {tr} into {t}",
            f"      }}\n    }} {{mapping = {MAPPING}}}",
            f"    flow.return %r : {t}\n  }}",
            f"  return %res : {t}\n}}\n",
        ]
    )


def test_one_row_tiles_fit_the_stack(tmp_path):
    """Stock IREE 3.13 gives each one-row tile a private buffer (its
    empty-tensor elimination does not see through the unit-dim collapse):
    64 KiB rows exceed llvm-cpu's 32 KiB stack limit and the program does
    not compile, as the report's 1 MiB row exceeded gfx942's workgroup
    memory. With the pass after dispatch creation the tile is a slice of
    the output, nothing is allocated, and the numbers are numpy's."""
    cpu = e2e.TARGETS["cpu"]
    text = one_row_tiles(8, 16384)
    with pytest.raises(OptPyError, match="exceeded stack allocation limit of 32768 bytes for function. Got 65536"):
        build(tmp_path, text, cpu)
    vmfb = build(tmp_path, text, cpu, inject=(f"executable-sources:{PASS},{CHECK}",))
    rng = np.random.default_rng(9)
    a, b = (rng.standard_normal((8, 16384)).astype(np.float32) for _ in range(2))
    diffs = e2e.compare(e2e.run_runtime(vmfb, cpu, "f", [a, b]), [a * b + a])
    assert all(d.same for d in diffs), e2e.format_report(diffs, "iree", "numpy")


def test_fixes_hold_the_pass_back_until_the_stack_overflows(tmp_path):
    """``--fixes`` holds this pass back (it rewrites tiles stock compiles well, too): the one-row program
    fails a first compile with the stack overflow it exists for and is compiled again with it, right; a
    program whose tiles fit is compiled once, without it."""
    from opt_py.iree import fixes

    cpu = e2e.TARGETS["cpu"]
    path = tmp_path / "rows.mlir"
    path.write_text(one_row_tiles(8, 16384))
    result, run = fixes.compile_with_fixes(str(path), list(cpu.compile_flags))
    assert result.ok, result.messages
    # Every held-back fix whose failure is a stack error comes back (argsort-indices-only too; its op guard
    # keeps it from running on a module without a sort).
    assert PASS in [f.name for f in run.brought] and "exceeded stack allocation limit" in run.failure
    assert re.search(rf"compiling again with .*{PASS}", result.messages[0]), result.messages[0]
    rng = np.random.default_rng(9)
    a, b = (rng.standard_normal((8, 16384)).astype(np.float32) for _ in range(2))
    diffs = e2e.compare(e2e.run_runtime(result.output, cpu, "f", [a, b]), [a * b + a])
    assert all(d.same for d in diffs), e2e.format_report(diffs, "iree", "numpy")
    path.write_text(one_row_tiles(8, 1024))
    result, run = fixes.compile_with_fixes(str(path), list(cpu.compile_flags))
    assert result.ok and run.brought == [] and PASS in [f.name for f in run.held]

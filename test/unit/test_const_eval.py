"""opt-py's const-eval (iree/const_eval.py): the fixes reach the constants IREE evaluates at compile time.

Proof by running: IREE #19898's form (a constant read through a rotation
map) compiles with ``--fixes`` and const-eval on, and computes the right
numbers. Faithfulness: with nothing injected in the nested compile the module
is IREE's byte for byte, expressions over a parameter or a mutable global
left to run time as IREE leaves them (here on a small program; on the
real-model corpora, for llvm-cpu and cuda, with ``--runslow``:
python/corpus/const_eval_check.py). Which initializers it evaluates, and which it
notes it leaves, is checked on IR; a failing nested compile names the
initializer.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
ROTATION = ROOT / "examples" / "const-eval-rotation.mlir"
CPU = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
CUDA = ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"]

# Constant expressions IREE hoists into initializers and evaluates: a chain (the second reads the first's
# global), a 0-d argument, a bf16 result, a result whose values are all equal (a splat attribute). And two
# it leaves to
# run time: an expression over a parameter, and one over a mutable global.
CONSTANTS = """
#id = affine_map<(d0) -> (d0)>
util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4xf32>
util.global private mutable @state = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
func.func @consts(%y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>) {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %three = arith.constant dense<3.0> : tensor<4xf32>
  %two = arith.constant 2.0 : f32
  %k = arith.constant dense<[2.5]> : tensor<1xf32>
  %k0 = tensor.collapse_shape %k [] : tensor<1xf32> into tensor<f32>
  %w = util.global.load @w : tensor<4xf32>
  %s = util.global.load @state : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %eb = tensor.empty() : tensor<4xbf16>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %x = math.exp %m : f32
    linalg.yield %x : f32
  } -> tensor<4xf32>
  %sq2 = linalg.generic {indexing_maps = [#id, affine_map<(d0) -> ()>, #id], iterator_types = ["parallel"]}
      ins(%sq, %k0 : tensor<4xf32>, tensor<f32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = math.sqrt %a : f32
    %n = arith.mulf %m, %b : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %bf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : tensor<4xf32>) outs(%eb : tensor<4xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %m = arith.divf %a, %two : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4xbf16>
  %sp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%three : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.sqrt %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %wq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %0 = arith.addf %sq, %y : tensor<4xf32>
  %1 = arith.addf %sq2, %y : tensor<4xf32>
  %2 = arith.addf %sp, %y : tensor<4xf32>
  %ws = arith.addf %wq, %ss : tensor<4xf32>
  %3 = arith.addf %ws, %y : tensor<4xf32>
  util.global.store %3, @state : tensor<4xf32>
  return %0, %1, %bf, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>
}
"""


def opt_py(*args):
    return subprocess.run([sys.executable, "-m", "opt_py", *map(str, args)], capture_output=True, text=True)


def compile_both(path, flags, nested_fixes=()):
    """The module with IREE's const-eval, the module with opt-py's, and opt-py's ConstEval."""
    from opt_py.iree import fixes
    from opt_py.iree.phases import compile_with_injections
    from opt_py.run.bindings import import_bindings_lean

    import_bindings_lean()
    iree = compile_with_injections(str(path), flags, [])
    ours, flags_ours, notes = fixes.const_eval_takeover(list(nested_fixes), flags)
    assert notes == []
    result = compile_with_injections(str(path), flags_ours, [], const_eval=ours)
    assert iree.ok and result.ok, iree.messages + result.messages
    return iree, result, ours


def test_rotated_constant_compiles_with_fixes_and_is_right(tmp_path):
    import iree.runtime as rt

    out = tmp_path / "m.vmfb"
    proc = opt_py("compile", ROTATION, "-o", out, "--fixes", "--fixes-report", *CPU)
    assert proc.returncode == 0, proc.stderr
    assert "rotation-map-to-slices" in proc.stderr and "1 x input_through_rotated_copy" in proc.stderr
    config = rt.Config("local-task")
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.copy_buffer(config.vm_instance, out.read_bytes()))
    y = np.random.default_rng(0).standard_normal((1, 1, 1, 6)).astype(np.float32)
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 1, 6)
    expected = np.roll(x, -3, axis=3) ** 2 + y  # x[(i + 3) mod 6] squared: [9 16 25 0 1 4] + y
    np.testing.assert_allclose(np.asarray(ctx.modules.module["rotate_const"](y)), expected, rtol=1e-6)


def test_nothing_injected_gives_irees_module_byte_for_byte(tmp_path):
    path = tmp_path / "consts.mlir"
    path.write_text(CONSTANTS)
    iree, ours, ce = compile_both(path, CPU)
    assert len(ce.evaluated) == 4 and any("__hoisted_tensor_4xbf16" in e for e in ce.evaluated)
    assert not [m for m in ours.messages if "const-eval" in m]  # the parameter and the mutable: as IREE, no note
    assert ours.output == iree.output


def test_a_failing_nested_compile_names_the_initializer(tmp_path):
    # Without rotation-map-to-slices inside, the JIT module fails as stock's does; of its two functions,
    # compiled one at a time, the rotation's is named.
    exp = (
        "  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = "
        '["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x1x6xf32>) '
        "outs(%e : tensor<1x1x1x6xf32>) {\n  ^bb0(%a: f32, %o: f32):\n    %t = math.exp %a : f32\n"
        "    linalg.yield %t : f32\n  } -> tensor<1x1x1x6xf32>\n"
    )
    text = "#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>\n" + ROTATION.read_text().replace(
        "  %z = arith.addf %r, %y", exp + "  %p = arith.addf %q, %y : tensor<1x1x1x6xf32>\n  %z = arith.addf %r, %p"
    )
    program = tmp_path / "two.mlir"
    program.write_text(text)
    proc = opt_py("compile", program, "-o", tmp_path / "m.vmfb", "--fixes=sort-slice-to-topk", *CPU)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert f"{program}:8:8: error: 'linalg.generic' op tiling is not supported" in proc.stderr
    assert lines[-1] == (
        f"opt-py: error: const-eval of the initializer at {program}:8:8 (storing @__hoisted_tensor_6xf32) "
        "failed: compiling it for the host CPU failed after phase 'global-optimization'"
    )
    assert "before reaching phase" not in proc.stderr
    assert not (tmp_path / "m.vmfb").exists()


# --------------------------------------------------------------------------
# Which initializers, on IR at the end of global-optimization
# --------------------------------------------------------------------------

GLOBAL_OPT = """
#id = affine_map<(d0) -> (d0)>
module {
  util.global private @__hoisted_a : tensor<4xf32>
  util.initializer {
    %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%c : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    util.global.store %r, @__hoisted_a : tensor<4xf32>
    util.return
  }
  util.global private @__hoisted_b : tensor<4xf32>
  util.initializer {
    %a = util.global.load immutable @__hoisted_a : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.addf %x, %x : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    util.global.store %r, @__hoisted_b : tensor<4xf32>
    util.return
  }
  util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4xf32>
  util.global private @__hoisted_c : tensor<4xf32>
  util.initializer {
    %w = util.global.load immutable @w : tensor<4xf32>
    %r = arith.addf %w, %w : tensor<4xf32>
    util.global.store %r, @__hoisted_c : tensor<4xf32>
    util.return
  }
  util.global private mutable @m : tensor<4xf32>
  util.initializer {
    %c = arith.constant dense<1.0> : tensor<4xf32>
    %r = arith.addf %c, %c : tensor<4xf32>
    util.global.store %r, @m : tensor<4xf32>
    util.return
  }
  util.global private @g : tensor<4xf32>
  util.initializer {
    %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %r = tensor.generate {
    ^bb0(%i: index):
      %f = tensor.extract %c[%i] : tensor<4xf32>
      tensor.yield %f : f32
    } : tensor<4xf32>
    util.global.store %r, @g : tensor<4xf32>
    util.return
  }
  util.global private @__hoisted_iota : tensor<4xf32>
  util.initializer {
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<4xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %n = arith.index_cast %i : index to i64
      %f = arith.sitofp %n : i64 to f32
      linalg.yield %f : f32
    } -> tensor<4xf32>
    util.global.store %r, @__hoisted_iota : tensor<4xf32>
    util.return
  }
  util.global private @__hoisted_d : tensor<4xf32>
  util.initializer {
    %g = util.global.load immutable @g : tensor<4xf32>
    %r = arith.mulf %g, %g : tensor<4xf32>
    util.global.store %r, @__hoisted_d : tensor<4xf32>
    util.return
  }
  util.global private @h : tensor<4xf32>
  util.initializer {
    %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %r = arith.mulf %c, %c : tensor<4xf32>
    util.global.store %r, @h : tensor<4xf32>
    util.return
  }
  util.global private @barrier : tensor<4xf32>
  util.initializer {
    %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %b = util.optimization_barrier %c : tensor<4xf32>
    util.global.store %b, @barrier : tensor<4xf32>
    util.return
  }
}
"""


def test_plan_picks_what_iree_picks_and_notes_what_it_leaves():
    from iree.compiler import ir
    from opt_py.iree import const_eval
    from opt_py.run.engine import make_context

    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(GLOBAL_OPT)
        chosen = const_eval.plan(module.operation)
        picked = {g: (j.name, j.loads, len(j.constants)) for j in chosen.jits for g in j.globals}
        assert picked == {
            "__hoisted_a": ("jit_eval", [], 1),  # the loose tensor constant is an argument
            "__hoisted_b": ("jit_eval_0", ["__hoisted_a"], 0),  # reads what the one before stores
            "h": ("jit_eval_1", [], 1),  # not hoisted, but made of ops IREE surely takes for constant
        }
        # The parameter, the mutable global, the barrier and the iota (no constant in reach of IREE's
        # const-expr analysis: a hoisted initializer it leaves) IREE leaves too: no note. tensor.generate
        # opt-py cannot vouch for, and what reads its global with it.
        assert len(chosen.notes) == 2, chosen.notes
        assert "(storing @g) is left to run time" in chosen.notes[0]
        assert "cannot tell whether IREE takes 'tensor.generate'" in chosen.notes[0]
        assert (
            "(storing @__hoisted_d)" in chosen.notes[1]
            and "it loads @g, which opt-py leaves to run time" in chosen.notes[1]
        )
        jit = str(chosen.jit_module)
        assert "iree.consteval" in jit and "util.global" not in jit
        assert "util.func public @jit_eval_0(%arg0: tensor<4xf32>) -> tensor<4xf32>" in jit


@pytest.mark.parametrize(
    "flags, taken, note",
    [
        ([], True, None),
        (["--iree-opt-const-eval=false"], False, None),
        (["--iree-opt-numeric-precision-reduction"], False, "--iree-opt-numeric-precision-reduction"),
        (["--iree-parameter-export=p.irpa"], False, "parameters are exported right after"),
        (["--iree-consteval-jit-target-device=vmvx"], False, "asked for another device"),
    ],
)
def test_takeover_leaves_const_eval_to_iree_when_it_must(flags, taken, note):
    from opt_py.iree import fixes

    ours, outer, notes = fixes.const_eval_takeover(fixes.select("all"), [*CPU, *flags])
    assert (ours is not None) == taken
    assert outer[-1] == "--iree-opt-const-eval=false" if taken else outer == [*CPU, *flags]
    assert (note is None and notes == []) or (len(notes) == 1 and note in notes[0])


def test_nested_flags_are_the_jits():
    from opt_py.iree import const_eval, fixes

    outer = [*CUDA, "--iree-opt-level=O3", "--iree-llvmcpu-target-cpu=znver4", "--iree-llvmcpu-use-fast-min-max-ops"]
    ours, _, _ = fixes.const_eval_takeover(fixes.select("rotation-map-to-slices,fold-subview-into-gather"), outer)
    assert ours.flags == [*const_eval.JIT_FLAGS, "--iree-opt-level=O3", "--iree-llvmcpu-use-fast-min-max-ops"]
    assert [j.pipeline for j in ours.injections] == ["rotation-map-to-slices"] and ours.codegen == []  # host CPU


def test_compile_to_before_the_phase_end_keeps_irees():
    from opt_py.iree import fixes

    assert fixes.const_eval_takeover(fixes.select("all"), CPU, "global-optimization")[0] is None
    assert fixes.const_eval_takeover(fixes.select("all"), CPU, "flow")[0] is not None


# --------------------------------------------------------------------------
# The real-model corpora (slow)
# --------------------------------------------------------------------------


MODELS = sorted(p.parent.name for c in ("models", "library_models") for p in (ROOT / "test" / c).glob("*/model.mlir"))


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cpu", "cuda"])
@pytest.mark.parametrize("model", MODELS)
def test_corpus_model_is_irees_module_byte_for_byte(model, target):
    from opt_py.corpus import const_eval_check as tool

    (path,) = tool.models(model)
    verdict = tool.compare(path, tool.TARGETS[target])
    if not verdict.compiled:
        pytest.skip(f"--fixes does not compile {model} for {target}")
    # Or different only in the bytes of a global that its initializer never writes (a static cache's index
    # tensor filled two columns of four): IREE's own result there is whatever its runtime's memory held.
    assert verdict.faithful(), verdict


SCALARS_AND_BYTES = """
util.func public @jit_eval(%a: i32, %b: f32, %m: tensor<3xi1>, %h: tensor<2xbf16>)
    -> (i32, f32, tensor<3xi1>, tensor<2xbf16>) {
  %0 = arith.muli %a, %a : i32
  %1 = arith.addf %b, %b : f32
  %t = arith.constant dense<true> : tensor<3xi1>
  %2 = arith.xori %m, %t : tensor<3xi1>
  %3 = arith.addf %h, %h : tensor<2xbf16>
  util.return %0, %1, %2, %3 : i32, f32, tensor<3xi1>, tensor<2xbf16>
}
util.func public @jit_eval_0() -> tensor<2xi32> {
  %c = arith.constant dense<[3, 4]> : tensor<2xi32>
  util.return %c : tensor<2xi32>
}
"""


def test_values_cross_to_the_runtime_and_back_as_irees_jit_passes_them(tmp_path):
    """Scalars as VM values, i1 as a byte each, bf16 (which numpy cannot read); a function without
    arguments (a static cache's index columns) too."""
    from iree.compiler import ir
    from opt_py.iree import const_eval
    from opt_py.iree.phases import compile_with_injections
    from opt_py.run.engine import make_context

    path = tmp_path / "jit.mlir"
    path.write_text(SCALARS_AND_BYTES)
    compiled = compile_with_injections(str(path), list(const_eval.JIT_FLAGS), [])
    assert compiled.ok, compiled.messages
    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(
            "util.global private @a = 7 : i32\nutil.global private @b = 1.5 : f32\n"
            "util.global private @m = dense<[true, false, true]> : tensor<3xi1>\n"
            "util.global private @h = dense<[1.0, 2.0]> : tensor<2xbf16>\n"
            + "".join(f"util.global private @{g} : {t}\n" for g, t in [("x", "i32"), ("y", "f32")])
            + "util.global private @mm : tensor<3xi1>\nutil.global private @hh : tensor<2xbf16>\n"
            + "util.global private @z : tensor<2xi32>\n"
        )
        globals_ = const_eval.Analysis.globals_of(module.operation)
        jit = const_eval.Jit(None, "here", ["x", "y", "mm", "hh"], loads=["a", "b", "m", "h"], name="jit_eval")
        alone = const_eval.Jit(None, "there", ["z"], name="jit_eval_0")
        const_eval._run(compiled.output, [jit, alone], globals_)
        values = [str(globals_[g].attributes["initial_value"]) for g in ("x", "y", "mm", "hh", "z")]
    assert values == [
        "49 : i32",
        "3.000000e+00 : f32",
        "dense<[false, true, false]> : tensor<3xi1>",
        "dense<[2.000000e+00, 4.000000e+00]> : tensor<2xbf16>",
        "dense<[3, 4]> : tensor<2xi32>",
    ]

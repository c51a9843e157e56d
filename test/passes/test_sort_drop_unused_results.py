"""sort-drop-unused-results: against IREE's own sort canonicalization, and end to end.

IREE's canonicalize drops sort results that are unused and whose block
arguments are unused; where both apply, the results must be identical. Random
sorts (operand count, element types, which arguments the comparator reads,
which results are used) with a fixed seed.

End to end, top-k compiles for GPUs and is right on CPU: CI runs a fixed
sample of the matrix in opt_py/cases/topk.py; tools/bench_topk.py runs all of
it and counts how many variants compile for each GPU target with and without
the pass.
"""

import random
import re

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.cases import topk
from opt_py.execution import e2e

TYPES = ["f32", "f16", "i32", "i64"]


def random_sort(rng: random.Random) -> str:
    n = rng.randint(1, 4)
    types = [rng.choice(TYPES) for _ in range(n)]
    shape = rng.choice(["8", "4x16", "2x3x5"])
    dim = rng.randrange(len(shape.split("x")))
    tensors = [f"tensor<{shape}x{t}>" for t in types]
    read = rng.randrange(n)  # the comparator reads operand `read`
    used = sorted(rng.sample(range(n), rng.randint(0, n)))
    args = ", ".join(f"%a{i}: {tensors[i]}" for i in range(n))
    bb = ", ".join(f"%l{i}: {t}, %r{i}: {t}" for i, t in enumerate(types))
    t = types[read]
    cmp = (
        f"arith.cmpf olt, %l{read}, %r{read} : {t}"
        if t.startswith("f")
        else f"arith.cmpi slt, %l{read}, %r{read} : {t}"
    )
    rets = ", ".join(f"%s#{i}" for i in used)
    rtypes = ", ".join(tensors[i] for i in used)
    ret = f"  return {rets} : {rtypes}" if used else "  return"
    return (
        (
            f"func.func @f({args}) -> ({rtypes}) {{\n"
            f"  %s:{n} = iree_linalg_ext.sort dimension({dim}) outs({', '.join(f'%a{i}' for i in range(n))} : "
            f"{', '.join(tensors)}) {{\n"
            f"  ^bb0({bb}):\n    %c = {cmp}\n    iree_linalg_ext.yield %c : i1\n"
            f"  }} -> {', '.join(tensors)}\n{ret}\n}}\n"
        )
        .replace("%s:1 =", "%s =")
        .replace("%s#0", "%s" if n == 1 else "%s#0")
    )


def sort_results(text: str) -> list[int]:
    """How many results each sort in ``text`` has, in order."""
    return [int(n or 1) for n in re.findall(r"%\w+(?::(\d+))? = iree_linalg_ext.sort", text)]


@pytest.mark.parametrize("seed", range(40))
def test_same_as_iree_canonicalize(seed):
    """The pass alone does what canonicalize does to sorts.

    Both sides get only cse, never canonicalize: cse erases a sort nobody uses
    (as canonicalize does) but drops no result of a live one, so a pass that
    did nothing would differ from canonicalize wherever it drops results.
    """
    text = random_sort(random.Random(seed))
    alone = run_pipeline(text, "sort-drop-unused-results")
    ours = run_pipeline(text, "sort-drop-unused-results,cse")
    theirs = run_pipeline(text, "canonicalize")
    assert ours == theirs, f"{text}\n--- opt-py ---\n{ours}\n--- canonicalize ---\n{theirs}"
    if sort_results(theirs):  # the sort lives: the pass alone cut its results as canonicalize did
        assert sort_results(alone) == sort_results(theirs), f"{text}\n--- opt-py alone ---\n{alone}"


def test_the_generator_covers_drops():
    """Cases where canonicalize drops results of a sort that stays: there a no-op pass fails above."""
    texts = [random_sort(random.Random(s)) for s in range(40)]
    dropped = [
        t
        for t in texts
        if sort_results(run_pipeline(t, "canonicalize")) not in ([], sort_results(run_pipeline(t, "cse")))
    ]
    assert len(dropped) >= 10, len(dropped)


PASS = ("executable-sources:sort-drop-unused-results",)

SAMPLE = [
    topk.Variant("indices", 8, 64, "f32", 4, "desc"),
    topk.Variant("values", 1, 8, "f16", None, "asc"),
    topk.Variant("both", 1024, 1024, "i32", 4, "desc"),
    topk.Variant("indices", 32, 64, "i32", None, "asc"),
    topk.Variant("indices", 1, 1024, "f16", 4, "asc"),
    topk.Variant("both", 4, 8, "f32", None, "desc"),
]


def _compile(tmp_path, v, target, inject):
    path = tmp_path / f"{v.name}.mlir"
    path.write_text(topk.program(v))
    return e2e.compile_program(str(path), target, inject=inject)


@pytest.mark.parametrize("v", SAMPLE, ids=[v.name for v in SAMPLE])
def test_topk_matches_numpy(v, run_target, tmp_path):
    x = topk.make_input(v, np.random.default_rng(1))
    for inject in ((), PASS):
        vmfb = _compile(tmp_path, v, run_target, inject)
        for runner in ("cli", "runtime"):
            outs = (
                e2e.run_cli(vmfb, run_target, "topk", [x], 2 if v.outputs == "both" else 1)
                if runner == "cli"
                else e2e.run_runtime(vmfb, run_target, "topk", [x])
            )
            problems = topk.check(v, x, outs)
            assert not problems, f"{'with' if inject else 'without'} the pass, {runner}: {problems}"


@pytest.mark.parametrize("v", SAMPLE[:4], ids=[v.name for v in SAMPLE[:4]])
def test_topk_compiles_for_gpus_with_the_pass(v, gpu_compile_target, tmp_path):
    assert len(_compile(tmp_path, v, gpu_compile_target, PASS)) > 0


def test_stock_iree_fails_where_the_pass_helps(tmp_path):
    """The bug is real in this IREE: indices-only top-k fails for cuda without the pass."""
    v = SAMPLE[0]
    with pytest.raises(Exception, match="failed to bufferize op"):
        _compile(tmp_path, v, e2e.TARGETS["cuda"], ())
    assert len(_compile(tmp_path, v, e2e.TARGETS["cuda"], PASS)) > 0

"""sort-drop-unused-results against IREE's own sort canonicalization.

IREE's canonicalize drops sort results that are unused and whose block
arguments are unused; where both apply, the results must be identical. Random
sorts (operand count, element types, which arguments the comparator reads,
which results are used) with a fixed seed.
"""

import random

import pytest

from opt_py import run_pipeline

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
    cmp = (f"arith.cmpf olt, %l{read}, %r{read} : {t}" if t.startswith("f")
           else f"arith.cmpi slt, %l{read}, %r{read} : {t}")
    rets = ", ".join(f"%s#{i}" for i in used)
    rtypes = ", ".join(tensors[i] for i in used)
    ret = f"  return {rets} : {rtypes}" if used else "  return"
    return (
        f"func.func @f({args}) -> ({rtypes}) {{\n"
        f"  %s:{n} = iree_linalg_ext.sort dimension({dim}) outs({', '.join(f'%a{i}' for i in range(n))} : "
        f"{', '.join(tensors)}) {{\n"
        f"  ^bb0({bb}):\n    %c = {cmp}\n    iree_linalg_ext.yield %c : i1\n"
        f"  }} -> {', '.join(tensors)}\n{ret}\n}}\n"
    ).replace("%s:1 =", "%s =").replace("%s#0", "%s" if n == 1 else "%s#0")


@pytest.mark.parametrize("seed", range(40))
def test_same_as_iree_canonicalize(seed):
    text = random_sort(random.Random(seed))
    ours = run_pipeline(text, "sort-drop-unused-results,canonicalize")
    theirs = run_pipeline(text, "canonicalize")
    assert ours == theirs, f"{text}\n--- opt-py ---\n{ours}\n--- canonicalize ---\n{theirs}"


def test_the_generator_covers_drops():
    texts = [random_sort(random.Random(s)) for s in range(40)]
    dropped = [t for t in texts if run_pipeline(t, "sort-drop-unused-results") != run_pipeline(t, "cse")]
    assert len(dropped) >= 10  # the comparison above is not vacuous

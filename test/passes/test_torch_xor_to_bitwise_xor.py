"""torch-xor-to-bitwise-xor end to end: ``a ^ b`` programs compiled for llvm-cpu equal numpy.

Stock IREE cannot lower ``torch.operator "torch.aten.__xor__.Tensor"``; with
the pass applied to the module as parsed, every program compiles and each
function equals ``np.bitwise_xor`` of both operands converted to the result
dtype. That is torch's ``^`` (``__xor__`` calls ``bitwise_xor``): each row's
result dtype is torch 2.13's ``torch.result_type(a, b)``, and the pattern's
promotion check (shared with torch-and-to-bitwise-and, whose test checks the
table more widely) is asserted to agree.

All cases are functions of one module compiled once.
"""

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.iree.phases import compile_with_injections
from opt_py.patterns.torch_ir import VTensor, result_type
from torch_e2e import NUMPY, Operand, compile_fixed, random_array, vtensor

PASS = "torch-xor-to-bitwise-xor"
CPU = e2e.TARGETS["cpu"]
# (a sizes, a dtype, b sizes, b dtype, result sizes, result dtype as torch 2.13 answers); None: dynamic.
ROWS = [
    ([2, 8], "i1", [2, 8], "i1", [2, 8], "i1"),  # the fuzz campaign's masks
    ([None, 3], "i1", [3], "i1", [None, 3], "i1"),  # broadcast, dynamic
    ([5], "ui8", [5], "si32", [5], "si32"),  # ui8 zero-extended, as torch does
    ([4, 3], "i1", [4, 1], "si8", [4, 3], "si8"),
    ([3], "si64", [], "si32", [3], "si64"),
    ([6], "ui8", [], "si64", [6], "ui8"),  # a 0-d of the same category does not promote
    ([2, None], "si16", [2, None], "si16", [2, None], "si16"),
]


def runtime_shape(sizes) -> list:
    """A dynamic size's runtime value is 4."""
    return [4 if s is None else s for s in sizes]


def cases():
    rng = np.random.default_rng(11)
    out = []
    for i, (asz, ad, bsz, bd, rsz, rd) in enumerate(ROWS):
        a = Operand(asz, ad, random_array(rng, runtime_shape(asz), ad))
        b = Operand(bsz, bd, random_array(rng, runtime_shape(bsz), bd))
        out.append((f"case{i}", a, b, vtensor(rsz, rd), rd))
    return out


CASES = cases()


def program(chosen) -> str:
    lines = []
    for name, a, b, r, _ in chosen:
        lines += [
            f"func.func @{name}(%a: {a.type}, %b: {b.type}) -> {r} {{",
            f'  %r = torch.operator "torch.aten.__xor__.Tensor"(%a, %b) : ({a.type}, {b.type}) -> {r}',
            f"  return %r : {r}",
            "}",
        ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_fixed(program(CASES), tmp_path_factory.mktemp("xor"), PASS)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r[1]}-{r[3]}")
def test_the_pattern_promotes_as_torch(row):
    asz, ad, bsz, bd, _, rd = row
    assert result_type([VTensor(tuple(asz), ad), VTensor(tuple(bsz), bd)]) == rd


def test_stock_fails_on_xor(tmp_path):
    path = tmp_path / "stock.mlir"
    path.write_text(program(CASES[:1]))
    res = compile_with_injections(str(path), list(CPU.compile_flags), [])
    assert not res.ok and any("torch.operator" in m for m in res.messages), res.messages[-3:]


def test_the_pass_rewrites_every_case():
    out = run_pipeline(program(CASES), PASS)
    assert "__xor__" not in out and out.count("torch.aten.bitwise_xor.Tensor") == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_xor_matches_numpy(case, vmfb):
    name, a, b, _, rd = case
    (out,) = e2e.run_runtime(vmfb, CPU, name, [a.array, b.array])
    dtype = NUMPY[rd]
    want = np.bitwise_xor(a.array.astype(dtype), b.array.astype(dtype))
    assert out.shape == want.shape and out.dtype.itemsize == want.dtype.itemsize, (out.shape, out.dtype, want.dtype)
    got = out.view(want.dtype)  # the runtime's buffers are signless: a ui8 result comes back as int8
    assert np.array_equal(got, want), (got, want)

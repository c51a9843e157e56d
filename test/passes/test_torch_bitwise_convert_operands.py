"""torch-bitwise-convert-operands end to end: mixed integer bitwise ops compiled for llvm-cpu equal numpy.

Every mixed pair of torch's integer dtypes (bool, ui8, si8, si16, si32, si64) whose conversion
torch-mlir's lowering gets wrong (a ui8 operand into a wider result: sign-extended) or refuses
(an 8-bit result from another dtype: the compile aborts) is a function of one module, as
``bitwise_or``; ``bitwise_and``, ``bitwise_xor`` and ``__or__`` (``a | b`` as torch exports it) on
a few of them, with broadcasting and a dynamic dim. Integers are drawn over their whole range and
every ui8 operand holds 200 in its first element (-56 sign-extended). The reference is torch's
definition, both operands converted to ``torch.result_type`` (the row's result dtype, checked
against the pattern's promotion) then combined: numpy's ``astype`` and ``bitwise_*``. Stock's wrong
answer (``ui8 | si32``) and its abort (``bool | ui8``) are pinned.
"""

import itertools
import subprocess

import numpy as np
import pytest
from opt_py import run_pipeline
from opt_py.execution import e2e
from opt_py.patterns.torch_bitwise_convert_operands import miscast
from opt_py.patterns.torch_ir import VTensor, result_type
from torch_e2e import NUMPY, Operand, compile_fixed, random_array, vtensor

PASS = "torch-bitwise-convert-operands"
CPU = e2e.TARGETS["cpu"]
DTYPES = ("i1", "ui8", "si8", "si16", "si32", "si64")
NP = {
    "torch.aten.bitwise_or.Tensor": np.bitwise_or,
    "torch.aten.bitwise_and.Tensor": np.bitwise_and,
    "torch.aten.bitwise_xor.Tensor": np.bitwise_xor,
    "torch.aten.__or__.Tensor": np.bitwise_or,
}


# Every mixed pair the lowering converts wrongly, as bitwise_or, same shapes.
def promoted(a: str, b: str) -> str:
    return result_type([VTensor((1,), a), VTensor((1,), b)])


PAIRS = [
    (a, b)
    for a, b in itertools.product(DTYPES, DTYPES)
    if a != b and (miscast(a, promoted(a, b)) or miscast(b, promoted(a, b)))
]
# (op, a sizes, a dtype, b sizes, b dtype); None: dynamic (4 at run time).
ROWS = [("torch.aten.bitwise_or.Tensor", [6], a, [6], b) for a, b in PAIRS] + [
    ("torch.aten.__or__.Tensor", [2, 3], "ui8", [3], "si32"),  # the fuzz campaign's a | b
    ("torch.aten.bitwise_and.Tensor", [None, 3], "si16", [None, 3], "ui8"),
    ("torch.aten.bitwise_xor.Tensor", [3], "ui8", [2, 3], "si8"),
    ("torch.aten.bitwise_and.Tensor", [4], "i1", [4], "si8"),
]


def cases():
    rng = np.random.default_rng(5)
    out = []
    for i, (op, asz, ad, bsz, bd) in enumerate(ROWS):
        shape = lambda sizes: [4 if s is None else s for s in sizes]  # noqa: E731
        arrays = [random_array(rng, shape(sz), d) for sz, d in ((asz, ad), (bsz, bd))]
        for arr, d in zip(arrays, (ad, bd)):
            if d == "ui8":
                arr.flat[0] = 200
        rd = promoted(ad, bd)
        rsz = list(np.broadcast_shapes(tuple(shape(asz)), tuple(shape(bsz))))
        rsz = [None if None in (asz + bsz) and n == 4 else n for n in rsz]
        out.append((f"case{i}", op, Operand(asz, ad, arrays[0]), Operand(bsz, bd, arrays[1]), rsz, rd))
    return out


CASES = cases()


def program(chosen) -> str:
    lines = []
    for name, op, a, b, rsz, rd in chosen:
        r = vtensor(rsz, rd)
        lines += [
            f"func.func @{name}(%a: {a.type}, %b: {b.type}) -> {r} {{",
            f"  %r = {op} %a, %b : {a.type}, {b.type} -> {r}",
            f"  return %r : {r}",
            "}",
        ]
    return "\n".join(lines) + "\n"


def want(case):
    _, op, a, b, _, rd = case
    dtype = NUMPY[rd]
    return NP[op](a.array.astype(dtype), b.array.astype(dtype))


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_fixed(program(CASES), tmp_path_factory.mktemp("bitwise"), PASS)


def test_every_mixed_pair_is_covered():
    # 5 pairs with a ui8 first, 5 with it second, bool with si8 both ways: 12.
    assert len(PAIRS) == 12 and ("ui8", "si32") in PAIRS and ("i1", "si8") in PAIRS


def test_the_pass_rewrites_every_case():
    out = run_pipeline(program(CASES), PASS)
    assert "__or__" not in out and out.count("torch.prims.convert_element_type") >= len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1].split('.')[2]}-{c[2].dtype}-{c[3].dtype}")
def test_bitwise_matches_numpy(case, vmfb):
    (out,) = e2e.run_runtime(vmfb, CPU, case[0], [case[2].array, case[3].array])
    expected = want(case)
    assert out.shape == expected.shape and out.dtype.itemsize == expected.dtype.itemsize, (out.dtype, expected.dtype)
    got = out.view(expected.dtype)  # the runtime's buffers are signless: a ui8 result comes back as int8
    assert np.array_equal(got, expected), (got, expected)


def stock(tmp_path, chosen) -> subprocess.CompletedProcess:
    """Stock iree-compile on ``chosen`` in a child process (its abort must not take pytest with it)."""
    src, out = tmp_path / "stock.mlir", tmp_path / "stock.vmfb"
    src.write_text(program(chosen))
    cmd = [e2e.runtime_tool("iree-compile"), *CPU.compile_flags, str(src), "-o", str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def test_stock_sign_extends_the_unsigned_byte(tmp_path):
    (case,) = [c for c in CASES if c[1] == "torch.aten.__or__.Tensor"]
    assert stock(tmp_path, [case]).returncode == 0
    (out,) = e2e.run_runtime((tmp_path / "stock.vmfb").read_bytes(), CPU, case[0], [case[2].array, case[3].array])
    assert out[0, 0] != want(case)[0, 0] and out[0, 0] == np.int32(-56) | case[3].array[0], out[0]


def test_stock_aborts_on_a_byte_result_from_bool(tmp_path):
    (case,) = [c for c in CASES if (c[2].dtype, c[3].dtype) == ("i1", "ui8")]
    res = stock(tmp_path, [case])
    assert res.returncode != 0 and "dstOriginalDtype" in res.stderr, res.stderr[-300:]


def outcome(tmp_path, op, a, b, rng, fixed: bool) -> str:
    """``right``, ``wrong`` or ``abort``: ``a op b`` (6 elements, a ui8 holding 200 first) compiled stock or with
    the pass in a child process, run and compared with numpy."""
    r = promoted(a, b)
    arrays = [random_array(rng, [6], d) for d in (a, b)]
    for arr, d in zip(arrays, (a, b)):
        if d == "ui8":
            arr[0] = 200
        elif d.startswith("si"):  # the bits a sign-extended 200 sets above its byte show through
            arr[0] = -1 if op == "torch.aten.bitwise_and.Tensor" else 0
    case = ("main", op, Operand([6], a, arrays[0]), Operand([6], b, arrays[1]), [6], r)
    text = program([case])
    src, out = tmp_path / "pair.mlir", tmp_path / "pair.vmfb"
    src.write_text(run_pipeline(text, PASS) if fixed else text)
    cmd = [e2e.runtime_tool("iree-compile"), *CPU.compile_flags, str(src), "-o", str(out)]
    if subprocess.run(cmd, capture_output=True, text=True, timeout=300).returncode:
        return "abort"
    (got,) = e2e.run_runtime(out.read_bytes(), CPU, "main", [arrays[0], arrays[1]])
    expected = want(case)
    return "right" if np.array_equal(got.view(expected.dtype), expected) else "wrong"


@pytest.mark.slow
@pytest.mark.parametrize("op", list(NP), ids=lambda op: op.split(".")[2])
def test_every_mixed_pair_of_every_op(op, tmp_path):
    """The page's figures, per op: stock on the 30 ordered mixed pairs is right on 18, wrong exactly where a
    ui8 is widened (8), aborts where bool meets an 8-bit type (4); with the pass, all 30 right."""
    rng = np.random.default_rng(9)
    stock, fixed = {}, {}
    for a, b in itertools.product(DTYPES, DTYPES):
        if a != b:
            stock[a, b] = outcome(tmp_path, op, a, b, rng, fixed=False)
            fixed[a, b] = outcome(tmp_path, op, a, b, rng, fixed=True)
    counts = {k: list(stock.values()).count(k) for k in ("right", "wrong", "abort")}
    assert counts == {"right": 18, "wrong": 8, "abort": 4}, counts
    assert {k for k, v in stock.items() if v != "right"} == set(PAIRS)
    assert set(fixed.values()) == {"right"}, {k: v for k, v in fixed.items() if v != "right"}

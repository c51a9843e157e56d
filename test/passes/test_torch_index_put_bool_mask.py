"""torch-index-put-bool-mask end to end: index_put with a bool mask compiled with the fix equals torch's.

Stock IREE fails a mask put whose values have a static length for the selected
count (``x[mask] = feats``, a mask beside an integer index) and one with a
``None`` before the mask; with ``--fixes=torch-index-put-bool-mask`` each
function here compiles for llvm-cpu and equals ``torch.ops.aten.index_put`` of
the same inputs exactly: the select form (scalar and broadcast values, a full
mask, a row mask, a ``None`` first, accumulating) and the positions form
(counted values, an integer index beside the mask, a rank-2 mask, a mask with
one true element broadcast against an index). Masks are random with the count
a valid program has.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from opt_py.execution import e2e
from torch_e2e import compile_case_module, random_array, stock_compile, vtensor

torch = pytest.importorskip("torch")

PASS = "torch-index-put-bool-mask"
CPU = e2e.TARGETS["cpu"]


@dataclass
class Case:
    """``index_put(x, indices, values, accumulate)``; an index is None, ("mask", shape, trues) or
    ("int", size) (values in range of the dim it indexes)."""

    name: str
    x: tuple
    indices: list
    values: tuple
    accumulate: bool = False
    dynamic: tuple = ()  # dims of x typed '?'
    dtype: str = "f32"

    def function(self) -> str:
        xt = vtensor([None if d in self.dynamic else s for d, s in enumerate(self.x)], self.dtype)
        args, items, types = [f"%x: {xt}"], [], []
        for i, e in enumerate(self.indices):
            if e is None:
                items.append("%none")
                types.append("!torch.none")
                continue
            t = vtensor(e[1], "i1") if e[0] == "mask" else vtensor([e[1]], "si64")
            args.append(f"%i{i}: {t}")
            items.append(f"%i{i}")
            types.append(t)
        vt = vtensor(self.values, self.dtype)
        args.append(f"%v: {vt}")
        acc = "true" if self.accumulate else "false"
        return "\n".join(
            [
                f"func.func @{self.name}({', '.join(args)}) -> {xt} {{",
                "  %none = torch.constant.none",
                f"  %l = torch.prim.ListConstruct {', '.join(items)} : ({', '.join(types)}) -> !torch.list<optional<vtensor>>",
                f"  %acc = torch.constant.bool {acc}",
                f"  %r = torch.aten.index_put %x, %l, %v, %acc : {xt}, !torch.list<optional<vtensor>>, {vt}, !torch.bool -> {xt}",
                f"  return %r : {xt}",
                "}",
            ]
        )

    def inputs(self) -> list:
        rng = np.random.default_rng(len(self.name))
        out = [random_array(rng, self.x, self.dtype)]
        dim = 0
        for e in self.indices:
            if e is None:
                dim += 1
            elif e[0] == "mask":
                mask = np.zeros(int(np.prod(e[1])), bool)
                mask[rng.choice(mask.size, e[2], replace=False)] = True
                out.append(mask.reshape(e[1]))
                dim += len(e[1])
            else:
                out.append(rng.choice(self.x[dim], e[1], replace=False).astype(np.int64))
                dim += 1
        out.append(random_array(rng, self.values, self.dtype))
        return out

    def expected(self, inputs) -> np.ndarray:
        x, *tensors, v = (torch.from_numpy(a) for a in inputs)
        it = iter(tensors)
        indices = [None if e is None else next(it) for e in self.indices]
        return torch.ops.aten.index_put(x, indices, v, self.accumulate).numpy()


CASES = [
    # the select form: the values broadcast over the selected elements
    Case("full_mask_scalar", (4, 6), [("mask", (4, 6), 9)], ()),
    Case("row_mask_vector", (2, 10, 16), [("mask", (2, 10), 7)], (16,)),
    Case("row_mask_accumulate", (2, 10, 16), [("mask", (2, 10), 7)], (1, 16), accumulate=True),
    Case("none_then_mask", (3, 5), [None, ("mask", (5,), 3)], ()),
    Case("none_then_mask_column", (3, 5, 2), [None, ("mask", (5,), 2)], (3, 1, 2)),
    Case("dynamic_where", (6, 4), [("mask", (6,), 4)], (4,), dynamic=(0,)),
    Case("ints_where", (5, 3), [("mask", (5,), 2)], (), dtype="si64"),
    # the positions form: the count has a static length
    Case("counted_values", (5, 3), [("mask", (5,), 3)], (3, 3)),
    Case("counted_accumulate", (6, 2), [("mask", (6,), 4)], (4, 2), accumulate=True),
    Case("int_beside_mask", (5, 5), [("int", 3), ("mask", (5,), 3)], (3,)),
    Case("one_true_broadcast", (5, 5), [("int", 3), ("mask", (5,), 1)], (3,)),
    Case("rank_two_mask", (2, 3, 4), [("mask", (2, 3), 2)], (2, 4)),
]
# The default run compiles these; --runslow compiles every case.
SAMPLE = [c for c in CASES if c.name in ("row_mask_accumulate", "none_then_mask", "int_beside_mask")]


compile_cases = partial(compile_case_module, fixes=PASS)


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    return compile_cases(SAMPLE, tmp_path_factory.mktemp("index_put"))


# What stock says: the scatter made of nonzero(mask) refuses static values; after a None the mask is not
# decomposed at all and the index_put stays unconverted.
STOCK = {"counted_values": "iree_linalg_ext.scatter' op mismatch in shape", "none_then_mask": "failed to legalize"}


@pytest.mark.parametrize("name", STOCK)
def test_stock_fails_on_mask_put(name, tmp_path):
    res = stock_compile([c for c in CASES if c.name == name], tmp_path)
    assert not res.ok and any(STOCK[name] in m for m in res.messages), res.messages[-3:]


def check(case, vmfb):
    inputs = case.inputs()
    (out,) = e2e.run_runtime(vmfb, CPU, case.name, inputs)
    want = case.expected(inputs)
    assert out.shape == want.shape and np.array_equal(out, want), (out, want)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.name)
def test_mask_put_matches_torch(case, vmfb):
    check(case, vmfb)


@pytest.mark.slow
def test_every_case_mask_put_matches_torch(tmp_path):
    vmfb = compile_cases(CASES, tmp_path)
    for case in CASES:
        check(case, vmfb)

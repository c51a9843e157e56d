"""sort-slice-to-topk end to end: the top-k op computes what the sort did.

Programs are compiled with the pass injected after global-optimization and
run on the IREE runtime. The strict-comparator matrix of topk.py (ties
unordered, so rewritten only with allow-unordered-ties) is checked against
numpy with topk.check; the form torch exports (oge/ole, stable in IREE's
bubble sort) must give exactly stock IREE's indices and values, ties included,
and numpy's stable argsort. OPT_PY_TOPK_FULL=1 runs the whole matrix.
"""

import os

import numpy as np
import pytest
from opt_py.cases import topk
from opt_py.execution import e2e
from opt_py.iree import fixes
from opt_py.patterns.sort_slice_to_topk import MAX_ROUNDS, Form, chunk_size

CPU = e2e.TARGETS["cpu"]
PASS = "global-optimization:sort-slice-to-topk"
TIES = "global-optimization:sort-slice-to-topk{allow-unordered-ties=true}"
FORMS = [
    "topk",
    "rank",
    "argmax",
    "rounds",
    "chunks",
    "argmax+gpu",
    "rounds+gpu",
    "chunks+gpu",
    "rank+gpu",
    "chunks+gpu+rounds",
]


# What --fixes injects for cuda and rocm: the GPU rule, composites materialized.
GPU = next(f for f in fixes.FIXES if f.name == "sort-slice-to-topk").spelled("cuda")


def forced(form, ties=False):
    """The pass with one form forced (argmax applies only where k = 1, rounds where k <= 64, chunks where
    also a chunk size cuts the width into at least k chunks)."""
    base, *extra = form.split("+")  # "+gpu": as --fixes runs it for GPUs (composites materialized); "+rounds":
    opts = [f"form={base}"] + (["rule=gpu materialize=true"] if "gpu" in extra else [])  # chunks pick by rounds
    opts += (["select=rounds"] if "rounds" in extra else []) + (["allow-unordered-ties=true"] if ties else [])
    return f"global-optimization:sort-slice-to-topk{{{' '.join(opts)}}}"


def test_the_fixes_run_the_gpu_rule_materialized_on_gpus():
    assert GPU == "sort-slice-to-topk{rule=gpu materialize=true}"


def test_every_form_has_a_builder_plain_and_materialized():
    from opt_py.patterns.sort_slice_to_topk.forms import BUILDERS

    assert set(BUILDERS) == {(f, m) for f in Form if f != Form.AUTO for m in (False, True)}


def _forms(variants):
    return [
        (v, f)
        for v in variants
        for f in FORMS
        if (not f.startswith("argmax") or v.k == 1)
        and (not f.startswith("rounds") or v.k <= MAX_ROUNDS)
        and (not f.startswith("chunks") or (v.k <= MAX_ROUNDS and chunk_size(v.width, v.k) is not None))
    ]


SAMPLE = [
    topk.Variant("indices", 4, 64, "f32", 4, "desc"),
    topk.Variant("values", 1, 8, "f16", None, "asc"),
    topk.Variant("both", 1024, 1024, "i32", 4, "desc"),
    topk.Variant("both", 32, 64, "i32", None, "asc"),
    topk.Variant("indices", 1, 1024, "f16", 4, "asc"),
    topk.Variant("both", 8, 8, "f32", None, "desc"),
]
FULL = topk.matrix() if os.environ.get("OPT_PY_TOPK_FULL") else SAMPLE


def _compile(tmp_path, name, text, inject):
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    return e2e.compile_program(str(path), CPU, inject=inject)


def _stable(v, text):
    """The variant's program with the comparator torch exports (non-strict: stable)."""
    return (
        text.replace("cmpf ogt", "cmpf oge")
        .replace("cmpf olt", "cmpf ole")
        .replace("cmpi sgt", "cmpi sge")
        .replace("cmpi slt", "cmpi sle")
    )


def _tie_heavy(v, rng):
    rows = v.batch if v.batch is not None else 3
    return rng.integers(-2, 3, (rows, v.width)).astype(topk._NP[v.dtype])


@pytest.mark.parametrize("v", FULL, ids=[v.name for v in FULL])
def test_matrix_matches_numpy(v, tmp_path):
    """The automatic choice of form, over the matrix."""
    vmfb = _compile(tmp_path, v.name, topk.program(v), (TIES,))
    for x in (topk.make_input(v, np.random.default_rng(1)), _tie_heavy(v, np.random.default_rng(2))):
        problems = topk.check(v, x, e2e.run_runtime(vmfb, CPU, "topk", [x]))
        assert not problems, problems


SAMPLE_K1 = SAMPLE + [topk.Variant("both", 1, 64, "f32", 4, "desc"), topk.Variant("indices", 1, 8, "i32", None, "asc")]


@pytest.fixture(scope="module")
def stock_results(tmp_path_factory):
    """Stock IREE's results per variant, computed once: every form of a variant is compared with them."""
    cache = {}

    def get(v, text, x):
        if v.name not in cache:
            vmfb = _compile(tmp_path_factory.mktemp("stock"), v.name + "_s", text, ())
            cache[v.name] = e2e.run_runtime(vmfb, CPU, "topk", [x])
        return cache[v.name]

    return get


@pytest.mark.parametrize("v,form", _forms(SAMPLE_K1), ids=[f"{v.name}-{f}" for v, f in _forms(SAMPLE_K1)])
def test_stable_form_equals_stock_iree(v, form, tmp_path, stock_results):
    """Each form, on the comparator torch exports, gives stock IREE's numbers, ties included."""
    text = _stable(v, topk.program(v))
    rewritten = _compile(tmp_path, v.name + "_t", text, (forced(form),))
    x = _tie_heavy(v, np.random.default_rng(3))
    got = e2e.run_runtime(rewritten, CPU, "topk", [x])
    want = stock_results(v, text, x)
    key = -x if v.order == "desc" else x
    order = np.argsort(key.astype(np.float64), axis=1, kind="stable")[:, : v.k]
    expect = {
        "values": [np.take_along_axis(x, order, 1)],
        "indices": [order],
        "both": [np.take_along_axis(x, order, 1), order],
    }[v.outputs]
    for g, w, e in zip(got, want, expect):
        assert np.array_equal(g, w), "differs from stock IREE"
        assert np.array_equal(g.astype(np.float64), e.astype(np.float64)), "differs from numpy's stable order"


@pytest.mark.parametrize(
    "form,k,batch,present",
    [
        ("topk", 4, 4, "iree_linalg_ext.topk"),
        ("rank", 4, 4, "i1 to i32"),
        ("argmax", 1, 4, "arith.maxsi"),
        ("rounds", 4, 4, "arith.maxsi"),
        ("rounds", 64, 1, "arith.maxsi"),
        ("chunks", 4, 4, "arith.divui"),
        ("auto", 4, 4, "arith.maxsi"),
        ("auto", 1, 4, "arith.maxsi"),
        ("auto", 32, 4, "i1 to i32"),
        ("topk", 64, 1, "iree_linalg_ext.topk"),
        ("rank", 64, 1, "i1 to i32"),
    ],
)
def test_the_pass_rewrites(form, k, batch, present, tmp_path):
    """The sort is gone and the chosen form is there (the tests above would pass vacuously otherwise).

    Batch 1 with k = width: IREE drops the iota's unit dimension and the slice before the pass runs."""
    from opt_py.iree.phases import Injection, compile_with_injections

    v = topk.Variant("both", k, 64, "f32", batch, "desc")
    path = tmp_path / "p.mlir"
    path.write_text(_stable(v, topk.program(v)))
    res = compile_with_injections(
        str(path), list(CPU.compile_flags), [Injection.parse(forced(form))], compile_to="dispatch-creation"
    )
    text = res.output.decode()
    assert "iree_linalg_ext.sort" not in text and present in text
    assert ("iree_linalg_ext.topk" in text) == (present == "iree_linalg_ext.topk")
    if form == "chunks":  # the chunk bests, k rounds over them, k over the candidates
        assert text.count("arith.maxsi") == 1 + 2 * k
    if present == "arith.maxsi":  # argmax: one reduction; rounds: one per rank
        assert text.count("arith.maxsi") == k


DYN_WIDTH = """
func.func @topk(%x: tensor<?x?xDT>) -> (tensor<?xKxDT>, tensor<?xKxi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xDT>
  %w = tensor.dim %x, %c1 : tensor<?x?xDT>
  %e = tensor.empty(%n, %w) : tensor<?x?xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<?x?xi32>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<?x?xDT>, tensor<?x?xi32>) {
  ^bb0(%a: DT, %b: DT, %p: i32, %q: i32):
    %r = CMP, %a, %b : DT
    iree_linalg_ext.yield %r : i1
  } -> tensor<?x?xDT>, tensor<?x?xi32>
  %v = tensor.extract_slice %s#0[0, 0] [%n, K] [1, 1] : tensor<?x?xDT> to tensor<?xKxDT>
  %i = tensor.extract_slice %s#1[0, 0] [%n, K] [1, 1] : tensor<?x?xi32> to tensor<?xKxi32>
  return %v, %i : tensor<?xKxDT>, tensor<?xKxi32>
}
"""


@pytest.mark.parametrize(
    "dt,cmp,k", [("f32", "arith.cmpf oge", 3), ("i32", "arith.cmpi sle", 5), ("f16", "arith.cmpf ole", 1)]
)
def test_dynamic_batch_and_width(dt, cmp, k, tmp_path):
    text = DYN_WIDTH.replace("DT", dt).replace("CMP", cmp).replace("K", str(k))
    rewritten = _compile(tmp_path, "t", text, (PASS,))
    stock = _compile(tmp_path, "s", text, ())
    rng = np.random.default_rng(4)
    for rows, width in ((2, 7), (5, 40)):
        x = rng.integers(-3, 4, (rows, width)).astype(topk._NP[dt])
        got = e2e.run_runtime(rewritten, CPU, "topk", [x])
        want = e2e.run_runtime(stock, CPU, "topk", [x])
        for g, w in zip(got, want):
            assert np.array_equal(g, w)


@pytest.mark.parametrize(
    "form", ["topk", "rank", "rounds", "chunks", "rounds+gpu", "chunks+gpu", "rank+gpu", "chunks+gpu+rounds"]
)
def test_nan_ranks_highest_as_in_torch(form, tmp_path):
    """NaN: stock IREE's comparator has no order for it; the rewrite follows torch (NaN largest)."""
    v = topk.Variant("both", 4, 8, "f32", 2, "desc")
    vmfb = _compile(tmp_path, "nan", _stable(v, topk.program(v)), (forced(form),))
    x = np.array(
        [
            [1, np.nan, 3, np.inf, np.nan, -0.0, 0.0, 2],
            [-np.inf, -np.inf, -np.inf, -np.inf, -np.inf, -np.inf, -np.inf, -np.inf],
        ],
        np.float32,
    )
    vals, idx = e2e.run_runtime(vmfb, CPU, "topk", [x])
    assert idx.tolist() == [[1, 4, 3, 2], [0, 1, 2, 3]]
    assert np.isnan(vals[0, :2]).all() and vals[0, 2:].tolist() == [np.inf, 3] and (vals[1] == -np.inf).all()


@pytest.mark.parametrize("form", ["argmax", "argmax+gpu", "chunks+gpu"])
@pytest.mark.parametrize("order,want", [("desc", [[1], [0], [0]]), ("asc", [[5], [0], [1]])])
def test_argmax_nan_and_ties(order, want, form, tmp_path):
    """k = 1: NaN is the largest (first NaN wins descending, never chosen ascending while a number is left)."""
    v = topk.Variant("both", 1, 8, "f32", 3, order)
    vmfb = _compile(tmp_path, "nan1", _stable(v, topk.program(v)), (forced(form),))
    x = np.array(
        [[1, np.nan, 3, np.inf, np.nan, -0.0, 0.0, 2], [-np.inf] * 8, [np.nan, -0.0, 0.0, -0.0, 5, 5, 5, 5]], np.float32
    )
    vals, idx = e2e.run_runtime(vmfb, CPU, "topk", [x])
    assert idx.tolist() == want
    assert np.array_equal(vals, np.take_along_axis(x, idx, 1), equal_nan=True)
    assert np.array_equal(np.signbit(vals), np.signbit(np.take_along_axis(x, idx, 1)))


@pytest.mark.parametrize("form", ["topk", "rank", "rounds", "rank+gpu"])
def test_nan_last_when_ascending(form, tmp_path):
    x = np.array([[1, np.nan, 3, np.inf, np.nan, -0.0, 0.0, 2]], np.float32)
    v = topk.Variant("both", 8, 8, "f32", 1, "asc")
    vmfb = _compile(tmp_path, "nan_asc", _stable(v, topk.program(v)), (forced(form),))
    vals, idx = e2e.run_runtime(vmfb, CPU, "topk", [x])
    assert idx.tolist() == [[5, 6, 0, 7, 2, 3, 1, 4]]  # -0.0 and 0.0 tie: lower index first; NaNs last


@pytest.mark.parametrize("form", ["topk", "rank", "rounds", "rank+gpu"])
def test_signed_zeros_keep_their_bits(form, tmp_path):
    v = topk.Variant("both", 8, 8, "f32", 1, "asc")
    vmfb = _compile(tmp_path, "zeros", _stable(v, topk.program(v)), (forced(form),))
    x = np.array([[1, 5, 3, 4, 6, -0.0, 0.0, 2]], np.float32)
    vals, idx = e2e.run_runtime(vmfb, CPU, "topk", [x])
    assert idx.tolist() == [[5, 6, 0, 7, 2, 3, 1, 4]]  # -0.0 and 0.0 tie: lower index first
    assert np.signbit(vals[0, 0]) and not np.signbit(vals[0, 1])  # each value's own bits


@pytest.mark.parametrize("form", ["chunks", "chunks+gpu", "chunks+gpu+rounds"])
@pytest.mark.parametrize("order", ["desc", "asc"])
def test_chunks_nan_zeros_and_ties_across_chunks(order, form, tmp_path):
    """The chunks form: NaN above +inf, -0.0 == +0.0 with each value's bits kept, equal keys in
    different chunks (chunks of 2 here) lowest global index first, as numpy's stable order."""
    v = topk.Variant("both", 6, 16, "f32", 3, order)
    vmfb = _compile(tmp_path, "chunks", _stable(v, topk.program(v)), (forced(form),))
    x = np.array(
        [
            [1, np.nan, 3, np.inf, np.nan, -0.0, 0.0, 2, 7, 7, -1, 7, 0.0, -0.0, -np.inf, 5],
            [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
            [0.0, -0.0] * 8,
        ],
        np.float32,
    )
    vals, idx = e2e.run_runtime(vmfb, CPU, "topk", [x])
    x64 = x.astype(np.float64)
    key = np.where(np.isinf(x64), np.sign(x64) * 1e300, x64)
    key = np.where(np.isnan(x), 1e301, key)  # NaN above +inf
    order_ = np.argsort(-key if order == "desc" else key, axis=1, kind="stable")[:, :6]
    assert idx.tolist() == order_.tolist()
    want = np.take_along_axis(x, order_, 1)
    assert np.array_equal(vals, want, equal_nan=True) and np.array_equal(np.signbit(vals), np.signbit(want))


DIM0 = """
func.func @topk(%x: tensor<64x3xi32>) -> (tensor<5x3xi32>, tensor<5x3xi32>) {
  %e = tensor.empty() : tensor<64x3xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<64x3xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<64x3xi32>
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%x, %iota : tensor<64x3xi32>, tensor<64x3xi32>) {
  ^bb0(%a: i32, %b: i32, %p: i32, %q: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<64x3xi32>, tensor<64x3xi32>
  %v = tensor.extract_slice %s#0[0, 0] [5, 3] [1, 1] : tensor<64x3xi32> to tensor<5x3xi32>
  %i = tensor.extract_slice %s#1[0, 0] [5, 3] [1, 1] : tensor<64x3xi32> to tensor<5x3xi32>
  return %v, %i : tensor<5x3xi32>, tensor<5x3xi32>
}
"""


@pytest.mark.parametrize("form", ["chunks", "rounds", "chunks+gpu", "rank+gpu"])
def test_sorted_dimension_not_last(form, tmp_path):
    """Sorting along dimension 0: the chunks form splits that dimension, not the last."""
    vmfb = _compile(tmp_path, "dim0", DIM0, (forced(form),))
    stock = _compile(tmp_path, "dim0s", DIM0, ())
    x = np.random.default_rng(5).integers(-3, 4, (64, 3)).astype(np.int32)
    got = e2e.run_runtime(vmfb, CPU, "topk", [x])
    want = e2e.run_runtime(stock, CPU, "topk", [x])
    order = np.argsort(-x, axis=0, kind="stable")[:5]
    assert np.array_equal(got[1], order) and np.array_equal(got[1], want[1]) and np.array_equal(got[0], want[0])


def _one_row(width, k, cmp):
    """torch.topk of a 1-D tensor as exported: a sort of [width] with an i64 iota, both sliced to k."""
    return f"""
func.func @topk(%x: tensor<{width}xf32>) -> (tensor<{k}xf32>, tensor<{k}xi64>) {{
  %e = tensor.empty() : tensor<{width}xi64>
  %iota = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} outs(%e : tensor<{width}xi64>) {{
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  }} -> tensor<{width}xi64>
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%x, %iota : tensor<{width}xf32>, tensor<{width}xi64>) {{
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf {cmp}, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  }} -> tensor<{width}xf32>, tensor<{width}xi64>
  %v = tensor.extract_slice %s#0[0] [{k}] [1] : tensor<{width}xf32> to tensor<{k}xf32>
  %i = tensor.extract_slice %s#1[0] [{k}] [1] : tensor<{width}xi64> to tensor<{k}xi64>
  return %v, %i : tensor<{k}xf32>, tensor<{k}xi64>
}}
"""


ONE_ROW = [
    ("argmax", 64, 1),
    ("rounds", 64, 4),
    ("rank", 64, 40),
    ("chunks", 1024, 8),
    ("argmax+gpu", 64, 1),
    ("rounds+gpu", 64, 4),
    ("rank+gpu", 64, 40),
    ("chunks+gpu", 1024, 8),
]


@pytest.mark.parametrize("form,width,k", ONE_ROW, ids=[f"{f}-{w}-{k}" for f, w, k in ONE_ROW])
@pytest.mark.parametrize("cmp", ["oge", "ole"])
def test_one_row(cmp, form, width, k, tmp_path):
    """A 1-D tensor (no batch dimension: the rounds' winners and the first round's constant are 0-d)."""
    vmfb = _compile(tmp_path, "row", _one_row(width, k, cmp), (forced(form),))
    x = np.random.default_rng(7).integers(-20, 20, width).astype(np.float32)
    vals, idx = e2e.run_runtime(vmfb, CPU, "topk", [x])
    want = np.argsort(-x if cmp == "oge" else x, kind="stable")[:k]
    assert np.array_equal(idx, want) and np.array_equal(vals, x[want])


@pytest.mark.parametrize("form", ["rounds", "chunks", "rank", "rounds+gpu", "chunks+gpu", "rank+gpu"])
@pytest.mark.parametrize("order", ["desc", "asc"])
def test_int32_extremes_at_the_row_ends(order, form, tmp_path):
    """The composites' edges: INT32_MAX / INT32_MIN keys at the first and last positions. The
    largest composite (INT32_MAX at 0, descending) and the smallest (INT32_MIN at 0, ascending) must
    still come after the first round's constant, and decode to their indices."""
    v = topk.Variant("both", 4, 16, "i32", 4, order)
    vmfb = _compile(tmp_path, "extremes", _stable(v, topk.program(v)), (forced(form),))
    top, low = np.iinfo(np.int32).max, np.iinfo(np.int32).min
    x = np.zeros((4, 16), np.int32)
    x[0, [0, 15]] = top
    x[1, [0, 15]] = low
    x[2, :] = top
    x[3, :] = low
    x[3, 7] = top
    vals, idx = e2e.run_runtime(vmfb, CPU, "topk", [x])
    key = -x.astype(np.int64) if order == "desc" else x.astype(np.int64)
    want = np.argsort(key, axis=1, kind="stable")[:, :4]
    assert np.array_equal(idx, want)
    assert np.array_equal(vals, np.take_along_axis(x, want, 1))


@pytest.mark.parametrize("width,k,chunks", [(1024, 8, True), (32768, 64, True), (256, 8, False), (512, 64, False)])
def test_auto_takes_chunks_on_wide_rows(width, k, chunks, tmp_path):
    """The cost rule: chunks on rows of at least 512 where it does at most 0.6 of rounds' compares."""
    from opt_py.iree.phases import Injection, compile_with_injections

    v = topk.Variant("indices", k, width, "f32", 2, "desc")
    path = tmp_path / "p.mlir"
    path.write_text(_stable(v, topk.program(v)))
    res = compile_with_injections(
        str(path), list(CPU.compile_flags), [Injection.parse(PASS)], compile_to="dispatch-creation"
    )
    text = res.output.decode()
    assert "iree_linalg_ext.sort" not in text
    assert ("arith.divui" in text) == chunks  # the chunk starts
    assert text.count("arith.maxsi") == (1 + 2 * k if chunks else k)


@pytest.mark.parametrize("form", ["rounds", "rounds+gpu", "chunks", "chunks+gpu", "chunks+gpu+rounds", "rank+gpu"])
def test_k64_dynamic_batch(form, tmp_path):
    """64 winners of a dynamic batch: as 64 generic inputs they needed 128 push constants, past the CPU
    runtime's 64 (the module failed to load); they are stacked as rows first."""
    v = topk.Variant("indices", 64, 1024, "f16", None, "desc")
    vmfb = _compile(tmp_path, "k64", _stable(v, topk.program(v)), (forced(form),))
    x = _tie_heavy(v, np.random.default_rng(6))
    (idx,) = e2e.run_runtime(vmfb, CPU, "topk", [x])
    assert np.array_equal(idx, np.argsort(-x.astype(np.float64), axis=1, kind="stable")[:, :64])


GPU_CASES = [
    topk.Variant("indices", 4, 64, "f32", 37, "desc"),
    topk.Variant("both", 1, 64, "f32", 4, "asc"),
    topk.Variant("both", 8, 64, "f32", None, "desc"),
    topk.Variant("indices", 64, 1024, "f16", 4, "desc"),
    topk.Variant("both", 1, 1024, "i32", None, "asc"),
    topk.Variant("values", 8, 1024, "f32", None, "desc"),
]


@pytest.mark.parametrize("target", ["cuda", "rocm"])
@pytest.mark.parametrize("v", GPU_CASES, ids=[v.name for v in GPU_CASES])
def test_gpu_form_compiles_for_gpus(v, target, tmp_path):
    """What --fixes runs for GPUs compiles for cuda sm_80 and rocm gfx942 and the sort is gone (the
    unmaterialized forms fail cuda's VectorDistribute; the numbers are proven on an H200 through a
    bundle: docs/passes/sort-slice-to-topk.md)."""
    from opt_py.iree.phases import Injection, compile_with_injections

    path = tmp_path / "p.mlir"
    path.write_text(_stable(v, topk.program(v)))
    tgt = e2e.TARGETS[target]
    assert len(e2e.compile_program(str(path), tgt, inject=(f"global-optimization:{GPU}",))) > 0
    res = compile_with_injections(
        str(path),
        list(tgt.compile_flags),
        [Injection.parse(f"global-optimization:{GPU}")],
        compile_to="dispatch-creation",
    )
    text = res.output.decode()
    assert "iree_linalg_ext.sort" not in text and "util.optimization_barrier" in text

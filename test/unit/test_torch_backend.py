"""``torch.compile(model, backend="opt_py")``: dynamo's graphs compiled by IREE with opt-py's fixes.

In the default run, cheap modules check what dynamo expects of a backend:
found by name through the entry point, graph breaks (each graph compiled),
symbolic sizes (``dynamic=True``, ``mark_dynamic``, dynamo's automatic
recompile), checked options, the error of a graph that does not compile and
``fallback``, and tensors handed to IREE without copies. Slow: the library
corpus's architectures (python/corpus/library_models.py), each equal to eager
PyTorch, with its graphs and recompiles printed. On a machine with a GPU,
CUDA tensors in and out of a module compiled for ``cuda``.
"""

import inspect
import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("iree.turbine", reason="the backend needs the `models` extra (torch, iree-turbine)")

import opt_py.torch.backend as opt_backend  # noqa: E402 - after the skips
from opt_py import OptPyError  # noqa: E402


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    """Each test compiles into its own module cache, with dynamo's caches and the graph list empty."""
    monkeypatch.setenv("OPT_PY_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    opt_backend.reset()
    yield
    torch._dynamo.reset()


class Breaks(torch.nn.Module):
    """A linear layer, a graph break (print), a reduction and a size returned as a Python int."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 3)

    def forward(self, x):
        y = self.linear(x).relu()
        print("a graph break")
        return y.sum(-1) * 2, y.shape[0]


def test_the_backend_is_found_by_name_through_the_entry_point():
    """PyTorch finds "opt_py" through the torch_dynamo_backends entry point (pyproject.toml): no import."""
    from importlib.metadata import entry_points

    from torch._dynamo.backends.registry import lookup_backend

    assert entry_points(group="torch_dynamo_backends")["opt_py"].value == "opt_py.torch.backend:backend"
    assert lookup_backend("opt_py") is opt_backend.backend
    assert "register_backend" not in Path(opt_backend.__file__).read_text()  # the entry point is the only way in
    assert "opt_py" in torch._dynamo.list_backends()


def test_graph_breaks_and_symbolic_sizes(capsys):
    """A graph break makes two graphs, each compiled; with dynamic=True a second size reuses them."""
    model = Breaks().eval()
    compiled = torch.compile(model, backend="opt_py", dynamic=True)
    with torch.no_grad():
        for n in (5, 7):
            x = torch.randn(n, 4)
            got, want = compiled(x), model(x)
            torch.testing.assert_close(got[0], want[0])
            assert got[1] == want[1] == n and isinstance(got[1], int)
    graphs = opt_backend.graphs()
    assert [g.compile_id for g in graphs] == ["0/0", "1/0"]  # two frames (the break), no recompile
    assert all(not g.fallback and not g.cached for g in graphs)
    assert graphs[0].source.endswith("(forward)") and "test_torch_backend.py" in graphs[0].source


def test_gradients_flow_through_a_compiled_forward():
    """Training: IREE computes the forward (and what the backward keeps), eager PyTorch the backward."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
    x = torch.randn(5, 4)
    model(x).pow(2).sum().backward()
    want = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    torch.compile(model, backend="opt_py")(x).pow(2).sum().backward()
    for w, p in zip(want, model.parameters()):
        torch.testing.assert_close(p.grad, w)


def test_a_new_size_recompiles_once_then_is_symbolic():
    """dynamo's automatic dynamic shapes: static first, one recompile with the size symbolic, then none."""

    def f(x, w):
        return torch.tanh(x @ w) * 3

    w = torch.randn(4, 6)
    compiled = torch.compile(f, backend="opt_py")
    for n in (2, 3, 9):
        x = torch.randn(n, 4)
        torch.testing.assert_close(compiled(x, w), f(x, w))
    assert [g.compile_id for g in opt_backend.graphs()] == ["0/0", "0/1"]


def test_a_dim_marked_dynamic_compiles_once():
    def f(x):
        return torch.softmax(x, dim=-1).cumsum(0)

    compiled = torch.compile(f, backend="opt_py")
    for n in (3, 8):
        x = torch.randn(n, 5)
        torch._dynamo.mark_dynamic(x, 0)
        torch.testing.assert_close(compiled(x), f(x))
    assert [g.compile_id for g in opt_backend.graphs()] == ["0/0"]


def test_a_graph_compiled_before_comes_from_the_cache_and_f64_stays_f64():
    """The cache is keyed by the graph's code and types: dynamo's second trace of the same function finds
    the module without importing or compiling. A float64 graph is computed in float64."""

    def f(x):
        return torch.exp(x) @ x.T / 7.0

    x = torch.randn(4, 3, dtype=torch.float64)
    for _ in range(2):
        torch._dynamo.reset()
        got = torch.compile(f, backend="opt_py")(x)
        assert got.dtype == torch.float64
        torch.testing.assert_close(got, f(x), rtol=1e-12, atol=1e-14)
    assert [g.cached for g in opt_backend.graphs()] == [False, True]
    assert opt_backend.graphs()[1].seconds < 0.5


def test_options_are_checked_before_anything_is_traced():
    with pytest.raises(OptPyError, match=r"unknown option\(s\) 'targt' \(options: target, fixes, iree_flags"):
        opt_backend.backend(None, [], options={"targt": "cpu"})
    with pytest.raises(OptPyError, match="unknown target 'tpu'"):
        opt_backend.backend(None, [], options={"target": "tpu"})
    with pytest.raises(OptPyError, match="unknown fix"):
        opt_backend.backend(None, [], options={"fixes": "no-such-fix"})
    with pytest.raises(OptPyError, match="option 'cache' is True or False"):
        opt_backend.backend(None, [], options={"cache": "yes"})
    with pytest.raises(OptPyError, match="unknown mode 'fastest'"):
        opt_backend.backend(None, [], mode="fastest")


@torch.library.custom_op("opt_py_test::mystery", mutates_args=())
def mystery(x: torch.Tensor) -> torch.Tensor:
    """An op torch-mlir cannot know: every compile of a graph holding it fails."""
    return x * 3


@mystery.register_fake
def _(x):
    return torch.empty_like(x)


def uses_mystery(x):
    y = x.relu()
    return mystery(y) + 1


def test_a_graph_that_fails_says_which_op_where_and_which_fixes():
    with pytest.raises(Exception) as raised:  # dynamo wraps the backend's error in BackendCompilerFailed
        torch.compile(uses_mystery, backend="opt_py")(torch.randn(3))
    error = raised.value.inner_exception if hasattr(raised.value, "inner_exception") else raised.value
    text = str(error)
    assert type(error).__name__ == "TorchCompileError", text
    assert error.op == "torch.operator 'torch.opt_py_test.mystery'", text
    line = inspect.getsourcelines(uses_mystery)[1] + 2  # the line calling mystery
    assert error.location == f"{__file__}:{line}", text
    assert "graph 0/0 (from " in text and "every fix for the target (" in text
    assert Path(error.program).is_file() and "opt-py compile " + error.program in text


def test_fallback_runs_a_failing_graph_in_eager_pytorch():
    x = torch.randn(3)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got = torch.compile(uses_mystery, backend="opt_py", options={"fallback": True})(x)
    torch.testing.assert_close(got, uses_mystery(x))
    assert any("runs in eager PyTorch" in str(w.message) for w in seen)
    assert [g.fallback for g in opt_backend.graphs()] == [True]


def test_tensors_cross_without_copies_and_results_never_alias_inputs():
    """On the CPU an input reaches IREE as its own memory and a result comes back as IREE's: a module
    returning its input hands back the input's buffer, which the runtime then copies (PyTorch would
    give a new tensor)."""
    from opt_py.torch import runtime
    from opt_py.torch.build import build, mlir_program
    from opt_py.torch.options import Options

    program = """
    func.func @main(%x: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) {
      %0 = torch.aten.neg %x : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
      return %x, %0 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
    }"""
    built = build(mlir_program(program.encode(), ".mlir", program), Options(), "a pass-through")
    assert built.written == {"main": []}  # the module only reads x: it is lent, not copied
    loaded = runtime.Loaded(built.vmfb, "cpu", written=built.written["main"])
    x = torch.arange(4.0)
    same, neg = loaded([x])
    assert same.data_ptr() != x.data_ptr() and torch.equal(same, x)  # copied: it was x's own buffer
    raw = runtime._unaliased
    try:
        runtime._unaliased = lambda outs, args, keep=None: outs
        same, neg = loaded([x])
    finally:
        runtime._unaliased = raw
    assert same.data_ptr() == x.data_ptr()  # IREE read x where it lies, and returned that buffer
    torch.testing.assert_close(neg, -x)


def test_an_input_the_module_writes_in_place_is_lent_as_a_copy():
    """Stock IREE scatters into an argument's own buffer at its last use (IREE #16168): lent by DLPack,
    the caller's tensor would change. The compiled module says which arguments it writes; those are
    copied first, and the caller's tensors stay as they were."""

    def scatter(x, pos, v):
        return x.index_copy(0, pos, v) * 2

    x, pos, v = torch.zeros(4, 3), torch.tensor([1]), torch.ones(1, 3)
    got = torch.compile(scatter, backend="opt_py")(x, pos, v)
    torch.testing.assert_close(got, scatter(x, pos, v))
    assert torch.equal(x, torch.zeros(4, 3))
    [graph] = opt_backend.graphs()
    from opt_py.iree.module_cache import ModuleCache
    from opt_py.torch import runtime

    [entry] = ModuleCache().entries()
    assert entry.about["written"] == {"main": [0]}
    lent = runtime.Loaded(ModuleCache().get(entry.key), "cpu", written=[])  # as if nothing were written
    lent([x, pos, v], torch_out=True)
    assert not torch.equal(x, torch.zeros(4, 3))  # the module wrote into x where it lies


def test_a_buffer_pytorch_mutates_is_written_in_place_without_copies():
    """A tensor the program mutates (a static KV cache's index_copy_): AOTAutograd copies its new value
    back after the call, so the module may write it where it lies, and does."""
    cache = torch.zeros(6, 3)

    def update(x, pos):
        cache.index_copy_(0, pos, x)
        return cache.sum(0)

    compiled = torch.compile(update, backend="opt_py")
    want = torch.zeros(6, 3)
    for step in range(3):
        x, pos = torch.full((1, 3), float(step + 1)), torch.tensor([step])
        want.index_copy_(0, pos, x)
        torch.testing.assert_close(compiled(x, pos), want.sum(0))
        torch.testing.assert_close(cache, want)


def cuda_ready() -> tuple[bool, str]:
    if not torch.cuda.is_available():
        return False, "torch sees no CUDA device"
    from opt_py.execution.e2e import TARGETS, device_available

    return device_available(TARGETS["cuda"])


@pytest.mark.skipif(not cuda_ready()[0], reason=f"no GPU here: {cuda_ready()[1]}")
def test_cuda_tensors_in_and_out_stay_on_the_gpu():
    model = Breaks().cuda().eval()
    compiled = torch.compile(model, backend="opt_py", options={"target": "cuda"})
    x = torch.randn(6, 4, device="cuda")
    with torch.no_grad():
        got, want = compiled(x), model(x)
    assert got[0].device == x.device
    torch.testing.assert_close(got[0], want[0], rtol=1e-4, atol=1e-5)


# --------------------------------------------------------------------------
# the library corpus's architectures (slow)
# --------------------------------------------------------------------------

CORPUS = [
    "llama_eager_dyn",
    "qwen2_sdpa_dyn",
    "gemma2_eager_dyn",
    "mixtral_sdpa_dyn",
    "deepseek_v3_eager_dyn",
    "bert_sdpa_dyn",
    "vit_sdpa_dyn",
    "vae_decoder",
]


def corpus_spec(name):
    from opt_py.corpus import library_models as lib

    return next(s for s in lib.SPECS if s.name == name)


@pytest.mark.slow
@pytest.mark.parametrize("name", CORPUS)
def test_a_corpus_architecture_equals_eager_pytorch(name):
    """The model compiled by the backend on the export's example and on the test inputs (another length
    where the sequence is dynamic): equal to eager PyTorch within the corpus's tolerance."""
    s = corpus_spec(name)
    torch.manual_seed(s.seed)
    model, _ = s.build()
    model = model.eval()
    g = torch.Generator().manual_seed(1000 + s.seed)
    example = s.example(g)
    run = s.run(g, model)
    compiled = torch.compile(model, backend="opt_py")
    with torch.no_grad():
        for args in (example, run):
            got, want = compiled(*args), model(*args)
            for a, b in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
                torch.testing.assert_close(a, b, rtol=s.rtol, atol=s.atol)
    graphs = opt_backend.graphs()
    frames = {g.compile_id.split("/")[0] for g in graphs}
    recompiles = sum(1 for g in graphs if not g.compile_id.endswith("/0"))
    print(f"{name}: {len(graphs)} graph(s) from {len(frames)} frame(s), {recompiles} recompile(s)")
    assert graphs and not any(g.fallback for g in graphs)
    assert recompiles <= 1  # at most the one that makes the sequence symbolic


class Constant(torch.nn.Module):
    """A tensor made in forward: aot_autograd lifts it into the graph as a constant (a get_attr)."""

    def forward(self, x):
        return x * torch.tensor([1.0, 2.0, 3.0])


def test_a_graph_constant_is_read_outside_aot_autograds_fake_mode():
    """The backend hashes constants' bytes for the cache key under aot_autograd's fake mode, where reading a
    real tensor is refused (the Llama of the README has one)."""
    model = Constant().eval()
    x = torch.randn(2, 3)
    with torch.no_grad():
        torch.testing.assert_close(torch.compile(model, backend="opt_py")(x), model(x))
    assert [g.fallback for g in opt_backend.graphs()] == [False]

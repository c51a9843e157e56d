"""The package reads as its data flow: no import runs back up, and none goes round in a circle.

Layers, lowest first: errors and syntax; authoring (what a pass author
writes against); patterns; passes; pipeline (text -> plan); run (plan x IR
-> IR); iree (compiling with IREE, passes injected: phases, codegen, input conversion, const-eval, the fixes);
execution (running what was compiled, checking it, hunting the wrong dispatch, bundles for a device elsewhere);
cases (program generators); fuzz (differential fuzzing campaigns), corpus (the model corpora's exporters and
checks), peers (the peers' suites swept) and bench (what the benchmarks in tools/ share), beside it; tool (the
command) and torch (the PyTorch front door). A module may import its own layer or lower ones, never the
facade ``opt_py`` itself. Lazy imports inside functions count too: a cycle
through one is still a cycle for the reader. So do ``importlib.import_module``
and ``__import__`` calls whose name the text shows (a literal, or the literal
start of an f-string or a concatenation, down to its last whole package).
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "python"
LAYERS = [
    "errors",
    "syntax",
    "authoring",
    "patterns",
    "passes",
    "pipeline",
    "run",
    "iree",
    "execution",
    "cases",
    "fuzz",
    "corpus",
    "peers",
    "bench",
    "tool",
    "torch",
]
RANK = {
    "errors": 0,
    "syntax": 0,
    "authoring": 1,
    "patterns": 2,
    "passes": 3,
    "pipeline": 4,
    "run": 5,
    "iree": 6,  # compiling with IREE, Python passes injected
    "execution": 7,  # running, checking and hunting what IREE compiled
    "cases": 8,
    "fuzz": 9,  # differential fuzzing campaigns: generators, reducer, engines (opt-py fuzz)
    "corpus": 9,  # the model corpora (test/models, test/library_models): specs, exporters, checks
    "peers": 9,  # the peers' suites swept stock and with --fixes (tools/sweep_peer_suites.py)
    "bench": 9,  # what the benchmarks in tools/ share: timing commands and pipelines, the top-k timers
    "tool": 10,
    "torch": 10,  # the PyTorch front door (opt_py.torch), beside the command
}


def module_name(path: Path) -> str:
    parts = ["opt_py", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str, path: Path) -> set[str]:
    """Every opt_py module ``name`` imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    known = modules()
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            target = dynamic_import(node, name, package)
            if target is not None:
                out.add(known_module(target, known))
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "opt_py"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == "opt_py":
                target = node.module
            else:
                continue
            for a in node.names:  # "from . import registry" names a module
                sub = f"{target}.{a.name}"
                out.add(sub if sub in known else target)
    return out


def dynamic_import(call: ast.Call, name: str, package: str) -> str | None:
    """The opt_py module (or package) an ``importlib.import_module`` / ``__import__`` call names, as far as
    its text shows it; None when it names no opt_py module or only the running program knows which."""
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    found = literal_start(call.args[0]) if called in ("import_module", "__import__") and call.args else None
    if found is None:
        return None
    text, whole = found
    if not whole:  # what is computed may continue the last name: only the whole names before it count
        text = text[: text.rfind(".") + 1]
    level = len(text) - len(text.lstrip("."))
    if level:  # import_module(".x", __package__ or __name__): relative to that anchor
        anchor = getattr(call.args[1], "id", None) if len(call.args) > 1 else None
        base = {"__package__": package, "__name__": name}.get(anchor)
        if base is None:
            return None
        parts = base.split(".")
        text = ".".join(parts[: len(parts) - level + 1] + [text[level:]])
    target = text.rstrip(".")
    return target if target.split(".")[0] == "opt_py" else None


def literal_start(node) -> tuple[str, bool] | None:
    """(the text an expression surely starts with, whether that is all of it): a string literal, the
    literal start of an f-string or of a ``+`` concatenation; None when it starts with something computed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, True
    if isinstance(node, ast.JoinedStr):
        start = ""
        for part in node.values:
            if not isinstance(part, ast.Constant):
                return start, False
            start += part.value
        return start, True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = literal_start(node.left)
        return None if left is None else (left[0], False)
    return None


def known_module(target: str, known) -> str:
    """``target``, or the innermost known module or package it lies in."""
    parts = target.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in known:
            return ".".join(parts[:n])
    return target


def layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else None


def test_every_module_has_a_layer():
    loose = [n for n in modules() if layer(n) is None and n not in ("opt_py", "opt_py.__main__")]
    assert not loose, f"modules outside the layers {LAYERS}: {loose}"


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_upward_import(name):
    if name in ("opt_py", "opt_py.__main__"):
        return  # the facade and the entry point sit on top
    bad = []
    for target in sorted(imports(name, modules()[name])):
        if target == "opt_py":
            bad.append(f"{target} (the facade)")
        elif layer(target) is not None and RANK[layer(target)] > RANK[layer(name)]:
            bad.append(f"{target} (layer '{layer(target)}' is above '{layer(name)}')")
    assert not bad, f"{name} imports upward: {bad}"


def test_no_two_modules_share_a_name():
    """A module's file name says which module it is: only a pass's own modules (its pattern, its pass, its
    case generator) share the pass's name, by design (one name per pass everywhere)."""
    passes = {p.stem for p in (PACKAGE / "passes").glob("*.py")}
    by_name: dict[str, list[str]] = {}
    for name, path in modules().items():
        if path.name != "__init__.py":
            by_name.setdefault(path.stem, []).append(name)
    shared = {
        stem: names
        for stem, names in by_name.items()
        if len(names) > 1 and not (stem in passes and all(layer(n) in ("patterns", "passes", "cases") for n in names))
    }
    assert not shared, f"modules with one name: {shared}"


def test_no_import_cycles():
    graph = {n: {t for t in imports(n, p) if t in modules() and t != n} for n, p in modules().items()}
    state, path, cycles = {}, [], []

    def visit(n):
        state[n] = "open"
        path.append(n)
        for t in sorted(graph[n]):
            if state.get(t) == "open":
                cycles.append(path[path.index(t) :] + [t])
            elif t not in state:
                visit(t)
        path.pop()
        state[n] = "done"

    for n in sorted(graph):
        if n not in state:
            visit(n)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_checks_see_an_upward_import(tmp_path):
    """The walker resolves relative imports: a pattern importing the engine is caught."""
    fake = PACKAGE / "patterns" / "fold_collapse_shape_into_store.py"
    src = "from ..run import engine\nfrom . import ir_utils\n"
    path = tmp_path / "x.py"
    path.write_text(src)
    got = imports("opt_py.patterns.fold_collapse_shape_into_store", path)
    assert got == {"opt_py.run.engine", "opt_py.patterns.ir_utils"} and fake.exists()


@pytest.mark.parametrize(
    "src,found",
    [
        # what python/execution/bundle_write.py did: an upward import the static walk did not see
        ('importlib.import_module(f"..cases.{GENERATORS[name]}", __package__)\n', {"opt_py.cases"}),
        ('__import__("opt_py.tool.cli")\n', {"opt_py.tool.cli"}),
        ('import_module("opt_py.patterns." + name)\n', {"opt_py.patterns"}),
        ('importlib.import_module(f".{where}", __package__)\n', {"opt_py.execution"}),
        (
            'importlib.import_module(".errors", __name__)\n',
            {"opt_py.execution.bundle_write"},
        ),  # bundle.errors, as Python resolves it
        ('importlib.import_module(name)\nimportlib.import_module("iree.compiler.ir")\n', set()),
    ],
)
def test_the_checks_see_a_dynamic_import(tmp_path, src, found):
    path = tmp_path / "x.py"
    path.write_text(src)
    assert imports("opt_py.execution.bundle_write", path) == found

"""The package reads as its data flow: no import runs back up, and none goes round in a circle.

Layers, lowest first: errors and syntax; authoring (what a pass author
writes against); patterns; passes; pipeline (text -> plan); run (plan x IR
-> IR); iree (compile, codegen, runtime); cases (program generators); tool
(the command). A module may import its own layer or lower ones, never the
facade ``opt_py`` itself. Lazy imports inside functions count too: a cycle
through one is still a cycle for the reader.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "python"
LAYERS = ["errors", "syntax", "authoring", "patterns", "passes", "pipeline", "run", "iree", "cases", "tool"]
RANK = {
    "errors": 0,
    "syntax": 0,
    "authoring": 1,
    "patterns": 2,
    "passes": 3,
    "pipeline": 4,
    "run": 5,
    "iree": 6,
    "cases": 7,
    "tool": 8,
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
        if isinstance(node, ast.Import):
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

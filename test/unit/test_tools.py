"""tools/ are scripts over the package: what they share with each other and with the tests is in it.

A script of tools/ imports the package (``opt_py.corpus``, ``opt_py.peers``,
``opt_py.bench``, ...) and no other script, and no private name (``_x``) of
opt-py's modules or of another script; the tests import nothing from tools/;
and no file of tools/ or test/ changes ``sys.path`` (the few folders the tests
need on it, the test passes' plugin among them, are pyproject.toml's pytest
``pythonpath``). Read from the files' syntax, lazy imports included. A
library's own private modules (``torch._dynamo``) are that library's business.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
SCRIPTS = frozenset(p.stem for p in TOOLS.glob("*.py"))
LOADERS = ("spec_from_file_location", "run_path", "SourceFileLoader", "import_module", "__import__")
PATH_CHANGES = ("insert", "append", "extend", "remove", "pop", "clear", "__setitem__")


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def is_sys_path(node) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    )


def path_changes(tree: ast.AST) -> list[str]:
    """Where the file changes ``sys.path``: a call of one of its mutating methods, an assignment to it or
    to an item of it, ``site.addsitedir``, or ``from sys import path``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if (node.func.attr in PATH_CHANGES and is_sys_path(node.func.value)) or node.func.attr == "addsitedir":
                found.append(f"line {node.lineno}: {ast.unparse(node.func)}(...)")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if is_sys_path(t) or (isinstance(t, ast.Subscript) and is_sys_path(t.value)):
                    found.append(f"line {node.lineno}: {ast.unparse(t)} = ...")
        elif isinstance(node, ast.ImportFrom) and node.module == "sys" and any(a.name == "path" for a in node.names):
            found.append(f"line {node.lineno}: from sys import path")
    return found


def names_tools(node: ast.AST) -> bool:
    """Whether an expression mentions tools/ as text: ``"tools"``, a path under it, a script's name."""
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            text = n.value.strip("/")
            if text == "tools" or text.startswith("tools/") or "/tools/" in n.value or text in SCRIPTS:
                return True
    return False


def imports_of_tools(tree: ast.AST) -> list[str]:
    """Where a test imports tools/: ``import tools...``, a script's module by name, or a loader
    (``spec_from_file_location``, ``run_path``, ``import_module``...) given a path or name in tools/."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in SCRIPTS | {"tools"}:
                    found.append(f"line {node.lineno}: import {a.name}")
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[0] in SCRIPTS | {"tools"}:
                found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called in LOADERS and any(names_tools(a) for a in [*node.args, *(k.value for k in node.keywords)]):
                found.append(f"line {node.lineno}: {ast.unparse(node)[:100]}")
    return found


def script_imports(tree: ast.AST) -> list[str]:
    """Where a script imports another script of tools/ (by its module name) or a private name of opt-py's
    modules or of a script: ``from m import _x``, ``import m._x``, ``m._x`` for a module ``m`` it imported."""
    ours = SCRIPTS | {"opt_py"}
    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                if top in SCRIPTS:
                    found.append(f"line {node.lineno}: import {a.name} (another script)")
                if top in ours:
                    modules.add(a.asname or top)
                    if any(private(part) for part in a.name.split(".")):
                        found.append(f"line {node.lineno}: import {a.name}")
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            top = node.module.split(".")[0]
            if top in SCRIPTS:
                found.append(f"line {node.lineno}: from {node.module} import ... (another script)")
            if top in ours:
                if any(private(part) for part in node.module.split(".")):
                    found.append(f"line {node.lineno}: from {node.module} import ...")
                for a in node.names:
                    if private(a.name):
                        found.append(f"line {node.lineno}: from {node.module} import {a.name}")
                    modules.add(a.asname or a.name)  # a module, or a class whose private names are as private
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in modules:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def offenders(folders, check) -> list[str]:
    """``path: where`` for each finding of ``check`` in the Python files under ``folders``."""
    return [
        f"{path.relative_to(ROOT)}: {where}"
        for folder in folders
        for path in sorted(folder.rglob("*.py"))
        for where in check(ast.parse(path.read_text()))
    ]


def test_no_file_of_tools_or_test_changes_sys_path():
    assert not offenders([TOOLS, ROOT / "test"], path_changes)


def test_the_tests_import_nothing_from_tools():
    assert not offenders([ROOT / "test"], imports_of_tools)


def test_a_script_imports_the_package_not_another_script_nor_a_private_name():
    assert not offenders([TOOLS], script_imports)


def test_the_checks_see_what_they_forbid():
    """Each check finds its case in a small source, and passes the allowed spelling beside it."""
    changes = "import sys, site\nsys.path.insert(0, 'x')\nsys.path[0] = 'y'\nsys.path += ['z']\nsite.addsitedir('w')\n"
    assert len(path_changes(ast.parse(changes))) == 4
    assert not path_changes(ast.parse("import sys\nfor p in sys.path:\n    print(p)\nenv = {'PYTHONPATH': 'x'}\n"))

    loads = (
        "import export_models\n"
        "from tools import bench_core\n"
        "import importlib.util\n"
        "spec = importlib.util.spec_from_file_location('m', ROOT / 'tools' / 'm.py')\n"
        "def f():\n    import benchlib_gone, peer_sweep\n"
    )
    assert len(imports_of_tools(ast.parse(loads))) == 4  # benchlib_gone is no script: not counted
    assert not imports_of_tools(ast.parse("from opt_py.corpus import models\nimport iree.compiler.tools\n"))

    private_uses = (
        "from opt_py.execution import e2e; from opt_py.iree import _hidden\n"
        "import opt_py.torch._impl\n"
        "import peer_sweep\n"
        "def f():\n    from opt_py.execution.e2e import _runtime_tool\n    return e2e._runtime_tool, opt_py.x._y\n"
    )
    assert len(script_imports(ast.parse(private_uses))) == 6
    allowed = "import torch\nfrom opt_py.execution import e2e\nt = torch._dynamo\nrow = e2e.Run(1)._replace\nx._y\n"
    assert script_imports(ast.parse(allowed)) == []

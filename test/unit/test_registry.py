"""opt-py's own passes: the name table matches the declarations."""

import pkgutil
import re
from pathlib import Path

import opt_py.passes
import pytest
from opt_py import Pass
from opt_py.pipeline import registry


@pytest.mark.parametrize("name", sorted(registry.BUILTIN_PASSES))
def test_listed_pass_declares_that_name(name):
    cls = registry.builtin_pass(name)
    assert isinstance(cls, type) and issubclass(cls, Pass)
    assert cls.name == name and cls.summary


@pytest.mark.parametrize("name", sorted(registry.BUILTIN_PASSES))
def test_no_builtin_collides_with_a_cpp_pass(name):
    assert name not in {n for n, _ in registry.cpp_passes()}


def test_every_pass_module_is_listed():
    modules = {m.name for m in pkgutil.iter_modules(opt_py.passes.__path__)}
    listed = {target.partition(":")[0] for target in registry.BUILTIN_PASSES.values()}
    assert modules == listed


# One name per pass everywhere; the one exception is proven with the pass it is injected with.
SHARED_PROOF = {"fold-subview-into-gather": "test/passes/test_gather_to_load.py"}


@pytest.mark.parametrize("name", sorted(registry.BUILTIN_PASSES))
def test_every_pass_has_its_files_under_its_name(name):
    """A pattern family with many parts is a package (python/patterns/<module>/), and a pass with many
    variants has a folder of lit files (test/lit/passes/<name>/, one file per form), under the same name."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    module = name.replace("-", "_")
    expected = [
        (f"python/passes/{module}.py",),
        (f"python/patterns/{module}.py", f"python/patterns/{module}/__init__.py"),
        (f"test/lit/passes/{name}.mlir", f"test/lit/passes/{name}/"),
        (SHARED_PROOF.get(name, f"test/passes/test_{module}.py"),),
        (f"docs/passes/{name}.md",),
    ]
    missing = [" or ".join(ways) for ways in expected if not any(_present(root / p) for p in ways)]
    assert not missing, f"{name}: {missing}"
    assert registry.BUILTIN_PASSES[name].partition(":")[0] == module


def _present(path) -> bool:
    """A file, or a folder holding at least one lit file."""
    return any(path.glob("*.mlir")) if path.is_dir() else path.is_file()


def _readme_pass_rows() -> list[str]:
    """The rows of the README's pass table (its section "## opt-py's passes")."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = text.split("## opt-py's passes", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| [`")]


@pytest.mark.parametrize("name", sorted(registry.BUILTIN_PASSES))
def test_readme_has_a_row_for_every_pass(name):
    """Every registered pass (so every fix: test_fixes.py checks each is one) is in the README's pass table,
    linked to its page; a pass that --fixes does not run says so in its row."""
    from opt_py.iree.fixes import FIXES

    link = f"[`{name}`](docs/passes/{name}.md)"
    rows = [row for row in _readme_pass_rows() if link in row.split(" | ")[0]]
    assert len(rows) == 1, f"README.md's pass table has {len(rows)} rows linking {link}"
    if name not in {f.name for f in FIXES}:
        assert "not in `--fixes`" in rows[0], f"{name} is not in FIXES: its README row must say 'not in `--fixes`'"


def test_readme_pass_table_names_only_registered_passes():
    named = {n for row in _readme_pass_rows() for n in re.findall(r"\[`([\w-]+)`\]", row.split(" | ")[0])}
    assert named <= set(registry.BUILTIN_PASSES), named - set(registry.BUILTIN_PASSES)


PATTERN_MODULES = sorted(
    str(p.relative_to(Path(__file__).resolve().parents[2]))
    for p in (Path(__file__).resolve().parents[2] / "python" / "patterns").rglob("*.py")
)


@pytest.mark.parametrize("module", PATTERN_MODULES)
def test_pattern_docstrings_say_why_in_20_lines(module):
    """A pattern module's docstring says why in at most 20 lines; the figures, proofs and examples live on
    its pass's page (docs/passes/), which the docstring need not restate."""
    import ast

    root = Path(__file__).resolve().parents[2]
    doc = ast.get_docstring(ast.parse((root / module).read_text())) or ""
    assert len(doc.splitlines()) <= 20, f"{module}: a docstring of {len(doc.splitlines())} lines"


GUIDE_FIX = "torch-roll-shift-mod-size"  # a fix with every file and row the guide lists
NUMBERS = {"five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def test_the_guide_lists_the_edits_a_fix_takes():
    """docs/guides/writing-a-pass.md's "Shipping it" list is what a real fix has: each file it lists exists
    for the fix, each shared table it lists names the fix, the count it states is the list's length, and
    no other file in the repository is named after the fix."""
    from opt_py.iree.fixes import FIXES

    root = Path(__file__).resolve().parents[2]
    guide = (root / "docs" / "guides" / "writing-a-pass.md").read_text()
    section = guide.split("## 6. Shipping it", 1)[1].split("\n## ", 1)[0]
    items = re.findall(r"^(\d+)\. `([^`]+)`", section, flags=re.M)
    assert [int(n) for n, _ in items] == list(range(1, len(items) + 1))
    stated = re.search(r"a fix takes (\w+) edits", section)
    assert stated and NUMBERS[stated.group(1)] == len(items), "the guide's count is not its list's length"
    assert GUIDE_FIX in {f.name for f in FIXES}
    module = GUIDE_FIX.replace("-", "_")
    own = set()
    for _, template in items:
        path = template.replace("<pass>", GUIDE_FIX).replace("<module>", module)
        if path != template:
            own.add(path)
            assert (root / path).is_file(), f"the guide lists {template}; {GUIDE_FIX} has no {path}"
        else:
            assert GUIDE_FIX in (root / path).read_text(), f"the guide lists {path}; it does not name {GUIDE_FIX}"
    named_after = {
        str(p.relative_to(root))
        for top in ("python", "test", "docs", "tools", "examples")
        for p in (root / top).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and (GUIDE_FIX in p.name or module in p.name)
    }
    assert named_after == own, f"files named after {GUIDE_FIX} that the guide does not list: {named_after - own}"

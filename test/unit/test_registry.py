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


def test_every_pass_module_declares_the_pass_it_is_named_after():
    """A module of python/passes/ is one pass: the one Pass subclass it defines, named as the module."""
    import importlib

    for m in pkgutil.iter_modules(opt_py.passes.__path__):
        mod = importlib.import_module(f"opt_py.passes.{m.name}")
        own = [
            c
            for c in vars(mod).values()
            if isinstance(c, type) and issubclass(c, Pass) and c.__module__ == mod.__name__
        ]
        assert [c.name for c in own] == [m.name.replace("_", "-")], m.name
        assert registry.builtin_pass(own[0].name) is own[0]


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
    assert registry.BUILTIN_PASSES[name] == module


def _present(path) -> bool:
    """A file, or a folder holding at least one lit file."""
    return any(path.glob("*.mlir")) if path.is_dir() else path.is_file()


def test_the_tables_written_from_the_declarations_are_fresh():
    """The table --fixes reads (python/iree/fixes_table.py), the README's pass table and
    docs/reference/fixes.md's are what the passes' declarations make of them."""
    from opt_py.iree import pass_tables

    stale = pass_tables.stale()
    assert not stale, f"stale: {', '.join(stale)}; run `{pass_tables.COMMAND}`"


def _declaring(fixes: dict) -> dict:
    """Pass classes declaring the fixes ``fixes`` (name -> Fix), as gathered() takes them."""
    return {name: type(name, (Pass,), {"name": name, "fix": f}) for name, f in fixes.items()}


def test_a_new_fix_comes_last_at_its_phase_and_the_order_it_declares_is_kept():
    from opt_py.authoring import Fix
    from opt_py.iree.pass_tables import gathered

    def fix(phase, after=None):
        return Fix("what it fixes", ops=("x.y",), phase=phase, after=after)

    passes = _declaring({"a": fix("start"), "b": fix("start"), "c": fix("flow"), "new": fix("start")})
    assert [f.name for f in gathered(passes, ["b", "a", "c", "gone"])] == ["b", "a", "new", "c"]
    passes = _declaring({"a": fix("start", after="b"), "b": fix("start"), "c": fix("start")})
    assert [f.name for f in gathered(passes, [])] == ["b", "a", "c"]
    assert [f.name for f in gathered(passes, ["a", "c", "b"])] == ["c", "b", "a"]
    with pytest.raises(ValueError, match="not a fix at its point"):
        gathered(_declaring({"a": fix("start", after="c"), "c": fix("flow")}), [])
    with pytest.raises(ValueError, match="in a circle"):
        gathered(_declaring({"a": fix("start", after="b"), "b": fix("start", after="a")}), [])
    with pytest.raises(ValueError, match="at phase 'begin'"):
        gathered(_declaring({"a": fix("begin")}), [])


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


GUIDE_FIX = "torch-roll-shift-mod-size"  # a fix with every file the guide lists
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def test_the_guide_lists_the_edits_a_fix_takes():
    """docs/guides/writing-a-pass.md's "Shipping it" list is what a real fix has: at most five files of its
    name, each there for the fix, the count it states the list's length, and no other file in the repository
    named after the fix; the shared tables name the fix without an edit of theirs (the command the guide
    names writes them from the pass's declaration, which holds its ``fix``)."""
    from opt_py.iree import pass_tables

    root = Path(__file__).resolve().parents[2]
    guide = (root / "docs" / "guides" / "writing-a-pass.md").read_text()
    section = guide.split("## 6. Shipping it", 1)[1].split("\n## ", 1)[0]
    items = re.findall(r"^(\d+)\. `([^`]+)`", section, flags=re.M)
    assert [int(n) for n, _ in items] == list(range(1, len(items) + 1))
    stated = re.search(r"a fix takes (\w+) edits", section)
    assert stated and NUMBERS.get(stated.group(1)) == len(items), "the guide's count is not its list's length"
    module = GUIDE_FIX.replace("-", "_")
    own = set()
    for _, template in items:
        path = template.replace("<pass>", GUIDE_FIX).replace("<module>", module)
        assert path != template, f"the guide lists {template}, a file shared by all fixes: that is a sixth edit"
        own.add(path)
        assert (root / path).is_file(), f"the guide lists {template}; {GUIDE_FIX} has no {path}"
    assert registry.builtin_pass(GUIDE_FIX).fix is not None, f"{GUIDE_FIX} declares no fix"
    assert f"`{pass_tables.COMMAND}`" in section, "the guide does not name the command that writes the tables"
    for path in (pass_tables.TABLE, pass_tables.README, pass_tables.FIXES_MD):
        assert GUIDE_FIX in (root / path).read_text(), f"{path} does not name {GUIDE_FIX}"
    named_after = {
        str(p.relative_to(root))
        for top in ("python", "test", "docs", "tools", "examples")
        for p in (root / top).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and (GUIDE_FIX in p.name or module in p.name)
    }
    assert named_after == own, f"files named after {GUIDE_FIX} that the guide does not list: {named_after - own}"

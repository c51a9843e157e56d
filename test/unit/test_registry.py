"""opt-py's own passes: the name table matches the declarations."""

import pkgutil

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

"""The checkout has the design card's layout, and installing it costs no start-up.

The card asks for ``CMakeLists.txt``, ``pyproject.toml``, ``python/`` (the
package ``opt_py``), ``python/passes/``, ``python/patterns/``, ``test/lit/``,
``test/e2e/`` and ``tools/`` at the top. Setuptools' editable install of a
package whose folder is not its name registers an import hook that every
Python start-up pays for; ``tools/build_backend.py`` avoids it, and these
tests fail if a hook comes back.
"""

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CARD = [
    "CMakeLists.txt",
    "pyproject.toml",
    "python",
    "python/passes",
    "python/patterns",
    "test/lit",
    "test/e2e",
    "tools",
]


def test_the_cards_layout():
    missing = [p for p in CARD if not (ROOT / p).exists()]
    assert not missing, f"missing from the top level: {missing}"
    assert (ROOT / "python" / "__init__.py").is_file()
    assert not list(ROOT.glob("src/**/*.py")), "the package lives in python/, not src/"


def test_every_package_folder_is_packaged():
    """pyproject's package list is every folder of python/ that holds an __init__.py."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {"opt_py": "python"}
    on_disk = sorted(
        ".".join(["opt_py", *p.parent.relative_to(ROOT / "python").parts])
        for p in (ROOT / "python").rglob("__init__.py")
        if "__pycache__" not in p.parts
    )
    assert sorted(config["packages"]) == on_disk


def test_start_up_imports_no_hook():
    """A bare Python start-up in this environment imports nothing for opt-py: no finder, no .pth."""
    probe = (
        "import sys; print(sorted(m for m in sys.modules if 'editable' in m or m.startswith('opt_py'))); "
        "print(sorted(type(f).__module__ for f in sys.meta_path if 'editable' in type(f).__module__))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "[]", f"imported at start-up: {out[0]}"
    assert out[1] == "[]", f"editable-install import hooks: {out[1]}"
    site = [p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p)]
    pth = [f for d in site for f in os.listdir(d) if f.endswith(".pth") and "opt_py" in f.replace("-", "_")]
    assert not pth, f"opt-py's install adds .pth files: {pth}"


def test_the_script_imports_only_the_client():
    """The installed ``opt-py`` is opt-py's own script: pip's wrapper would import ``re`` on every run."""
    script = Path(shutil.which("opt-py") or Path(sys.executable).parent / "opt-py").read_text()
    assert "from opt_py.tool.client import main" in script
    assert "import re" not in script, script


def test_the_package_resolves_to_this_checkout():
    import opt_py
    import opt_py.passes

    assert Path(opt_py.passes.__file__).resolve().parent == ROOT / "python" / "passes"

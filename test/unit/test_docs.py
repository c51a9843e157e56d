"""The docs hold: every command in the README and docs/ runs as written, every link resolves.

The ``sh`` blocks run in bash from the repository root (a line continued
with a backslash is one command; a line ending in ``# exit N`` must exit N);
``python`` blocks run as scripts. Left out: the install step (the suite is
running in an installed checkout), the test command itself (this is it), and
the pass pages' commands, which show where a pass goes on a program of your
own (``model.mlir``). Every relative link in README.md and docs/ must name a
file that exists (and, into a markdown page, a heading it has), and every
repository path the pages name (``python/...``, ``test/...``) must exist, so
a moved page or module cannot leave a page pointing at nothing.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ["README.md"] + sorted(
    str(p.relative_to(ROOT))
    for p in (ROOT / "docs").rglob("*.md")
    if "passes" not in p.relative_to(ROOT).parts and "```sh" in p.read_text()
)
GUIDE = "docs/guides/writing-a-pass.md"
SKIP = ("python -m pytest",)


def blocks(doc: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", (ROOT / doc).read_text(), re.S)


def commands(doc: str) -> list[tuple[str, int]]:
    """(command, the exit status it must give: 0, or N where the line ends in ``# exit N``)."""
    out = []
    for block in blocks(doc, "sh"):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            line = re.sub(r"^pip install -e '\.\[test\]' && ", "", line)
            status = re.search(r"\s+# exit (\d+)$", line)
            if status:
                line = line[: status.start()]
            if not line.startswith(SKIP):
                out.append((line, int(status.group(1)) if status else 0))
    return out


def env():
    e = dict(os.environ)
    e["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), e.get("PATH", "")])
    return e


CASES = [(doc, i, c, rc) for doc in DOCS for i, (c, rc) in enumerate(commands(doc))]


@pytest.mark.parametrize("doc,index,command,status", CASES, ids=[f"{d}#{i}" for d, i, _, _ in CASES])
def test_command_runs(doc, index, command, status):
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == status, (
        f"{doc}: `{command}` exited {proc.returncode}, not {status}:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    )


def test_docs_have_commands():
    assert len(commands("README.md")) >= 4 and len(commands(GUIDE)) >= 5


SNIPPETS = [(d, i) for d in DOCS for i, _ in enumerate(blocks(d, "python"))]


@pytest.mark.parametrize("doc,index", SNIPPETS, ids=[f"{d}#{i}" for d, i in SNIPPETS])
def test_python_snippets_run(doc, index):
    """In order, after the commands (the guide's snippet reads the module its commands built). A snippet
    whose first line is ``# needs: torch, iree.turbine`` runs where those import (the `models` extra)."""
    import importlib.util

    snippet = blocks(doc, "python")[index]
    needs = re.match(r"# needs: (.*)\n", snippet)
    missing = (
        [m.strip() for m in needs.group(1).split(",") if importlib.util.find_spec(m.strip()) is None] if needs else []
    )
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (pip install -e '.[models]')")
    for command, _ in commands(doc):
        subprocess.run(["bash", "-c", command], cwd=ROOT, env=env(), capture_output=True, timeout=600)
    proc = subprocess.run(
        [sys.executable, "-c", snippet], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, f"{doc}: snippet failed:\n{snippet}\n{proc.stderr[-4000:]}"


def test_guide_shows_the_example_as_it_is():
    shown = blocks(GUIDE, "python")[0]
    assert shown == (ROOT / "examples" / "fold_addi_zero.py").read_text()


def test_readme_stays_short():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


# --------------------------------------------------------------------------
# Links and named paths
# --------------------------------------------------------------------------

PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
NAMED_PATH = re.compile(r"(?<![\w./$-])(?:python|tools|test|docs|examples)/[\w./-]*\w")
# A module named inside the package, as docs/reference/architecture.md does: ``run/engine.py`` (any of the
# package's folders, so that a new layer is checked as soon as it exists).
PACKAGES = sorted(p.parent.name for p in (ROOT / "python").glob("*/__init__.py"))
PACKAGE_PATH = re.compile(rf"(?<![\w./$-])(?:{'|'.join(PACKAGES)})/[\w/]+\.py")


def prose(text: str) -> str:
    """The text outside fenced code blocks and inline code spans (where links are links)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a markdown page's headings: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.S | re.M)
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, flags=re.M):
        heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken_links(page: str) -> list[str]:
    here = ROOT / page
    bad = []
    for target in LINK.findall(prose(here.read_text())):
        if re.match(r"[a-z]+:", target):
            continue  # a URL, not a file of this repository
        path, _, anchor = target.partition("#")
        dest = (here.parent / path).resolve() if path else here
        if not dest.exists():
            bad.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{target} (no heading '#{anchor}' in {dest.relative_to(ROOT)})")
    return bad


@pytest.mark.parametrize("page", PAGES)
def test_links_resolve(page):
    bad = broken_links(page)
    assert not bad, f"{page}: links to nothing: {bad}"


@pytest.mark.parametrize("page", PAGES)
def test_named_paths_exist(page):
    """A repository path a page names in its text or code (``python/iree/fixes.py``, or inside the
    package ``iree/fixes.py``) exists.

    A path followed by a placeholder (``test/passes/test_<pass>.py``) names a
    pattern, not a file, and is left out.
    """
    bad = missing_paths((ROOT / page).read_text())
    assert not bad, f"{page}: names paths that do not exist: {bad}"


# Paths inside the IREE wheel's packages (``iree/compiler/...``), which the code names beside opt-py's own.
EXTERNAL = ("iree/compiler/", "iree/runtime/", "iree/turbine/")


def missing_paths(text: str) -> list[str]:
    """The repository paths ``text`` names that do not exist (one followed by a placeholder, ``<``, ``{`` or
    ``*``, names a pattern and is left out)."""
    named = [(m, ROOT) for m in NAMED_PATH.finditer(text)] + [(m, ROOT / "python") for m in PACKAGE_PATH.finditer(text)]
    return sorted(
        {
            m.group(0)
            for m, base in named
            if text[m.end() : m.end() + 1] not in "<{*"
            and not m.group(0).startswith(EXTERNAL)
            and not (base / m.group(0)).exists()
        }
    )


CODE = sorted(
    str(p.relative_to(ROOT))
    for top in ("python", "tools", "test", "examples")
    for p in (ROOT / top).rglob("*")
    if p.suffix in (".py", ".mlir", ".cfg", ".toml") and "__pycache__" not in p.parts and p.is_file()
) + ["pyproject.toml", "CMakeLists.txt"]


def test_code_names_only_paths_that_exist():
    """The code, tests and lit files name repository paths in docstrings, comments and strings
    (``docs/reference/fixes.md``, ``python/cases/topk.py``): each exists, so a moved page or module cannot
    leave a pointer to nothing (the pages are checked above)."""
    assert len(CODE) > 100
    bad = {f: paths for f in CODE if (paths := missing_paths((ROOT / f).read_text(errors="replace")))}
    assert not bad, f"names paths that do not exist: {bad}"


def test_link_check_can_fail(tmp_path, monkeypatch):
    """The checker itself: a missing file and a missing heading are caught, a good link is not."""
    page = ROOT / "docs" / "reports" / "performance.md"
    assert "warm-start" in anchors(page)
    fake = tmp_path / "docs" / "x.md"
    fake.parent.mkdir()
    fake.write_text("# Top\n\n[a](../README.md) [b](gone.md) [c](#top) [d](#nowhere) `[e](gone.md)`\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "README.md").write_text("# R\n")
    page = str(fake.relative_to(tmp_path))
    assert broken_links(page) == ["gone.md (no such file)", f"#nowhere (no heading '#nowhere' in {page})"]


def test_path_check_can_fail():
    """A moved page or module is caught in prose and code alike; a placeholder and the IREE wheel's own
    files are not."""
    page, module = "docs/guides/" + "gone.md", "iree/" + "gone.py"  # spelled apart: this file is checked too
    text = f"see {page} and `{module}`; python/passes/<pass>.py, iree/compiler/api/ctypes_dl.py"
    assert missing_paths(text) == [page, module]

"""Every command in the README and in docs/writing-a-pass.md runs, as written.

The ``sh`` blocks run in bash from the repository root (a line continued
with a backslash is one command); ``python`` blocks run as scripts. Only the
install step (the suite is running in an installed checkout) and the test
command itself (this is it) are left out.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ["README.md", "docs/writing-a-pass.md"]
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
    assert len(commands("README.md")) >= 4 and len(commands("docs/writing-a-pass.md")) >= 5


@pytest.mark.parametrize("doc", DOCS)
def test_python_snippets_run(doc):
    """In order, after the commands (the guide's snippet reads the module its commands built)."""
    for command, _ in commands(doc):
        subprocess.run(["bash", "-c", command], cwd=ROOT, env=env(), capture_output=True, timeout=600)
    for snippet in blocks(doc, "python"):
        proc = subprocess.run(
            [sys.executable, "-c", snippet], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=600
        )
        assert proc.returncode == 0, f"{doc}: snippet failed:\n{snippet}\n{proc.stderr[-4000:]}"


def test_guide_shows_the_example_as_it_is():
    shown = blocks("docs/writing-a-pass.md", "python")[0]
    assert shown == (ROOT / "examples" / "fold_addi_zero.py").read_text()


def test_readme_stays_short():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 300

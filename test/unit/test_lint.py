"""The code passes ruff's lint and format checks as pyproject.toml configures them (run by the suite, so by CI)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("command", [["check", "--output-format", "concise"], ["format", "--check"]])
def test_ruff(command):
    res = subprocess.run([sys.executable, "-m", "ruff", *command, "."], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, f"ruff {command[0]}:\n{res.stdout}{res.stderr}"

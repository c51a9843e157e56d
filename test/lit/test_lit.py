"""Runs the lit suite once and reports each lit file as a pytest test.

lit is the right tool for the IR tests (RUN lines, FileCheck); pytest is the
suite's one entry point. The lit run happens once per session; each lit file
then passes or fails on its own, with lit's output shown on failure.
"""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

LIT_DIR = Path(__file__).parent
SUFFIXES = (".mlir", ".test")


def _lit_files():
    return sorted(
        p.relative_to(LIT_DIR).as_posix()
        for p in LIT_DIR.rglob("*")
        if p.suffix in SUFFIXES and "Inputs" not in p.parts and "Output" not in p.parts
    )


@pytest.fixture(scope="session")
def lit_results(tmp_path_factory):
    xml = tmp_path_factory.mktemp("lit") / "results.xml"
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())", "-v", f"--xunit-xml-output={xml}", str(LIT_DIR)],
        capture_output=True, text=True, env=env, check=False,
    )
    results = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        failure = case.find("failure")
        # lit names a case by its file and puts its folder in the class name: "opt-py.tool".
        folder = "/".join(case.get("classname").split(".")[1:])
        name = f"{folder}/{case.get('name')}" if folder else case.get("name")
        results[name] = None if failure is None else (failure.text or "failed")
    return results, proc.stdout + proc.stderr


@pytest.mark.parametrize("name", _lit_files())
def test_lit(name, lit_results):
    results, log = lit_results
    assert name in results, f"lit did not run {name}:\n{log[-4000:]}"
    failure = results[name]
    assert failure is None, failure

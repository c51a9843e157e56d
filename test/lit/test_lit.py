"""Runs the lit suite once and reports each lit file as a pytest test.

lit is the right tool for the IR tests (RUN lines, FileCheck); pytest is the
suite's one entry point. The lit run happens once per session and mode; each
lit file then passes or fails on its own, with lit's output shown on failure.
The suite runs twice: cold (``OPT_PY_NO_SERVER=1``, checked by PyPI's
``filecheck``) and warm (every ``opt-py`` after the first served by the warm
server, in a runtime folder of its own; checked by LLVM's ``FileCheck``
where lit.cfg.py finds it); both must pass, with the same results.
"""

import os
import platform
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


MODES = ("cold", "warm")


def _run_lit(tmp_path_factory, mode):
    work = tmp_path_factory.mktemp(f"lit-{mode}")
    xml = work / "results.xml"
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("OPT_PY_NO_SERVER", None)
    env.pop("OPT_PY_FILECHECK", None)
    if mode == "cold":
        env["OPT_PY_NO_SERVER"] = "1"
        env["OPT_PY_FILECHECK"] = "filecheck"  # PyPI's: the CHECK lines must hold for both checkers
    else:
        runtime = work / "run"
        runtime.mkdir(mode=0o700)
        env.update(XDG_RUNTIME_DIR=str(runtime), OPT_PY_SERVER_LOG=str(work / "server.log"), OPT_PY_SERVER_IDLE="30")
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from lit.main import main; sys.exit(main())",
            "-v",
            f"--xunit-xml-output={xml}",
            str(LIT_DIR),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    results = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        failure = case.find("failure")
        # lit names a case by its file and puts its folder in the class name: "opt-py.tool".
        folder = "/".join(case.get("classname").split(".")[1:])
        name = f"{folder}/{case.get('name')}" if folder else case.get("name")
        results[name] = None if failure is None else (failure.text or "failed")
    served = 0
    if mode == "warm":
        log = work / "server.log"
        served = log.read_text().count("accepted a run") if log.exists() else 0
        for sock in (work / "run" / "opt-py").glob("*.sock"):
            sock.unlink()  # the server exits
    return results, proc.stdout + proc.stderr, served


@pytest.fixture(scope="session")
def lit_runs(tmp_path_factory):
    return {mode: _run_lit(tmp_path_factory, mode) for mode in MODES}


def test_lit_same_both_ways(lit_runs):
    """The warm server is invisible: the same files pass and fail, and it did serve runs."""
    cold, warm = lit_runs["cold"], lit_runs["warm"]
    assert {k: v is None for k, v in cold[0].items()} == {k: v is None for k, v in warm[0].items()}
    assert cold[2] == 0 and warm[2] > len(_lit_files()), f"warm server served {warm[2]} runs"


def test_lit_checked_by_both_checkers(lit_runs):
    """The cold run is checked by PyPI's filecheck; the warm one by LLVM's FileCheck where
    the llvm-testing-tools wheel runs (the test extra installs it on Linux x86-64)."""
    assert "note: filecheck is filecheck\n" in lit_runs["cold"][1]
    if (platform.system(), platform.machine()) == ("Linux", "x86_64"):
        assert "/binaries/FileCheck\n" in lit_runs["warm"][1], lit_runs["warm"][1][-2000:]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", _lit_files())
def test_lit(name, mode, lit_runs):
    results, log, _ = lit_runs[mode]
    assert name in results, f"lit did not run {name}:\n{log[-4000:]}"
    failure = results[name]
    assert failure is None, failure

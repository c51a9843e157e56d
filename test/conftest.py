"""Suite-wide fixtures (targets) and options: ``--runslow`` opts into tests marked ``slow``."""

import os

import pytest

# The test passes (test-addf-to-subf, ...) are an installed-style plugin in test/plugins/site, which
# pyproject.toml's pytest `pythonpath` puts on sys.path, with test/e2e and test/models.


def _present_target(name: str):
    """The target ``name`` if its device opens here; the test is skipped with the reason otherwise."""
    from opt_py.execution import e2e

    target = e2e.TARGETS[name]
    ok, why = e2e.device_available(target)
    if not ok:
        pytest.skip(f"{name}: {why}")
    return target


@pytest.fixture(params=["cpu", "cuda", "rocm"])
def run_target(request):
    """A target whose device is present here; GPU ones are skipped with the reason otherwise."""
    return _present_target(request.param)


@pytest.fixture(params=["cuda", "rocm"])
def gpu_run_target(request):
    """A GPU target whose device is present here; skipped with the reason otherwise."""
    return _present_target(request.param)


@pytest.fixture(params=["cuda", "rocm"])
def gpu_compile_target(request):
    """GPU targets for compile-only checks: compiling for a GPU needs no GPU."""
    from opt_py.execution import e2e

    return e2e.TARGETS[request.param]


def pytest_addoption(parser):
    parser.addoption(
        "--runslow", action="store_true", default=False, help="also run tests marked slow (or set OPT_PY_RUNSLOW=1)"
    )


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running; skipped unless --runslow or OPT_PY_RUNSLOW=1")
    if config.getoption("--runslow"):
        # one switch: tests that size a random sample by it read OPT_PY_RUNSLOW at import
        os.environ["OPT_PY_RUNSLOW"] = "1"


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow") or os.environ.get("OPT_PY_RUNSLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow or OPT_PY_RUNSLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)

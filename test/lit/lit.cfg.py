# lit configuration for opt-py: RUN lines use `opt-py` and `filecheck`.
import importlib.util
import os
import platform
import sys

import lit.formats

config.name = "opt-py"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

# The interpreter running lit is the one opt-py is installed in.
bindir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bindir, config.environment.get("PATH", os.environ.get("PATH", ""))])
# The test passes are an installed-style plugin: the entry point is found on PYTHONPATH.
plugin_site = os.path.join(os.path.dirname(config.test_source_root), "plugins", "site")
# Prepended, not replacing: a checkout put first on PYTHONPATH (a worktree, say) stays the one tested.
config.environment["PYTHONPATH"] = os.pathsep.join(p for p in (plugin_site, os.environ.get("PYTHONPATH", "")) if p)
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
# The warm server (python/tool/server.py): on unless OPT_PY_NO_SERVER=1; the suite runs both ways
# (test_lit.py). lit passes on only what it is told to, so these are passed through.
for var in ("OPT_PY_NO_SERVER", "XDG_RUNTIME_DIR", "OPT_PY_SERVER_IDLE", "OPT_PY_SERVER_LOG"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


# `filecheck` in a RUN line is LLVM's own FileCheck (the llvm-testing-tools wheel ships the
# Linux x86-64 binary) where it runs, else PyPI's Python clone, which costs a Python start-up
# and ~110 ms of imports per RUN line: most of the warm suite's time. OPT_PY_FILECHECK names
# another (test_lit.py runs the suite once with each). The CHECK lines hold for both.
def _native_filecheck():
    spec = importlib.util.find_spec("llvm_testing_tools")
    if spec is None or spec.origin is None or (platform.system(), platform.machine()) != ("Linux", "x86_64"):
        return None
    path = os.path.join(os.path.dirname(spec.origin), "binaries", "FileCheck")
    return path if os.access(path, os.X_OK) else None


filecheck = os.environ.get("OPT_PY_FILECHECK") or _native_filecheck() or "filecheck"
lit_config.note(f"filecheck is {filecheck}")
config.substitutions.insert(0, (r"(?<![\w.-])filecheck(?![\w.-])", filecheck.replace("\\", "\\\\")))

"""The package's build backend: setuptools, with an editable install that costs no start-up.

The package's code lives in ``python/`` and imports as ``opt_py``. Setuptools
can build a wheel from that mapping, but its editable install (``pip install
-e .``) then registers an import hook, a finder module that every Python
start-up imports, with ``pathlib`` and ``re`` behind it: about 20 ms of every
``opt-py`` run, measured, against a warm run's total of about 40.

The editable wheel built here holds one file of code instead, the package's
``__init__.py`` in site-packages, which points the package's ``__path__`` at
``python/`` in this checkout and runs the real ``python/__init__.py`` from its
cached bytecode. Nothing is imported at start-up; submodules, new files
included, are found in the checkout as they are. Its ``opt-py`` script is
opt-py's own: pip's console-script wrapper imports ``re`` first (~12 ms of a
warm run). ``test/unit/test_layout.py`` fails if an import hook, a ``.pth``
entry or that import comes back. Everything else is setuptools' own.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - the backend interface, setuptools' where not overridden here

PACKAGE = "opt_py"
SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python")

STUB = '''\
"""opt-py, installed editable: the package's code is {source}."""
__path__ = [{source!r}]
__file__ = {init!r}
exec(type(__loader__)(__name__, __file__).get_code(__name__))  # the real __init__, its bytecode cached
'''
SCRIPT_NAME = "opt-py"
SCRIPT = b"""#!python
import sys
from opt_py.tool.client import main
sys.exit(main())
"""


def get_requires_for_build_editable(config_settings=None):
    return _setuptools.get_requires_for_build_wheel(config_settings)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return _setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A wheel whose only code is the redirecting ``opt_py/__init__.py`` (see the module's docstring)."""
    if metadata_directory is None:
        metadata_directory = os.path.join(wheel_directory, ".metadata")
        os.makedirs(metadata_directory, exist_ok=True)
        dist_info = prepare_metadata_for_build_editable(metadata_directory, config_settings)
    else:
        dist_info = os.path.basename(metadata_directory.rstrip(os.sep))
        metadata_directory = os.path.dirname(metadata_directory.rstrip(os.sep))
    name_version = dist_info[: -len(".dist-info")]
    wheel_name = f"{name_version}-py3-none-any.whl"
    files = {
        f"{PACKAGE}/__init__.py": STUB.format(source=SOURCE, init=os.path.join(SOURCE, "__init__.py")).encode(),
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: opt-py build_backend\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n",
    }
    src = os.path.join(metadata_directory, dist_info)
    for name in sorted(os.listdir(src)):
        if name not in ("WHEEL", "RECORD") and os.path.isfile(os.path.join(src, name)):
            with open(os.path.join(src, name), "rb") as f:
                files[f"{dist_info}/{name}"] = f.read()
    # opt-py's own script instead of pip's console-script wrapper, whose first line imports re (~12 ms a run)
    entry_points = f"{dist_info}/entry_points.txt"
    if entry_points in files:
        files[entry_points] = _without_script(files.pop(entry_points).decode(), SCRIPT_NAME).encode()
        if not files[entry_points]:
            del files[entry_points]
    files[f"{name_version}.data/scripts/{SCRIPT_NAME}"] = SCRIPT
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (
                0o100755 if ".data/scripts/" in path else 0o100644
            ) << 16  # a regular file; x: a script
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
    return wheel_name


def _without_script(entry_points: str, name: str) -> str:
    """``entry_points.txt`` without the console script ``name`` (and without a section left empty)."""
    sections, current = {}, None
    for line in entry_points.splitlines():
        if line.startswith("["):
            current = sections.setdefault(line.strip(), [])
        elif line.strip() and current is not None and not (line.split("=")[0].strip() == name):
            current.append(line)
    return "".join(
        f"{head}\n" + "".join(f"{e}\n" for e in entries) + "\n" for head, entries in sections.items() if entries
    )


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

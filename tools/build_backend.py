"""The package's build backend: setuptools, with an editable install that costs no start-up.

The package's code lives in ``python/`` and imports as ``opt_py``. Setuptools
can build a wheel from that mapping, but its editable install (``pip install
-e .``) then registers an import hook, a finder module that every Python
start-up imports, with ``pathlib`` and ``re`` behind it: about 20 ms of every
``opt-py`` run, measured, against a warm run's total of about 40.

The editable wheel built here holds one file of code instead, the package's
``__init__.py`` in site-packages, which points the package's ``__path__`` at
``python/`` in this checkout and runs the real ``python/__init__.py``.
Nothing is imported at start-up; submodules, new files included, are found
in the checkout as they are. ``test/unit/test_layout.py`` fails if an import
hook or ``.pth`` entry comes back. Everything else is setuptools' own.
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
with open(__file__, encoding="utf-8") as _f:
    exec(compile(_f.read(), __file__, "exec"))
del _f
'''


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
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in files.items():
            whl.writestr(path, data)
    return wheel_name


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

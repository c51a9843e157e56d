"""An on-disk cache of compiled modules, so a program compiled once is loaded, not compiled, the next time.

A module is keyed by everything that changes its bytes: the program as handed
to IREE, the compile flags, the fixes injected (as the pipelines they stand
for) and the versions of opt-py (its version and a digest of its code, so an
edited checkout never serves a stale module) and of IREE's compiler and
runtime. Entries are files ``<key>.vmfb`` under one folder
(``$OPT_PY_CACHE_DIR``, else ``$XDG_CACHE_HOME/opt-py/modules``); each is
written to a temporary file and renamed into place, so another process sees
the whole file or none, and carries its payload's SHA-256, so a damaged file
is a miss (and removed), never a module. A hit touches the file; when the
folder outgrows its bound (``$OPT_PY_CACHE_MAX_BYTES``, 2 GiB by default) the
least recently used entries go. ``opt-py cache`` shows and clears it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass

MAGIC = b"opt-py module cache 1\n"
SUFFIX = ".vmfb"
DEFAULT_MAX_BYTES = 2 << 30
STALE_TEMP_SECONDS = 3600  # a temporary file this old belongs to a writer that died


def default_dir() -> str:
    """``$OPT_PY_CACHE_DIR``, else ``$XDG_CACHE_HOME/opt-py/modules`` (``~/.cache`` without XDG)."""
    explicit = os.environ.get("OPT_PY_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "opt-py", "modules")


def default_max_bytes() -> int:
    """``$OPT_PY_CACHE_MAX_BYTES`` (a number of bytes, or with a K, M or G suffix), else 2 GiB."""
    text = os.environ.get("OPT_PY_CACHE_MAX_BYTES", "").strip()
    return parse_size(text) if text else DEFAULT_MAX_BYTES


def parse_size(text: str) -> int:
    from ..errors import OptPyError

    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale > 1 else text
    if not digits.isdigit():
        raise OptPyError(f"cache size '{text}' is not a number of bytes (e.g. 500M, 2G)")
    return int(digits) * scale


@functools.cache
def versions() -> dict:
    """What besides the program and flags decides a module's bytes: opt-py and IREE."""
    from importlib import metadata

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "absent"

    return {
        "opt-py": version("opt-py"),
        "opt-py-code": code_digest(),
        "iree-base-compiler": version("iree-base-compiler"),
        "iree-base-runtime": version("iree-base-runtime"),
    }


def code_digest() -> str:
    """A digest of every Python file of the opt_py package: the fixes' code, whatever its version says."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)
            h.update(os.path.relpath(path, root).encode() + b"\0")
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def key(program: bytes, flags, fixes: tuple[str, ...]) -> str:
    """The cache key of ``program`` compiled with ``flags`` and the injections ``fixes`` stands for."""
    h = hashlib.sha256()
    h.update(json.dumps({"flags": list(flags), "fixes": list(fixes), "versions": versions()}).encode())
    h.update(b"\0")
    h.update(program)
    return h.hexdigest()


@dataclass
class Entry:
    key: str
    path: str
    size: int
    used: float  # last hit or write (the file's mtime)
    about: dict


class ModuleCache:
    """The cache folder: ``get`` and ``put`` modules by key, ``clear`` it, ``entries`` in it."""

    def __init__(self, directory: str | None = None, max_bytes: int | None = None):
        self.directory = directory or default_dir()
        self.max_bytes = default_max_bytes() if max_bytes is None else max_bytes

    def path(self, key: str) -> str:
        return os.path.join(self.directory, key + SUFFIX)

    def get(self, key: str) -> bytes | None:
        """The module stored under ``key``, or None; a damaged entry is removed and is a miss."""
        found = self.lookup(key)
        return found[0] if found else None

    def lookup(self, key: str) -> tuple[bytes, dict] | None:
        """(the module stored under ``key``, what was stored about it), or None, as ``get``."""
        path = self.path(key)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return None
        payload = _payload(data)
        if payload is None:
            _remove(path)
            return None
        try:
            os.utime(path)  # recently used: the last to be evicted
        except OSError:
            pass  # evicted meanwhile: the bytes read are still whole
        return payload, _about(data[: data.find(b"\n", len(MAGIC)) + 1])

    def put(self, key: str, module: bytes, about: dict | None = None) -> None:
        """Store ``module`` under ``key`` (atomically), then evict down to the bound. A cache that cannot be
        written only costs time: errors are swallowed."""
        header = json.dumps({"sha256": hashlib.sha256(module).hexdigest(), "size": len(module), **(about or {})})
        try:
            os.makedirs(self.directory, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=SUFFIX)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(MAGIC + header.encode() + b"\n" + module)
                os.replace(tmp, self.path(key))
            except BaseException:
                _remove(tmp)
                raise
        except OSError:
            return
        self.evict()

    def entries(self) -> list[Entry]:
        """The entries, least recently used first."""
        out = []
        try:
            names = os.listdir(self.directory)
        except OSError:
            return []
        for name in names:
            if not name.endswith(SUFFIX) or name.startswith("."):
                continue
            path = os.path.join(self.directory, name)
            try:
                st = os.stat(path)
                with open(path, "rb") as f:
                    head = f.read(len(MAGIC) + 4096)
            except OSError:
                continue
            out.append(Entry(name[: -len(SUFFIX)], path, st.st_size, st.st_mtime, _about(head)))
        return sorted(out, key=lambda e: e.used)

    def size(self) -> int:
        return sum(e.size for e in self.entries())

    def evict(self) -> list[str]:
        """Remove the least recently used entries until the folder is within its bound, and temporary
        files left by writers that died; the keys removed."""
        now = time.time()
        try:
            for name in os.listdir(self.directory):
                path = os.path.join(self.directory, name)
                if name.startswith(".tmp-") and now - _mtime(path, now) > STALE_TEMP_SECONDS:
                    _remove(path)
        except OSError:
            return []
        entries = self.entries()
        total = sum(e.size for e in entries)
        removed = []
        for e in entries:
            if total <= self.max_bytes:
                break
            _remove(e.path)
            total -= e.size
            removed.append(e.key)
        return removed

    def clear(self) -> int:
        """Remove every entry (and temporary file); how many entries there were."""
        entries = self.entries()
        for e in entries:
            _remove(e.path)
        try:
            for name in os.listdir(self.directory):
                if name.startswith(".tmp-"):
                    _remove(os.path.join(self.directory, name))
        except OSError:
            pass
        return len(entries)


def _payload(data: bytes) -> bytes | None:
    """The module in a cache file's bytes, or None when the file is not a whole entry."""
    if not data.startswith(MAGIC):
        return None
    end = data.find(b"\n", len(MAGIC))
    if end < 0:
        return None
    try:
        header = json.loads(data[len(MAGIC) : end])
    except ValueError:
        return None
    payload = data[end + 1 :]
    if len(payload) != header.get("size") or hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        return None
    return payload


def _about(head: bytes) -> dict:
    end = head.find(b"\n", len(MAGIC))
    try:
        return json.loads(head[len(MAGIC) : end]) if head.startswith(MAGIC) and end > 0 else {}
    except ValueError:
        return {}


def _mtime(path: str, default: float) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return default


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass

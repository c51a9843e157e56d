"""The on-disk cache of compiled modules (iree/module_cache.py) and its use by the PyTorch front doors (torch/build.py).

Hit and miss, every part of the key, damaged files, the size bound's
least-recently-used eviction, ``opt-py cache`` and concurrent processes
writing and reading one key are checked on plain bytes; a torch-dialect
program compiled once is then loaded from the cache by a second process, well
under a second. No torch needed.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from opt_py import OptPyError
from opt_py.iree import module_cache as mc

# a small torch-dialect program, as the front doors hand programs to build()
PROGRAM = """
func.func @main(%x: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %0 = torch.aten.relu %x : !torch.vtensor<[?,4],f32> -> !torch.vtensor<[?,4],f32>
  %1 = torch.aten.mul.Tensor %0, %x : !torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32> -> !torch.vtensor<[?,4],f32>
  return %1 : !torch.vtensor<[?,4],f32>
}
"""


def test_a_miss_then_a_hit(tmp_path):
    store = mc.ModuleCache(str(tmp_path))
    k = mc.key(b"program", ["--flag"], ("fix",))
    assert store.get(k) is None
    store.put(k, b"module bytes", {"what": "a test"})
    assert store.get(k) == b"module bytes"
    [entry] = store.entries()
    assert entry.key == k and entry.about["what"] == "a test" and entry.size > len(b"module bytes")


def test_everything_that_changes_the_module_changes_the_key(monkeypatch):
    base = mc.key(b"program", ["--a"], ("x",))
    assert base == mc.key(b"program", ["--a"], ("x",))
    assert base != mc.key(b"program2", ["--a"], ("x",))  # the program
    assert base != mc.key(b"program", ["--b"], ("x",))  # the flags
    assert base != mc.key(b"program", ["--a"], ("y",))  # the fixes injected
    assert base != mc.key(b"program", ["--a"], ())
    for part in ("opt-py", "opt-py-code", "iree-base-compiler", "iree-base-runtime"):
        changed = {**mc.versions(), part: "other"}
        monkeypatch.setattr(mc, "versions", lambda changed=changed: changed)
        assert mc.key(b"program", ["--a"], ("x",)) != base, part
        monkeypatch.undo()


def test_the_code_digest_follows_opt_pys_code(tmp_path, monkeypatch):
    """An edited checkout (same version number) never gets a module compiled by the old code."""
    pkg = tmp_path / "python"
    (pkg / "iree").mkdir(parents=True)
    (pkg / "iree" / "module_cache.py").write_text("# a\n")
    (pkg / "passes.py").write_text("x = 1\n")
    monkeypatch.setattr(mc, "__file__", str(pkg / "iree" / "module_cache.py"))
    before = mc.code_digest()
    (pkg / "passes.py").write_text("x = 2\n")
    assert mc.code_digest() != before


def test_a_damaged_entry_is_a_miss_and_is_removed(tmp_path):
    store = mc.ModuleCache(str(tmp_path))
    store.put("k1", b"x" * 1000)
    path = Path(store.path("k1"))
    path.write_bytes(path.read_bytes()[:-10])  # truncated
    assert store.get("k1") is None and not path.exists()
    store.put("k2", b"y" * 1000)
    data = bytearray(Path(store.path("k2")).read_bytes())
    data[-1] ^= 1  # one bit flipped
    Path(store.path("k2")).write_bytes(bytes(data))
    assert store.get("k2") is None
    Path(store.path("k3")).write_bytes(b"not a cache file")
    assert store.get("k3") is None


def test_the_least_recently_used_go_first_when_the_bound_is_passed(tmp_path):
    store = mc.ModuleCache(str(tmp_path), max_bytes=3500)
    for i, k in enumerate(["a", "b", "c"]):
        store.put(k, bytes(1000))
        os.utime(store.path(k), (1000 + i, 1000 + i))  # written in this order, a second apart
    assert store.get("a") is not None  # a hit makes "a" the most recently used
    store.put("d", bytes(1000))  # 4 entries of ~1.1 KB > 3500: the least recently used ("b") goes
    assert sorted(e.key for e in store.entries()) == ["a", "c", "d"]
    assert store.size() <= 3500


def test_a_module_larger_than_the_bound_is_not_kept(tmp_path):
    store = mc.ModuleCache(str(tmp_path), max_bytes=100)
    store.put("big", bytes(1000))
    assert store.get("big") is None and store.entries() == []


def test_stale_temporary_files_are_swept(tmp_path):
    store = mc.ModuleCache(str(tmp_path))
    stale, fresh = tmp_path / ".tmp-dead.vmfb", tmp_path / ".tmp-writing.vmfb"
    stale.write_bytes(b"x")
    fresh.write_bytes(b"x")
    os.utime(stale, (0, 0))
    store.evict()
    assert not stale.exists() and fresh.exists()


def test_the_cache_folder_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("OPT_PY_CACHE_DIR", str(tmp_path / "mine"))
    assert mc.default_dir() == str(tmp_path / "mine")
    monkeypatch.delenv("OPT_PY_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert mc.default_dir() == str(tmp_path / "xdg" / "opt-py" / "modules")
    monkeypatch.setenv("OPT_PY_CACHE_MAX_BYTES", "3M")
    assert mc.default_max_bytes() == 3 << 20
    monkeypatch.setenv("OPT_PY_CACHE_MAX_BYTES", "lots")
    with pytest.raises(OptPyError, match="not a number of bytes"):
        mc.default_max_bytes()


def test_opt_py_cache_lists_and_clears(tmp_path, capsys):
    from opt_py.tool.cli import main

    store = mc.ModuleCache(str(tmp_path))
    store.put("k" * 64, bytes(2048), {"what": "graph 0/0 (from model.py:3 (forward))", "target": "cpu"})
    assert main(["cache", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path}: 1 module(s)" in out and "graph 0/0" in out and "cpu" in out
    assert main(["cache", "--dir", str(tmp_path), "--clear"]) == 0
    assert "removed 1 module(s)" in capsys.readouterr().out
    assert store.entries() == []


WRITER = """
import sys
from opt_py.iree.module_cache import ModuleCache
store = ModuleCache(sys.argv[1])
payload = bytes([int(sys.argv[2])]) * (1 << 20)
for _ in range(60):
    store.put("shared", payload)
"""

READER = """
import os, sys, time
from opt_py.iree.module_cache import ModuleCache
store = ModuleCache(sys.argv[1])
seen = set()
end = time.time() + 30
while time.time() < end and not os.path.exists(sys.argv[2]):
    got = store.get("shared")
    if got is not None:
        assert len(got) == 1 << 20 and len(set(got)) == 1, "a torn read"
        seen.add(got[0])
print(sorted(seen))
"""


def test_concurrent_writers_and_a_reader_never_see_a_torn_module(tmp_path):
    """Two processes write different 1 MiB modules under one key 60 times each while a third reads:
    every read is one writer's whole module, and the key holds one of them at the end."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = tmp_path.parent / f"{tmp_path.name}.done"
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(tmp_path), str(done)], stdout=subprocess.PIPE, text=True, env=env
    )
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), str(b)], env=env) for b in (1, 2)]
    assert [w.wait(timeout=60) for w in writers] == [0, 0]
    done.write_text("")
    out, _ = reader.communicate(timeout=60)
    assert reader.returncode == 0, "the reader saw a torn module"
    assert set(json.loads(out)) <= {1, 2}
    final = mc.ModuleCache(str(tmp_path)).get("shared")
    assert final in (bytes([1]) * (1 << 20), bytes([2]) * (1 << 20))
    assert [n for n in os.listdir(tmp_path) if n.startswith(".tmp-")] == []


SECOND_PROCESS = """
import sys, time
start = time.perf_counter()
from opt_py.torch.build import build, mlir_program
from opt_py.torch.options import Options
built = build(mlir_program(sys.argv[1].encode(), ".mlir", sys.argv[1]), Options(cache_dir=sys.argv[2]), "a program")
print(built.cached, built.seconds, time.perf_counter() - start)
"""


def test_a_second_process_loads_the_module_from_the_cache(tmp_path):
    """The first build compiles (seconds); a second process gets the same module from the cache, the
    build itself well under a second (imports included: under two)."""
    from opt_py.torch.build import build, mlir_program
    from opt_py.torch.options import Options

    program = mlir_program(PROGRAM.encode(), ".mlir", PROGRAM)
    uncached = build(program, Options(cache_dir=str(tmp_path), cache=False), "a program")
    assert not uncached.cached and mc.ModuleCache(str(tmp_path)).entries() == []  # cache=False stores nothing
    first = build(program, Options(cache_dir=str(tmp_path)), "a program")
    assert not first.cached
    again = build(program, Options(cache_dir=str(tmp_path)), "a program")
    assert again.cached and again.vmfb == first.vmfb
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", SECOND_PROCESS, PROGRAM, str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    cached, seconds, total = out[0] == "True", float(out[1]), float(out[2])
    assert cached and seconds < 0.5 and total < 2.0, out
    stock = build(program, Options(cache_dir=str(tmp_path), fixes=False), "a program")
    assert not stock.cached and stock.key != first.key  # another fix set, another entry
    assert len(mc.ModuleCache(str(tmp_path)).entries()) == 2

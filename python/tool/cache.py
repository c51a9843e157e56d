"""``opt-py cache``: the compiled-module cache (``iree/module_cache.py``), shown or cleared."""

from __future__ import annotations


def cache_main(argv: list[str]) -> int:
    """``opt-py cache``: list the cache's entries, its folder and size; ``--clear`` empties it."""
    import argparse
    import time

    from ..iree.module_cache import ModuleCache

    p = argparse.ArgumentParser(prog="opt-py cache", description=cache_main.__doc__.split(":", 1)[1].strip())
    p.add_argument("--dir", default=None, help="the cache folder (default: $OPT_PY_CACHE_DIR or the XDG cache)")
    p.add_argument("--clear", action="store_true", help="remove every entry")
    args = p.parse_args(argv)
    cache = ModuleCache(args.dir)
    if args.clear:
        print(f"opt-py: removed {cache.clear()} module(s) from {cache.directory}")
        return 0
    entries = cache.entries()
    total = sum(e.size for e in entries)
    print(f"{cache.directory}: {len(entries)} module(s), {total / 2**20:.1f} MiB of {cache.max_bytes / 2**20:.0f} MiB")
    for e in reversed(entries):
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.used))
        what = e.about.get("what", "")
        print(f"  {e.key[:16]}  {e.size / 2**20:8.2f} MiB  {when}  {e.about.get('target', '')}  {what}")
    return 0

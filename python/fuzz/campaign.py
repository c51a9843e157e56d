"""A campaign: seeds handed to an engine, every result appended as it comes, failures reduced into buckets.

The driver alone writes the campaign's folder: ``campaign.json`` (what it
runs: kinds, target, sides, injections; a re-run must ask for the same),
``results.jsonl`` (one record per seed, appended when the seed finishes),
``reductions.jsonl`` (one per reduced failure) and ``buckets/`` (each bucket's
smallest reproducer). A re-run reads them and skips what is done, so a
campaign stops and resumes anywhere, and no seed is run twice by two workers:
the driver hands each out once. A failure is reduced when its first signature
(side, outcome, error family; for wrong numbers the op of the first wrong
output) has had fewer than ``reduce_per_signature`` reductions; after
reduction its bucket is its signature (for wrong numbers: and the ops left).

Engines: the local pool (threads, each with its own sandbox child; default),
or Dask ``distributed`` given a scheduler address (``local:N`` starts a
``LocalCluster`` of N one-thread workers here). Tasks are ``tasks.run_seed``
and ``tasks.run_reduce``: plain data in and out, so any worker that has opt-py
installed can run them.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor
from concurrent.futures import wait as wait_local
from dataclasses import dataclass
from pathlib import Path

from ..errors import OptPyError
from . import tasks
from .store import Paths, append_jsonl, bucket_key, bucket_name, failures, first_signature, read_jsonl

CONFIG_KEYS = ("kind", "target", "sides", "stock_inject", "plugins", "flags", "max_ops")


def open_campaign(root: Path, config: dict) -> Paths:
    """The campaign's folder, created with ``config``, or checked against the one it was started with."""
    paths = Paths(Path(root))
    mine = {k: config.get(k) for k in CONFIG_KEYS}
    if paths.config.is_file():
        theirs = json.loads(paths.config.read_text())
        differ = [k for k in CONFIG_KEYS if json.dumps(theirs.get(k)) != json.dumps(mine[k])]
        if differ:
            raise OptPyError(
                f"'{root}' holds a campaign with other settings ({', '.join(f'{k}: {theirs.get(k)!r}' for k in differ)});"
                " resume it with the same ones or use another --out"
            )
    else:
        paths.root.mkdir(parents=True, exist_ok=True)
        tmp = paths.config.with_suffix(".tmp")
        tmp.write_text(json.dumps(mine, indent=1) + "\n")
        os.replace(tmp, paths.config)
    return paths


# --------------------------------------------------------------------------
# Engines
# --------------------------------------------------------------------------


class LocalEngine:
    """A pool of threads, each driving its own sandbox child: ``jobs`` programs at once."""

    def __init__(self, jobs: int):
        self.pool = ThreadPoolExecutor(max_workers=max(1, jobs))
        self.workers = max(1, jobs)

    def submit(self, fn, *args):
        return self.pool.submit(fn, *args)

    def wait(self, futures, timeout=None):
        return wait_local(futures, timeout=timeout, return_when=FIRST_COMPLETED)[0]

    def close(self):
        self.pool.shutdown(wait=True, cancel_futures=True)


class DaskEngine:
    """Dask ``distributed``: ``local:N`` starts N one-thread workers here, else a scheduler's address."""

    def __init__(self, address: str):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise OptPyError("--engine dask needs Dask's distributed (pip install 'opt-py[cluster]')") from None
        self.cluster = None
        if address.startswith("local:"):
            n = int(address.split(":", 1)[1])
            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
            self.client = Client(self.cluster)
        else:
            self.client = Client(address)
        self.workers = max(1, sum(w.get("nthreads", 1) for w in self.client.scheduler_info()["workers"].values()))

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)

    def wait(self, futures, timeout=None):
        from distributed import wait

        return wait(list(futures), timeout=timeout, return_when="FIRST_COMPLETED").done

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def engine_for(name: str, jobs: int, address: str | None):
    if name == "dask":
        return DaskEngine(address or f"local:{jobs}")
    return LocalEngine(jobs)


# --------------------------------------------------------------------------
# The driver
# --------------------------------------------------------------------------


@dataclass
class Plan:
    seeds: range
    reduce: bool = True
    reduce_per_signature: int = 1
    reduce_tests: int = 60
    deadline: float | None = None  # time.time() after which no new seed starts


def run(paths: Paths, config: dict, plan: Plan, engine, log=None) -> dict:
    """Run the seeds not yet done and the reductions not yet made; return what this run did."""
    done = {r["seed"] for r in read_jsonl(paths.results)}
    results = {r["seed"]: r for r in read_jsonl(paths.results)}
    reduced = read_jsonl(paths.reductions)
    per_sig = Counter(r["first_signature"] for r in reduced)
    reduced_keys = {(r["seed"], r["side"]) for r in reduced}
    todo = [s for s in plan.seeds if s not in done]
    futures: dict = {}
    stats = Counter()
    t0 = time.time()
    in_flight = 2 * engine.workers

    def want_reduction(rec: dict) -> None:
        if not plan.reduce:
            return
        for side in failures(rec):
            sig = first_signature(rec, side)
            if (rec["seed"], side) in reduced_keys or per_sig[sig] >= plan.reduce_per_signature:
                continue
            per_sig[sig] += 1
            reduced_keys.add((rec["seed"], side))
            want = tasks.signature(rec["sides"][side])
            f = engine.submit(tasks.run_reduce, config, rec["seed"], rec.get("program"), side, want, plan.reduce_tests)
            futures[f] = ("reduce", rec["seed"], side, sig)

    for rec in results.values():  # a resumed campaign: failures whose reduction had not been made
        if failures(rec):
            want_reduction(rec)
    todo.reverse()
    try:
        while todo or futures:
            while todo and sum(1 for v in futures.values() if v[0] == "seed") < in_flight:
                if plan.deadline is not None and time.time() >= plan.deadline:
                    todo.clear()
                    break
                seed = todo.pop()
                futures[engine.submit(tasks.run_seed, config, seed)] = ("seed", seed)
            if not futures:
                break
            for f in engine.wait(list(futures)):
                what = futures.pop(f)
                try:
                    out = f.result()
                except Exception as e:  # noqa: BLE001 - a task that failed outside its sandbox is recorded, not fatal
                    out = {"error": f"{type(e).__name__}: {e}"}
                if what[0] == "seed":
                    out = {"seed": what[1], **out}
                    append_jsonl(paths.results, out)
                    stats["seeds"] += 1
                    _log(log, _seed_line(out, t0))
                    want_reduction(out)
                else:
                    out.setdefault("seed", what[1])
                    out.setdefault("side", what[2])
                    out["first_signature"] = what[3]
                    write_bucket(paths, out)
                    stats["reductions"] += 1
                    _log(log, _reduce_line(out))
    finally:
        engine.close()
    stats["seconds"] = round(time.time() - t0, 1)
    return dict(stats)


def _log(log, line: str) -> None:
    if log is not None:
        print(line, file=log, flush=True)


def _seed_line(rec: dict, t0: float) -> str:
    sides = ", ".join(f"{s} {o.get('outcome')}" for s, o in rec.get("sides", {}).items())
    extra = rec.get("invalid") or rec.get("error") or ""
    errors = [f"{s}: {o.get('error', '')[:100]}" for s, o in rec.get("sides", {}).items() if tasks.failing(o)]
    return (
        f"[{time.time() - t0:.0f} s] seed {rec['seed']} ({rec.get('kind', '?')}, {len(rec.get('ops', []))} ops): "
        + (sides or extra)
        + ("  " + "; ".join(errors) if errors else "")
    )


def _reduce_line(red: dict) -> str:
    if not red.get("reproduced"):
        return f"  reduce seed {red['seed']} {red['side']}: did not reproduce ({red.get('error', '')})"
    return (
        f"  reduced seed {red['seed']} {red['side']} ({red['signature']}): {red['from_ops']} -> {len(red['ops'])} ops "
        f"({', '.join(red['ops'])}) in {red['tests']} tests, bucket {bucket_name(bucket_key(red))}"
    )


def write_bucket(paths: Paths, red: dict) -> None:
    """Record the reduction and write its reproducer into its bucket's folder (kept when it is the smallest)."""
    from . import report

    files = red.pop("arrays", {})
    hunt = red.get("hunt") or {}
    hunt_files = hunt.pop("files", {}) if isinstance(hunt, dict) else {}
    if red.get("reproduced"):
        key = bucket_key(red)
        red["bucket"] = bucket_name(key)
        folder = paths.buckets / red["bucket"]
        previous = folder / "program.json"
        smaller = not previous.is_file() or len(json.loads(previous.read_text())["nodes"]) > len(red["ops"])
        if smaller:
            report.write_reproducer(folder, paths, red, files, hunt_files)
    append_jsonl(paths.reductions, red)

#!/usr/bin/env python3
"""Run every opt-py pass over other projects' MLIR test inputs and classify what happens.

Usage:  python tools/peer_sweep.py DIR [DIR ...] [--jobs 2] [--sample N] [--seed S]
                                  [--timeout 60] [--pass NAME ...] [--show CLASS ...]

Every ``*.mlir`` file under the given directories (an IREE or llvm-project
checkout's ``test`` folders) is split at ``// -----`` like ``--split-input-file``;
each chunk is parsed once per pass and the pass run on it alone, as
``opt-py -p PASS`` would. Each (chunk, pass) lands in one class:

  ok              parsed, the pass changed nothing
  rewritten       the pass's own patterns rewrote the IR, and it still verifies
  parse-error     the chunk does not parse (with ``--check-parse``, native
                  iree-opt is asked too; ``parse-error-opt-py-only`` when it parses there)
  pass-error      the pass failed with a diagnostic
  unlocated       ... a diagnostic with no file location (also a pass-error)
  traceback       a Python exception escaped opt-py
  crash           the worker process died (signal or abort)
  timeout         no answer within --timeout seconds
  invalid-output  the result fails the verifier
  changed-no-rewrite  the IR changed but no pattern of the pass applied
                  (e.g. dead-code elimination by the driver)

Chunks run in worker subprocesses (``--jobs``, each imports the bindings once
and reports before each pass), so a crash or a hang is contained and pinned
to its chunk and pass; the worker is restarted. The table goes to stdout;
``--show CLASS`` lists the (file:line, pass) of each case of that class.
Passes come from the registry, so new passes are swept automatically.
Exit status: 1 when any pass-error, unlocated, traceback, crash, timeout,
invalid-output or changed-no-rewrite occurred, else 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

BAD = (
    "pass-error",
    "unlocated",
    "traceback",
    "crash",
    "timeout",
    "invalid-output",
    "changed-no-rewrite",
    "parse-error-opt-py-only",
)
ORDER = (
    "ok",
    "rewritten",
    "parse-error",
    "parse-error-opt-py-only",
    "pass-error",
    "unlocated",
    "traceback",
    "crash",
    "timeout",
    "invalid-output",
    "changed-no-rewrite",
)


# --------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------


def chunks_of(path: Path):
    """(first line, text, allow_unregistered) per ``// -----`` chunk of a file."""
    from opt_py.tool.opt import split_chunks

    text = path.read_text(errors="replace")
    unregistered = "allow-unregistered-dialect" in "".join(line for line in text.splitlines() if "RUN:" in line)
    return [(first, chunk, unregistered) for first, chunk in split_chunks(text)]


def collect(dirs) -> list[dict]:
    tasks = []
    for d in dirs:
        for path in sorted(Path(d).rglob("*.mlir")):
            for first, chunk, unreg in chunks_of(path):
                if chunk.strip():
                    tasks.append({"file": str(path), "line": first, "text": chunk, "unreg": unreg})
    return tasks


# --------------------------------------------------------------------------
# The worker: one chunk, every pass
# --------------------------------------------------------------------------


def worker_main() -> None:
    from iree.compiler import ir
    from opt_py.pipeline.plan import plan_pipeline
    from opt_py.run.diagnostics import Collector
    from opt_py.run.engine import OptOptions, RunHooks, make_context, run_plan

    names = json.loads(sys.argv[sys.argv.index("--worker") + 1])
    out = sys.stdout

    def say(obj):
        out.write(json.dumps(obj) + "\n")
        out.flush()

    for line in sys.stdin:
        task = json.loads(line)
        opts = OptOptions(allow_unregistered_dialect=task["unreg"])
        ctx = make_context(opts)
        for name in names:
            say({"start": name})
            collector = Collector(ctx)
            res = {"pass": name}
            try:
                with ctx, ir.Location.unknown():
                    try:
                        module = ir.Module.parse(task["text"])
                    except ir.MLIRError:
                        res["class"] = "parse-error"
                        say(res)
                        continue
                    before = module.operation.get_asm()
                    hooks = RunHooks()
                    ok = run_plan(plan_pipeline(name), module.operation, opts, hooks, collector)
                    if not ok:
                        unlocated = any(d.file is None and d.severity == "error" for d in collector.diags)
                        res["class"] = "unlocated" if unlocated else "pass-error"
                        res["detail"] = "; ".join(d.message for d in collector.diags)[:300]
                    else:
                        rewrites = sum(hooks.stats.get(name, {}).values())
                        try:
                            module.operation.verify()
                            valid = True
                        except ir.MLIRError as e:
                            valid, res["detail"] = False, str(e)[:300]
                        after = module.operation.get_asm()
                        if not valid:
                            res["class"] = "invalid-output"
                        elif rewrites:
                            res["class"] = "rewritten"
                        elif after != before:
                            res["class"] = "changed-no-rewrite"
                        else:
                            res["class"] = "ok"
            except BaseException as e:  # noqa: BLE001 - a traceback is what we count
                res["class"] = "traceback"
                res["detail"] = f"{type(e).__name__}: {e}"[:300]
            finally:
                collector.detach()
            say(res)
        say({"done": True})


# --------------------------------------------------------------------------
# The driver
# --------------------------------------------------------------------------


class Worker:
    def __init__(self, names):
        self.names = names
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", json.dumps(self.names)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def stop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def run_all(tasks, names, jobs: int, timeout: float):
    """Results per task: {pass: (class, detail)}; workers restarted after a crash or hang."""
    results = [dict() for _ in tasks]
    pending = list(range(len(tasks)))[::-1]
    workers = [Worker(names) for _ in range(jobs)]
    busy: dict[int, dict] = {}  # worker index -> {"task", "pass", "deadline", "buf"}

    def feed(w_i):
        w = workers[w_i]
        if not pending:
            return
        t = pending.pop()
        if w.proc is None or w.proc.poll() is not None:
            w.start()
        w.proc.stdin.write(json.dumps(tasks[t]) + "\n")
        w.proc.stdin.flush()
        busy[w_i] = {"task": t, "pass": None, "deadline": time.monotonic() + timeout, "buf": ""}

    def fail_rest(w_i, cls, detail):
        b = busy.pop(w_i)
        r = results[b["task"]]
        for n in names:
            if n not in r:
                r[n] = (cls if n == b["pass"] else "skipped", detail)
        workers[w_i].stop()

    for i in range(jobs):
        feed(i)
    while busy:
        fds = {workers[i].proc.stdout.fileno(): i for i in busy}
        ready, _, _ = select.select(list(fds), [], [], 1.0)
        now = time.monotonic()
        for fd in ready:
            i = fds[fd]
            chunk = os.read(fd, 1 << 16)
            b = busy[i]
            if not chunk:
                rc = workers[i].proc.wait()
                fail_rest(i, "crash", f"worker exited {rc}")
                feed(i)
                continue
            b["buf"] += chunk.decode()
            *lines, b["buf"] = b["buf"].split("\n")
            for line in lines:
                msg = json.loads(line)
                if "start" in msg:
                    b["pass"], b["deadline"] = msg["start"], now + timeout
                elif "done" in msg:
                    busy.pop(i)
                    feed(i)
                else:
                    results[b["task"]][msg["pass"]] = (msg["class"], msg.get("detail", ""))
        for i in list(busy):
            if time.monotonic() > busy[i]["deadline"]:
                fail_rest(i, "timeout", f"no answer in {timeout} s")
                feed(i)
    for w in workers:
        if w.proc is not None:
            w.proc.stdin.close()
            w.proc.wait()
    # A task cut short by a crash has "skipped" passes: run those again alone.
    return results


def iree_opt_parses(text: str, unreg: bool) -> bool:
    from iree.compiler.tools.binaries import find_tool

    cmd = [find_tool("iree-opt"), "-"] + (["--allow-unregistered-dialect"] if unreg else [])
    try:
        return subprocess.run(cmd, input=text.encode(), capture_output=True, timeout=60).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def main(argv=None) -> int:
    if "--worker" in sys.argv:
        worker_main()
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sample", type=int, default=0, help="run on N chunks drawn at random (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per pass per chunk")
    ap.add_argument("--pass", dest="passes", action="append", default=None)
    ap.add_argument("--check-parse", action="store_true", help="ask native iree-opt about each parse error")
    ap.add_argument("--show", action="append", default=[], help="list the cases of this class")
    args = ap.parse_args(argv)

    from opt_py.pipeline.registry import python_passes

    names = args.passes or list(python_passes())
    tasks = collect(args.dirs)
    total_chunks = len(tasks)
    if args.sample and args.sample < len(tasks):
        tasks = random.Random(args.seed).sample(tasks, args.sample)
    t0 = time.monotonic()
    results = run_all(tasks, names, max(1, args.jobs), args.timeout)
    retried = [(t, n) for t, r in enumerate(results) for n, (c, _) in r.items() if c == "skipped"]
    for t, n in retried:  # passes a crash of another pass kept from running
        sub = run_all([tasks[t]], [n], 1, args.timeout)
        results[t][n] = sub[0][n]
    if args.check_parse:
        for t, r in enumerate(results):
            if any(c == "parse-error" for c, _ in r.values()) and iree_opt_parses(tasks[t]["text"], tasks[t]["unreg"]):
                for n, (c, d) in r.items():
                    if c == "parse-error":
                        r[n] = ("parse-error-opt-py-only", d)
    elapsed = time.monotonic() - t0

    table: dict[str, Counter] = defaultdict(Counter)
    cases = defaultdict(list)
    for t, r in enumerate(results):
        for n, (c, d) in r.items():
            table[n][c] += 1
            cases[c].append((f"{tasks[t]['file']}:{tasks[t]['line']}", n, d))
    cols = [c for c in ORDER if any(table[n][c] for n in names)]
    print(
        f"peer sweep: {len(tasks)} of {total_chunks} chunks"
        + (f" (random sample, seed {args.seed})" if len(tasks) < total_chunks else "")
        + f" x {len(names)} passes, {elapsed:.0f} s with {args.jobs} jobs"
    )
    width = max(len(n) for n in names + ["pass"])
    print(" ".join([f"{'pass':<{width}}"] + [f"{c:>{max(len(c), 5)}}" for c in cols]))
    for n in names + ["total"]:
        row = table[n] if n != "total" else sum(table.values(), Counter())
        print(" ".join([f"{n:<{width}}"] + [f"{row[c]:>{max(len(c), 5)}}" for c in cols]))
    for c in args.show:
        print(f"\n{c}:")
        for where, n, d in cases[c]:
            print(f"  {where}  {n}  {d}")
    return 1 if any(cases[c] for c in BAD) else 0


if __name__ == "__main__":
    sys.exit(main())

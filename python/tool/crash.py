"""A run that died of a crash signal, reported by its supervisor: where, why, and IREE's own account.

IREE runs in opt-py's process, so a bug in IREE's C++ (a division by zero,
a null dereference, an assertion's abort) kills the run. Its supervisor
(``client.py``: the cold client that forked it, or the client of a served
run) then calls ``report``:

1. The run's progress file (``run/progress.py``) says what it was doing:
   IREE's parse, phases, import or output; which of opt-py's pipelines, C++
   segments or Python passes. A Python pass that crashed is named as the
   culprit, with Python's stack; IREE is not blamed for it.
2. A crash in IREE's C++ is re-run once, in a fresh process dedicated to it
   (``rerun_main``), the same command with ``progress.diagnosis`` set: IREE's
   phases run one at a time with MLIR's crash reproducer on (global LLVM
   options: ``compiler_api.reproduce_crashes``), so the pass that crashes
   fails instead and IREE names it and the op it ran on, and writes a local
   reproducer (the IR before that pass, and the pass); opt-py's own C++
   segments are saved before they run, and the native ``iree-opt`` finds the
   pass in the saved one the same way.
3. ``iree-opt --run-reproducer`` on the reproducer crashes again, natively,
   and prints LLVM's stack dump: its top frames are IREE's stack.

The exit status is 128 + the signal: what a shell shows for iree-compile,
which dies of it. The supervisor itself did not crash, so it does not die of
the signal (no core dump of the wrong process). Nothing is written: ``-o``
is written only after success, and the re-run writes no output at all.
"""

from __future__ import annotations

import os
import re
import sys

NOT_RERUN = ("compare", "bundle")  # they run modules too: re-running them is not a compile's diagnosis
SIGNAL_WORDS = {
    4: "illegal instruction",
    5: "trace/breakpoint trap",
    6: "aborted",
    7: "bus error",
    8: "floating-point exception",
    11: "segmentation fault",
    31: "bad system call",
}
PROGRESS = "progress"  # the re-run's progress file in the crash directory
STACK_FRAMES = 8  # frames of IREE's stack shown; all of them are in the crash directory
PYTHON_FRAMES = 8
RERUN_MAIN = (
    "import marshal, sys; sys.path[:] = marshal.loads(bytes.fromhex(sys.argv[1])); "
    "from opt_py.tool.crash import rerun_main; rerun_main(sys.argv[2], sys.argv[3:])"
)
_FAILED_PASS = re.compile(
    r"Pipeline failed while executing \[?(?:.*, )?`(?P<cls>[^`]+)` on '(?P<op>[^']+)' operation(?:: (?P<sym>@[^\s:\]]+))?"
)
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # opt-py's own frames end a plugin's
_FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-fA-F]+ (.*)$", re.M)
_SIGNAL_FRAMES = ("PrintStackTrace", "RunSignalHandlers", "SignalHandler", "/libc.so", "libc.so.6+")


def report(signum: int, args: list[str], progress_path: str | None, progress_env: str) -> int:
    """Say how the run ``opt-py ARGS`` died of ``signum`` (diagnosing IREE's crashes); the exit status.
    ``progress_env``: the variable that names a run's progress file (``client.py``)."""
    from ..run import progress

    steps, python_stack = progress.read(progress_path) if progress_path else ([], "")
    steps = [s for s in steps if s[0] != progress.FAILED]
    lines = []
    if _in_a_pass_of_iree(steps):
        found = _diagnose(args, progress_env)
        if found.get("phase") and steps[-1][0] == "iree":  # the re-run found which phase
            steps = steps[:-1] + [("iree", f"phases {found['phase']} {found['phase']}")]
        lines = found["notes"]
    elif _culprit(steps) != "IREE" and python_stack:
        lines = _python_stack_notes(python_stack)
    if _culprit(steps) == "opt-py":
        lines.append("opt-py: note: no IREE pass and no Python pass was running: a bug of opt-py or of the bindings")
    print(headline(signum, steps), file=sys.stderr)
    for line in lines:
        print(line, file=sys.stderr)
    return 128 + signum


def signal_text(signum: int) -> str:
    """``SIGFPE: floating-point exception``."""
    import signal

    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    return f"{name}: {SIGNAL_WORDS.get(signum) or (signal.strsignal(signum) or 'unknown').lower()}"


def _in_a_pass_of_iree(steps) -> bool:
    """Whether the crash was in passes IREE ran (its phases) or opt-py did (C++ segments): a re-run
    with the crash reproducer on finds the pass."""
    kind, text = steps[-1] if steps else (None, "")
    return kind in ("cpp", "pipeline") or (kind == "iree" and text.startswith("phases "))


def _culprit(steps) -> str:
    kind = steps[-1][0] if steps else None
    if kind == "python":
        return f"Python pass '{steps[-1][1]}'"
    return "IREE" if kind in ("iree", "cpp", "pipeline") else "opt-py"


def headline(signum: int, steps) -> str:
    """``opt-py: error: WHO crashed (SIGNAL: words) WHERE``, from the innermost step outwards."""
    where = []
    for i, (kind, text) in enumerate(reversed(steps)):
        inner = steps[len(steps) - i] if i else None
        where.append(_where(kind, text, inner))
    return f"opt-py: error: {_culprit(steps)} crashed ({signal_text(signum)})" + "".join(" " + w for w in where if w)


def _where(kind: str, text: str, inner) -> str:
    if kind == "iree":
        what, _, rest = text.partition(" ")
        first, _, last = rest.partition(" ")
        return {
            "parse": "while parsing the input",
            "import": f"while taking the module back after phase '{rest}'",
            "output": "while writing the output",
            "phases": f"while compiling phase '{first}'"
            if first == last
            else f"while compiling phases '{first}' to '{last}'",
        }.get(what, f"in IREE's {text}")
    if kind == "cpp":
        return f"in C++ passes '{text}'"
    if kind == "pipeline":
        if inner is not None and inner[1] == text:
            return ""
        return f"{'of' if inner and inner[0] == 'cpp' else 'in'} pipeline '{text}'"
    if kind == "stop":
        return f"run by opt-py after phase '{text}'"
    return ""


# --------------------------------------------------------------------------
# IREE's account: the re-run, the reproducer, iree-opt's stack
# --------------------------------------------------------------------------


def _diagnose(args: list[str], progress_env: str) -> dict:
    """Re-run the crashed command with crash reproducers on: {'phase', 'notes'}."""
    import tempfile

    if args and args[0] in NOT_RERUN:
        return {"notes": [f"opt-py: note: 'opt-py {args[0]}' is not re-run to find the pass"]}
    directory = tempfile.mkdtemp(prefix="opt-py-crash-")
    if sys.stderr.isatty():
        print("opt-py: IREE crashed; re-running once to find the pass (Ctrl-C skips it)", file=sys.stderr, flush=True)
    try:
        rerun = _rerun(args, directory, progress_env)
    except KeyboardInterrupt:
        return {"notes": [f"opt-py: note: the re-run was interrupted; what it left is in {directory}"]}
    found = _failed_pass(directory, rerun)
    notes = _pass_notes(found, directory, rerun)
    if found.get("reproducer"):
        notes += _stack_notes(found["reproducer"], directory)
    return {"phase": found.get("phase"), "notes": notes}


def _rerun(args: list[str], directory: str, progress_env: str):
    """The command again in a fresh process, ``rerun_main``: its CompletedProcess (output kept in ``directory``)."""
    import marshal
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != progress_env}
    with _same_stdin() as stdin:
        done = subprocess.run(
            [sys.executable, "-c", RERUN_MAIN, marshal.dumps(sys.path).hex(), directory, *args],
            stdin=stdin,
            capture_output=True,
            env=env,
            check=False,
        )
    with open(os.path.join(directory, "rerun.txt"), "wb") as f:
        f.write(done.stderr)
    return done


def _same_stdin():
    """The run's standard input again from its start where it is a regular file; else nothing."""
    import contextlib
    import subprocess

    if _stdin_is_a_file():
        try:
            return open("/proc/self/fd/0", "rb")
        except OSError:
            pass
    return contextlib.nullcontext(subprocess.DEVNULL)


def _stdin_is_a_file() -> bool:
    import stat

    try:
        return stat.S_ISREG(os.fstat(0).st_mode)
    except OSError:
        return False


def rerun_main(directory: str, args: list[str]) -> None:
    """The entry of a crash re-run: ``opt-py ARGS`` with ``progress.diagnosis`` set, writing no output."""
    from ..run import progress
    from . import output
    from .cli import main

    path = os.path.join(directory, PROGRESS)
    open(path, "w").close()
    progress.attach(path)
    progress.diagnosis = directory
    output.write_output = _write_nothing  # the output is the crashed run's to write, and it wrote none
    rc = main(args)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(rc if isinstance(rc, int) else 1)


def _write_nothing(_target: str, _data: bytes) -> int:
    return 0


def _failed_pass(directory: str, rerun) -> dict:
    """What the re-run found: {'phase', 'cls', 'op', 'sym', 'pass', 'reproducer'} (those known).

    IREE's phases leave the reproducer themselves; a crash in one of opt-py's
    C++ segments leaves the segment, which ``iree-opt`` runs with the crash
    reproducer on."""
    from ..iree.compiler_api import REPRODUCER
    from ..run import progress
    from ..run.engine import SEGMENT_REPRODUCER

    steps, _ = progress.read(os.path.join(directory, PROGRESS))
    found = {"phase": next((text for kind, text in steps if kind == progress.FAILED), None)}
    reproducer = os.path.join(directory, REPRODUCER)
    told = rerun.stderr.decode(errors="replace")
    segment = os.path.join(directory, SEGMENT_REPRODUCER)
    if not os.path.exists(reproducer) and os.path.exists(segment):
        told = _iree_opt(
            [
                "--run-reproducer",
                segment,
                f"--mlir-pass-pipeline-crash-reproducer={reproducer}",
                "--mlir-pass-pipeline-local-reproducer",
                "--mlir-disable-threading",
                "--allow-unregistered-dialect",
            ]
        )[1]
    if os.path.exists(reproducer):
        found["reproducer"] = reproducer
        found["pass"] = _reproducer_pass(reproducer)
    match = _FAILED_PASS.search(told)
    if match:
        found.update(match.groupdict())
    return found


def _reproducer_pass(path: str) -> str | None:
    """The innermost pass of a reproducer's pipeline (a local reproducer has one)."""
    with open(path, errors="replace") as f:
        match = re.search(r'pipeline: "(.*)"', f.read()[-20000:])
    if not match:
        return None
    pipeline = re.sub(r"\{[^{}]*\}", "", match.group(1))
    names = re.findall(r"([\w.-]+)(?=[,)]|$)", pipeline)
    return names[-1] if names else None


def _pass_notes(found: dict, directory: str, rerun) -> list[str]:
    if not found.get("cls") and not found.get("pass"):
        how = f"died of signal {-rerun.returncode}" if rerun.returncode < 0 else f"exited {rerun.returncode}"
        why = (
            "the crash may depend on threads or timing"
            if _stdin_is_a_file()
            else "standard input, where the run read it, could not be given to it again"
        )
        return [f"opt-py: note: the re-run {how} and IREE named no pass (its messages: {directory}/rerun.txt); {why}"]
    name = f"'{found['pass']}'" if found.get("pass") else f"'{found['cls']}'"
    if found.get("pass") and found.get("cls"):
        name += f" ({found['cls']})"
    on = f" on '{found['op']}'" + (f" {found['sym']}" if found.get("sym") else "") if found.get("op") else ""
    notes = [f"opt-py: note: the pass: {name}{on}"]
    if found.get("reproducer"):
        notes.append(
            f"opt-py: note: its reproducer (the IR before it, and the pass): {found['reproducer']} "
            "(iree-opt --run-reproducer FILE crashes the same way)"
        )
    return notes


def _iree_opt(args: list[str]) -> tuple[int, str]:
    """(exit status, stderr) of the native iree-opt, or (None, why not)."""
    import subprocess

    try:
        from iree.compiler.tools.binaries import find_tool

        done = subprocess.run(
            [find_tool("iree-opt"), *args], stdin=subprocess.DEVNULL, capture_output=True, timeout=600, check=False
        )
    except Exception as e:  # noqa: BLE001 - no iree-opt, or it hangs: the report goes on without it
        return None, f"{type(e).__name__}: {e}"
    return done.returncode, done.stderr.decode(errors="replace")


def _stack_notes(reproducer: str, directory: str) -> list[str]:
    """IREE's stack, from the native iree-opt crashing on the reproducer: the top frames, trimmed."""
    rc, told = _iree_opt(["--run-reproducer", reproducer, "-o", os.devnull])
    stack_file = os.path.join(directory, "stack.txt")
    with open(stack_file, "w") as f:
        f.write(told)
    frames = top_frames(told)
    if not frames:
        return [f"opt-py: note: iree-opt on the reproducer gave no stack (exit {rc}): {stack_file}"]
    return [f"opt-py: note: IREE's stack (innermost first; all of it in {stack_file}):", *frames]


def top_frames(dump: str, limit: int = STACK_FRAMES) -> list[str]:
    """LLVM's stack dump as lines ``    #N function file``: the signal handler's frames left out,
    from the crash up to the pass's ``runOnOperation`` (the pass frame kept when there are more)."""
    frames = [(n, _short(fn)) for n, fn in _FRAME.findall(dump)]
    while frames and any(s in frames[0][1] for s in _SIGNAL_FRAMES):
        frames.pop(0)
    end = next((i for i, (_, fn) in enumerate(frames) if "::runOnOperation()" in fn), len(frames) - 1)
    shown = frames[: end + 1]
    if len(shown) > limit:
        shown = shown[: limit - 1] + [("", "..."), shown[-1]]
    return [f"    #{n} {fn}" if n else f"    {fn}" for n, fn in shown]


def _short(fn: str, width: int = 160) -> str:
    fn = re.sub(r":\d+:\d+$", "", fn.strip())
    return fn if len(fn) <= width else fn[: width - 3] + "..."


def _python_stack_notes(stack: str) -> list[str]:
    """The crashing thread's Python frames from faulthandler's report, innermost first."""
    block = stack.split("Current thread", 1)[-1].splitlines()[1:]
    frames = []
    for line in block:
        if not line.strip().startswith("File "):
            break
        frames.append("    " + line.strip())
    if not frames:
        return []
    ours = next((i for i, f in enumerate(frames) if f'"{_PACKAGE_DIR}{os.sep}' in f), len(frames))
    end = ours if 0 < ours < PYTHON_FRAMES else PYTHON_FRAMES  # a plugin's frames, up to opt-py's own
    more = ["    ..."] if len(frames) > end else []
    return ["opt-py: note: Python's stack (innermost first):", *frames[:end], *more]

"""What a failed IREE tool run says, read the same way wherever opt-py classifies one.

Shared by the peers' sweep (``opt_py.peers.suites``) and ``opt-py fuzz``
(``fuzz/``): the signal a process died of (a negative status, a shell's
128+N, LLVM's 256-N), the crash site and pass from LLVM's stack dump, the
first error line of a tool's output, the exception closing a Python
traceback, and ``family``: an error normalised so that the same failure on
other shapes, names and locations groups together (one bug, one bucket).
"""

from __future__ import annotations

import re
import signal


def signal_of(rc: int, stderr: str) -> int | None:
    """The signal a process died of: a negative status, a shell-style 128+N, or LLVM's crash exit (256-N)."""
    if rc < 0:
        return -rc
    dumped = "Stack dump:" in stderr or "crash backtrace" in stderr
    if 128 < rc < 160 and (dumped or rc - 128 in (4, 6, 7, 8, 11)):
        return rc - 128
    if 224 < rc < 256 and dumped:
        return 256 - rc
    return None


def signal_name(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


_FRAME = re.compile(r"^\s*#\d+\s+0x[0-9a-f]+\s+(.*\S)\s+\S+\.\w+:\d+:\d+\s*$")
_PASS_FRAME = re.compile(r"(\w+)::runOnOperation\(\)")


def _function(frame: str) -> str:
    """``ns::Class::method`` of a demangled frame, anonymous namespaces, return type and arguments dropped;
    for a lambda called through ``llvm::function_ref``, the function that holds the lambda."""
    frame = frame.replace("(anonymous namespace)::", "")
    if callback := re.search(r"function_ref<.*?>::callback_fn<([\w:]+)", frame):
        return callback.group(1)
    return re.split(
        r"\(", re.sub(r"^(?:void|bool|int|unsigned|long|(?:llvm|mlir)::LogicalResult) ", "", frame), maxsplit=1
    )[0]


def crash_site(stderr: str) -> str:
    """``FRAME (pass PASS)`` from an LLVM stack dump: the first frame past the signal handler, the pass running."""
    frames = [_function(m.group(1)) for line in stderr.splitlines() if (m := _FRAME.match(line))]
    past = [f for f in frames if f and not re.search(r"llvm::sys::|SignalHandler", f)]
    where = past[0] if past else ""
    passes = [m.group(1) for line in stderr.splitlines() if (m := _PASS_FRAME.search(line))]
    if passes:
        where += f" (pass {passes[0]})" if where else f"pass {passes[0]}"
    return where


_ERROR_LINE = re.compile(r"(^|: )error: |^Error: |^opt-py: error: |INVALID_ARGUMENT|FAILED_PRECONDITION|UNIMPLEMENTED")


def first_error(text: str) -> str:
    """The first error line of a tool's output (IREE's diagnostics print their location first)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if _ERROR_LINE.search(line) and not line.startswith("opt-py: note:"):  # a note may quote an error
            more = [n.strip() for n in lines[i + 1 : i + 2] if line.rstrip().endswith(":") and n.strip()]
            return " ".join([line.strip(), *more])  # "...: Error parsing flags:" is followed by the flag
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def traceback_of(text: str) -> str:
    """The exception line closing a Python traceback in the output, or ''."""
    if "Traceback (most recent call last)" not in text:
        return ""
    after = text.split("Traceback (most recent call last)")[-1].splitlines()
    ends = [line for line in after if re.match(r"^[\w.]+(Error|Exception|Interrupt|Exit)\b", line)]
    return (ends[-1] if ends else after[-1]).strip()


# --------------------------------------------------------------------------
# Failure families
# --------------------------------------------------------------------------

_LOCATION = re.compile(r"^(?:[^\s:]+:\d+:\d+|<unknown>:\d+(?::\d+)?|loc\([^)]*\)):\s*")
_OPERATOR = re.compile(r'name = "((?:onnx|torch)\.[\w.]+)"|torch\.operator "((?:onnx|torch)\.[\w.]+)"')
_TYPE = re.compile(r"(!torch\.\w+|tensor|memref|vector)<[^<>]*(?:<[^<>]*>[^<>]*)*>")


def family(error: str) -> str:
    """An error normalised so that the same failure on other shapes groups together.

    Kept: the message, quoted op names, the op a ``torch.operator`` stands
    for, the crash site and pass. Dropped: locations, the printed op after the
    message, the file and function of a failed check, SSA names, types, numbers.
    """
    text = re.sub(r"^opt-py check: error: \S+: compilation failed: ", "", error.strip())
    text = _LOCATION.sub("", text)
    text = re.sub(r"^FAIL\s+\S+\s+@\S+\s*", "check failed: ", text)  # opt-py check: the file and function
    text = re.sub(r"^(?:opt-py: )?error:\s*", "", text)
    operator = _OPERATOR.search(error)
    text = re.split(r":\s+(?=%|\"|\w+\.\w+\"?\()", text, maxsplit=1)[0]
    text = _TYPE.sub(r"\1<...>", text)
    text = re.sub(r"%[\w#]+", "%", text)
    text = re.sub(r"(?<![\w.])\d+(\.\d+)?(e[+-]?\d+)?(?![\w])", "N", text)
    text = re.sub(r"0x[0-9a-f]+", "0x.", text)
    if operator:
        text += f" [{operator.group(1) or operator.group(2)}]"
    return text.strip()

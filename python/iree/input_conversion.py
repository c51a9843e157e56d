"""Python passes inside IREE's frontend lowering of torch and ONNX programs (``--inject-input``).

IREE's input phase lowers a torch program with one pipeline, ``torch-to-iree``
(compiler/plugins/input/Torch/InputConversion/Passes.cpp; an ONNX program runs
``torch-onnx-to-torch-backend-pipeline`` first), run by its auto-detecting
input pass, then its common input passes. Both frontend pipelines are
registered textually and print back, every option included (the list of ops
kept for the backend), as the text they parse from. So a point inside them
needs no stop inside IREE: opt-py runs that text itself on the module as
parsed, pass by pass, with the injected pipelines at their points, and the
session's input type is ``none``: IREE's input phase then runs only its common
passes, as after its own frontend lowering. A fix placed after IREE's own
canonicalizations survives them. Nothing injected gives stock's module after
the input phase, text for text (test/unit/test_input_conversion.py). Refused,
naming why: a program IREE would not lower as torch or ONNX, and a frontend
whose expansion does not print back to itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import CompileError
from ..syntax import split_top_level
from . import points
from .points import PointInjection

INPUT_TYPE_FLAG = "--iree-input-type"
OPT_PY_INPUT_TYPES = ("auto", "torch", "onnx")  # the values whose frontend opt-py runs itself
_TORCH_FLAGS = {  # iree-compile's torch input flags -> torch-to-iree's options (both default true)
    "--iree-torch-use-strict-symbolic-shapes": "strict-symbolic-shapes",
    "--iree-torch-decompose-complex-ops": "decompose",
}


class InputInjection(PointInjection):
    """A point among the passes of a torch or ONNX program's frontend lowering."""

    FLAG = "--inject-input"
    ops: frozenset[str] | None = None  # an opt-py fix: runs only where one of these ops is in the module as parsed


@dataclass(frozen=True)
class Frontend:
    """The frontend lowering IREE runs on a program: its kind and its passes, each as a pipeline element."""

    kind: str  # "torch" or "onnx"
    elements: tuple[str, ...]  # e.g. "func.func(canonicalize{...})", "symbol-dce"

    def names(self) -> list[str]:
        return [element_pass_name(e) for e in self.elements]

    def listing(self) -> str:
        lines = [f"frontend lowering of this {self.kind} program ({len(self.elements)} passes):"]
        lines += [f"  {i:3d}  {e}" for i, e in enumerate(self.elements)]
        return "\n".join(lines)


def element_pass_name(element: str) -> str:
    """The pass an element runs: ``func.func(canonicalize{...})`` -> ``canonicalize``."""
    while True:
        head = element.split("{", 1)[0]
        if "(" not in head:
            return head.strip()
        element = element[element.index("(") + 1 : element.rindex(")")]


def input_type(iree_flags) -> str:
    """The value of ``--iree-input-type`` (``auto`` when absent; the last one wins, as in iree-compile)."""
    value = "auto"
    for flag in iree_flags:
        name, eq, v = flag.partition("=")
        if name == INPUT_TYPE_FLAG and eq:
            value = v
    return value


def detect(module) -> str | None:
    """What IREE's torch plugin detects (PluginRegistration.cpp): ``onnx`` when a ``func.func`` has
    ``torch.onnx_meta.opset_version``, ``torch`` when any op is of the torch dialects, else None."""
    from iree.compiler import ir

    body = module.regions[0].blocks[0]
    if any(op.operation.name == "func.func" and "torch.onnx_meta.opset_version" in op.attributes for op in body):
        return "onnx"
    found = []

    def visit(op):
        if op.name.split(".", 1)[0] in ("torch", "torch_c"):
            found.append(op.name)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return "torch" if found else None


def frontend(module, iree_flags) -> Frontend:
    """The frontend lowering IREE would run on ``module`` for these flags, or a refusal naming why."""
    chosen = input_type(iree_flags)
    if chosen not in OPT_PY_INPUT_TYPES:
        raise CompileError(
            f"--inject-input: {INPUT_TYPE_FLAG}={chosen} has no frontend lowering opt-py runs "
            f"(it runs {', '.join(OPT_PY_INPUT_TYPES)})"
        )
    kind = detect(module) if chosen == "auto" else chosen
    if kind is None:
        raise CompileError(
            "--inject-input: this program is neither torch nor ONNX, so IREE runs no frontend lowering on it "
            "(inject at a phase instead: --inject start:PIPELINE for the module as parsed)"
        )
    torch_to_iree = _expand(f"torch-to-iree{{{_torch_options(iree_flags)}}}")
    elements = torch_to_iree
    if kind == "onnx":
        legal = _option_value(torch_to_iree, "torch-decompose-complex-ops", "legal-ops")
        decompose = (
            "true" if any(element_pass_name(e) == "torch-decompose-complex-ops" for e in torch_to_iree) else "false"
        )
        onnx = f"torch-onnx-to-torch-backend-pipeline{{backend-legal-ops={legal} decompose-complex-ops={decompose}}}"
        elements = _expand(onnx) + torch_to_iree
    return Frontend(kind, tuple(elements))


def run_frontend(fe: Frontend, injections: list[InputInjection], module, run_pipeline, report) -> None:
    """Run ``fe`` on ``module`` with each injection's pipeline at its points; a failure raises.

    ``run_pipeline(text, module) -> bool`` runs a pipeline (IREE's passes or opt-py's);
    ``report(line)`` takes a warning.
    """
    names = fe.names()
    at: dict[int, list[InputInjection]] = {}
    for inj in injections:
        splices = points.split_points(names, inj)
        if not splices:
            report(
                f"opt-py: warning: the frontend lowering of this {fe.kind} program has no "
                f"{inj.where}:{inj.pass_name}#{inj.occurrence or '*'}; see --list-input-passes"
            )
        for k in splices:
            at.setdefault(k, []).append(inj)
    start = 0
    for k in sorted(at) + [len(names)]:
        if k > start:
            piece = f"builtin.module({','.join(fe.elements[start:k])})"
            if not run_pipeline(piece, module):
                raise CompileError(f"IREE's {fe.kind} frontend lowering failed (passes {start}-{k - 1})")
        for inj in at.get(k, ()):
            if not run_pipeline(inj.pipeline, module):
                raise CompileError(
                    f"injected pipeline '{inj.pipeline}' failed at {points.point_name(names, k)} of the frontend"
                )
        start = k


FINALIZING_PASS = "torch-finalizing-backend-type-conversion"  # fails on whatever torch op the lowering left


def left_unconverted(text: str, iree_flags) -> list[str]:
    """The torch ops IREE's frontend lowering leaves in ``text`` (sorted; a ``torch.operator`` by the op it
    stands for): the frontend run up to its finalizing type conversion, and what is still a torch op then.

    That conversion names the first illegal op it meets, often a constant the unconverted op reads
    (``'torch.constant.bool'``), so one missing lowering shows as many messages. Empty where the frontend
    fails before that pass, or the program has no torch frontend."""
    from iree.compiler import ir, passmanager

    from ..run.bindings import new_context

    with new_context():
        module = ir.Module.parse(text)
        try:
            fe = frontend(module.operation, iree_flags)
        except CompileError:
            return []
        names = fe.names()
        if FINALIZING_PASS not in names:
            return []
        before = ",".join(fe.elements[: names.index(FINALIZING_PASS)])
        try:
            passmanager.PassManager.parse(f"builtin.module({before})").run(module.operation)
        except ir.MLIRError:
            return []
        found: set[str] = set()

        def visit(op):
            name = op.name
            if name == "torch.operator":
                name = ir.StringAttr(op.attributes["name"]).value
            if name.startswith(("torch.aten.", "torch.prims.", "onnx.")):
                found.add(name)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return sorted(found)


def session_flags(iree_flags) -> list[str]:
    """The flags IREE compiles with once opt-py has run the frontend: the same, input type ``none``."""
    return [f for f in iree_flags if f.partition("=")[0] != INPUT_TYPE_FLAG] + [f"{INPUT_TYPE_FLAG}=none"]


def guarded(injections, iree_flags) -> bool:
    """Whether opt-py may leave the frontend to IREE where none of ``injections`` has work: each is an
    opt-py fix guarded by ops, and the input type is ``auto``. Then IREE's session keeps the flags as
    given: where the guard fails, IREE lowers the program itself (stock's compile, byte for byte); where it
    holds, opt-py lowers it and IREE's auto-detection finds no torch op left, so it runs only its common
    input passes, as with input type ``none``."""
    return bool(injections) and all(x.ops is not None for x in injections) and input_type(iree_flags) == "auto"


def _torch_options(iree_flags) -> str:
    values = dict.fromkeys(_TORCH_FLAGS.values(), "true")
    for flag in iree_flags:
        name, eq, v = flag.partition("=")
        if name in _TORCH_FLAGS:
            values[_TORCH_FLAGS[name]] = _bool_text(v) if eq else "true"
    return " ".join(f"{k}={v}" for k, v in values.items())


def _bool_text(value: str) -> str:
    low = value.lower()
    if low in ("1", "true", "on", "yes"):
        return "true"
    if low in ("0", "false", "off", "no"):
        return "false"
    raise CompileError(f"expected a boolean, got '{value}'")


def _expand(pipeline: str) -> list[str]:
    """A registered pipeline expanded into its top-level elements, checked to print back to itself."""
    from iree.compiler import passmanager

    text = str(passmanager.PassManager.parse(f"builtin.module({pipeline})"))
    if str(passmanager.PassManager.parse(text)) != text:
        raise CompileError(f"--inject-input: '{pipeline}' does not print back to itself, so it cannot be split")
    inner = text[len("builtin.module(") : -1]
    elements, balanced = split_top_level(inner, lambda c: c == ",")
    if not balanced:
        raise CompileError(f"--inject-input: cannot split the expansion of '{pipeline}'")
    return elements


def _option_value(elements: list[str], pass_name: str, option: str) -> str:
    """The ``{...}`` value of ``option`` in the first element running ``pass_name`` (empty when absent)."""
    for e in elements:
        if element_pass_name(e) == pass_name:
            key = f"{option}="
            if key in e:
                rest = e[e.index(key) + len(key) :]
                if rest.startswith("{"):
                    return rest[: rest.index("}") + 1]
                return rest.split()[0].rstrip("})")
    return "{}"

"""opt-py's const-eval against IREE's on the real-model corpora (test/models, test/library_models): the same
module, byte for byte, per model (``compare``). tools/check_const_eval.py is the command and says how;
test/unit/test_const_eval.py runs it on every model as a slow test.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout
CORPORA = (ROOT / "test" / "models", ROOT / "test" / "library_models")
TARGETS = {
    "cpu": ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"],
    "cuda": ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"],
}


@dataclass
class Verdict:
    model: str
    compiled: bool  # --fixes with IREE's const-eval compiled
    identical: bool  # opt-py's const-eval gave IREE's module (with nothing injected inside, where a fix rewrote)
    evaluated: int = 0  # initializers opt-py evaluated
    inside: list = field(default_factory=list)  # fixes that rewrote inside the nested compile
    notes: list = field(default_factory=list)  # initializers left to run time, and failures
    seconds: tuple = (0.0, 0.0)  # wall: with IREE's const-eval, with opt-py's
    undefined: list = field(default_factory=list)  # differing globals whose initializer leaves bytes unwritten

    def faithful(self) -> bool:
        """Identical, or different only in globals whose bytes IREE's own result takes from whatever memory
        its runtime reused (so no evaluation can reproduce them)."""
        return self.identical or (bool(self.undefined) and self.notes[-1].startswith("only in bytes never"))


def compare(path: Path, flags: list[str]) -> Verdict:
    """``opt-py compile --fixes`` of ``path`` with IREE's const-eval and with opt-py's, compared."""
    from opt_py.iree import const_eval, fixes
    from opt_py.iree.phases import compile_with_injections
    from opt_py.run.bindings import import_bindings_lean

    import_bindings_lean()
    chosen = fixes.select("all")
    phase, codegen = fixes.injections(chosen, flags)
    t = time.perf_counter()
    iree = compile_with_injections(str(path), flags, phase, codegen_injections=codegen)
    took = time.perf_counter() - t
    name = path.parent.name
    if not iree.ok:
        return Verdict(name, False, False, notes=iree.messages[-1:])
    ours, flags_ours, _ = fixes.const_eval_takeover(chosen, flags)
    t = time.perf_counter()
    result = compile_with_injections(str(path), flags_ours, phase, codegen_injections=codegen, const_eval=ours)
    took_ours = time.perf_counter() - t
    inside = sorted({r.pass_name for r in ours.rewrites})
    notes = [m for m in result.messages if "const-eval" in m]
    if not result.ok:
        return Verdict(name, True, False, len(ours.evaluated), inside, notes, (took, took_ours))
    identical = result.output == iree.output
    if inside:  # the fixes changed the constants: the machinery itself must still give IREE's module
        bare = const_eval.ConstEval(ours.flags)
        plain = compile_with_injections(str(path), flags_ours, phase, codegen_injections=codegen, const_eval=bare)
        identical = plain.ok and plain.output == iree.output
    undefined = []
    if not identical:
        differing = differing_globals(path, flags)
        undefined = [g for g in differing if partly_written(path, flags, g)]
        notes.append(f"differs in: {', '.join(differing) or 'more than the globals'}")
        if differing and undefined == differing:
            notes.append("only in bytes never written: each of those initializers fills part of a tensor.empty")
    return Verdict(name, True, identical, len(ours.evaluated), inside, notes, (took, took_ours), undefined)


def partly_written(path: Path, flags: list[str], name: str) -> bool:
    """Whether the initializer storing @name (global-optimization's IR, const-eval off) builds its value by
    inserting static slices into a ``tensor.empty`` that together cover less than all of it: the bytes
    left are undefined, and const-eval returns whatever the runtime's allocator had there."""
    import re

    from opt_py.iree import fixes
    from opt_py.iree.phases import compile_with_injections

    to = "global-optimization"
    phase, _ = fixes.injections(fixes.select("all"), flags, to)
    off = [*flags, "--iree-opt-const-eval=false"]
    text = compile_with_injections(str(path), off, phase, compile_to=to).output.decode()
    found = re.search(rf"util\.global\.store (%[\w.]+), @{re.escape(name)} : tensor<([\dx]+)x\w+>", text)
    if not found:
        return False
    init = text[text.rfind("util.initializer", 0, found.start()) : found.start()]
    value, numel, covered = found.group(1), 1, 0
    for dim in found.group(2).split("x"):
        numel *= int(dim)
    while True:
        insert = re.search(
            rf"{re.escape(value)} = tensor\.insert_slice %[\w.]+ into (%[\w.]+)\[[^]]*\] \[([\d, ]+)\]", init
        )
        if insert is None:
            break
        size = 1
        for d in insert.group(2).split(","):
            size *= int(d)
        covered, value = covered + size, insert.group(1)
    return covered < numel and re.search(rf"{re.escape(value)} = tensor\.empty\(\)", init) is not None


def differing_globals(path: Path, flags: list[str]) -> list[str]:
    """The globals whose initial values differ after global-optimization (IREE's const-eval against opt-py's,
    with nothing injected inside); none when anything else differs too."""
    from opt_py.iree import fixes
    from opt_py.iree.phases import compile_with_injections

    to = "dispatch-creation"
    phase, _ = fixes.injections(fixes.select("all"), flags, to)
    ours, flags_ours, _ = fixes.const_eval_takeover([], flags)
    texts = [
        compile_with_injections(str(path), f, phase, compile_to=to, const_eval=step).output.decode()
        for f, step in ((flags, None), (flags_ours, ours))
    ]
    split = [text.splitlines() for text in texts]
    if len(split[0]) != len(split[1]):
        return []
    names = []
    for a, b in zip(*split):
        if a != b:
            if not a.lstrip().startswith("util.global private @"):
                return []
            names.append(a.split("@", 1)[1].split(" ", 1)[0])
    return names


def models(names: str) -> list[Path]:
    found = sorted(p for corpus in CORPORA for p in corpus.glob("*/model.mlir"))
    wanted = [n for n in names.split(",") if n]
    return [p for p in found if not wanted or p.parent.name in wanted]

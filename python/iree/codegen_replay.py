"""The rest of a dispatch function's codegen pipeline, replayed faithfully after an injection point, or refused.

The passes after the point are replayed from the text IREE's dumps recorded,
the injected pipelines spliced in. Text is not always enough: some passes
get C++ state from IREE's pipeline builders (``CPP_STATE``: the
bufferization's allocation and copy functions) and some have no textual
registration. A run of passes that is exactly the expansion of a pipeline
IREE registers from its own builder (``REGISTERED_BLOCKS``, compared text for
text at run time) runs as that pipeline, C++ state included; any other pass
must rebuild from its text alone, or the point is refused with an error
naming the pass (``UNFAITHFUL_MARK``). docs/reference/codegen-injection.md says why, from IREE's
sources, and which points that refuses.
"""

from __future__ import annotations

from ..errors import CodegenError
from ..syntax import value_end
from .codegen_lowering import FunctionLowering, pass_name, point_text

UNFAITHFUL_MARK = "cannot be replayed faithfully"
EMPTY_PIPELINE = '#iree_codegen.pass_pipeline<"">'

# Registered pipelines that IREE's own pipeline builders expand, with the C++
# state (allocation and copy functions) their textual expansion does not show.
# Source: compiler/src/iree/compiler/Codegen/LLVMCPU/Passes.cpp (every CPU
# pipeline calls addCPUBufferizePasses, registered as the first) and
# LLVMGPU/Passes.cpp (addBufferizePasses, registered as the second).
REGISTERED_BLOCKS = (
    "iree-codegen-llvmcpu-bufferization-pipeline",
    "iree-codegen-llvmgpu-bufferization-pipeline",
)

# Passes whose textual form loses what IREE's builders give them in C++.
CPP_STATE = {
    "iree-codegen-iree-comprehensive-bufferize": "IREE builds it in C++ with the target's allocation and copy functions (alloca / workgroup and "
    "private memory), which no textual pipeline carries; rebuilt from its name it allocates on the heap",
}


def _split_pipeline(text: str) -> list[str]:
    """Top-level items of a comma-separated pass list (braces, quotes respected)."""
    items, depth, quote, cur = [], 0, False, []
    for c in text:
        if c == '"':
            quote = not quote
        elif not quote and c in "{(":
            depth += 1
        elif not quote and c in "})":
            depth -= 1
        if c == "," and depth == 0 and not quote:
            items.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        items.append("".join(cur).strip())
    return items


_block_cache: dict = {}


def registered_blocks() -> dict[str, list[str]]:
    """Each registered pipeline's expansion, as the pass texts the dumps show."""
    from iree.compiler import ir, passmanager

    if not _block_cache:
        with ir.Context():
            for name in REGISTERED_BLOCKS:
                text = str(passmanager.PassManager.parse(f"builtin.module(func.func({name}))"))
                inner = text[len("builtin.module(func.func(") : -2]
                _block_cache[name] = _split_pipeline(inner)
    return _block_cache


def _unbuildable(pass_text: str) -> str | None:
    """Why ``pass_text`` cannot be rebuilt from text, or None."""
    from ..pipeline.cpp import cpp_probe

    problem = cpp_probe(pass_text)
    if problem is not None:
        return f"it has no textual registration ({problem.splitlines()[0][:160]})"
    return CPP_STATE.get(pass_name(pass_text))


def faithful_suffix(low: FunctionLowering, start: int, splices: dict[int, list[str]]) -> list[str]:
    """Items replaying ``low.passes[start:]`` exactly, injected pipelines spliced in.

    A contiguous run of passes that is the expansion of a registered pipeline
    (REGISTERED_BLOCKS), with no splice strictly inside, runs as that pipeline:
    IREE's own builder, C++ state included. Any other pass must rebuild from
    its text alone, or the point is refused (CodegenError with UNFAITHFUL_MARK).
    """
    passes = low.passes
    items: list[str] = []
    i = start
    while i <= len(passes):
        items.extend(splices.get(i, []))
        if i == len(passes):
            break
        block = _block_at(passes, i, splices)
        if block is not None:
            items.append(block)
            i += len(registered_blocks()[block])
            continue  # splices at the block's end are emitted by the loop head
        why = _unbuildable(passes[i])
        if why is not None:
            inj = ", ".join(sorted({point_text(low, k) for k in splices}))
            raise CodegenError(
                f"codegen injection at {inj} of '@{low.name}' {UNFAITHFUL_MARK}: IREE runs "
                f"'{pass_name(passes[i])}' (pass {i + 1} of --list-codegen-passes) after it, and {why}; "
                "inject after that pass instead"
            )
        items.append(passes[i])
        i += 1
    return items


def _block_at(passes: list[str], i: int, splices) -> str | None:
    """The registered pipeline whose expansion starts at ``passes[i]`` with no splice inside it, or None."""
    for name, seq in registered_blocks().items():
        n = len(seq)
        if passes[i : i + n] == seq and not any(i < k < i + n for k in splices):
            return name
    return None


def without_pipeline(translation_info: str) -> str:
    """The translation_info text with its pipeline replaced by the empty one."""
    start = translation_info.find("pipeline = ")
    if start < 0:
        raise CodegenError(f"no pipeline in {translation_info}")
    i = start + len("pipeline = ")
    j = value_end(translation_info, i)
    return translation_info[:i] + EMPTY_PIPELINE + translation_info[j:]


def replace_and_replay(original, work, items: list[str], run_plan) -> None:
    """``work`` takes the place of ``original``, runs the rest of the codegen pipeline
    (``items``), and is marked so that IREE runs none of it again."""
    from iree.compiler import ir

    from ..patterns.ir_utils import operation

    work.move_before(operation(original))
    operation(original).erase()
    if items and not run_plan("func.func(" + ",".join(items) + ")", work):
        name = work.attributes["sym_name"].value
        raise CodegenError(f"replaying the codegen pipeline of '@{name}' with the injections failed")
    info = str(work.attributes["translation_info"])
    work.attributes["translation_info"] = ir.Attribute.parse(without_pipeline(info))

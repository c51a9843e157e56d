"""Which form computes a top-k: the cost model, a pure function of width, k, key width and rule.

The forms, the two rules and the measurements behind every constant here are
in docs/passes/sort-slice-to-topk.md; this module imports no MLIR bindings,
so the rules are tested on their own (test/unit/test_topk_cost_model.py).
``choose`` is the whole decision the pattern asks for: the form to build
(with its chunk size), or why the sort is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Form(StrEnum):
    """How the top-k is computed (``auto``: the one the rule picks)."""

    AUTO = "auto"
    TOPK = "topk"
    RANK = "rank"
    ARGMAX = "argmax"
    ROUNDS = "rounds"
    CHUNKS = "chunks"


class Rule(StrEnum):
    """Which forms may be used and which one ``auto`` picks: the CPU's cost rule or the GPUs'."""

    CPU = "cpu"
    GPU = "gpu"


class Select(StrEnum):
    """How the materialized chunks form picks the k best chunks and candidates."""

    RANK = "rank"
    ROUNDS = "rounds"


INT32_MAX = 2**31 - 1
RANK_FACTOR = 8  # beyond MAX_ROUNDS, rank-count when k >= width / RANK_FACTOR
MAX_ROUNDS = 64  # the rounds form makes one reduction dispatch per round
CHUNKS_MIN_WIDTH = 512  # narrower rows: the chunks form's k + 3 extra dispatches cost more than it saves
CHUNKS_GAIN = 0.6  # chunks when its compare count is at most this fraction of the rounds form's
GPU_RANK_MAX_WIDTH = 4096  # GPUs: the rank form's O(width^2) count no wider than this
# The forms built on i64 composites (key << 32 | index part): static widths below 2^31, keys of <= 32 bits.
COMPOSITE_FORMS = (Form.ARGMAX, Form.ROUNDS, Form.CHUNKS, Form.RANK)
GPU_FORMS = COMPOSITE_FORMS  # the forms IREE compiles for GPUs (materialized)


def chunk_size(width: int | None, k: int, forced: int = 0) -> int | None:
    """The chunks form's chunk size C: the power of two nearest sqrt(width / k) (which minimizes its
    k * width / C + k^2 * C compares) that divides ``width`` into at least k chunks, C >= 2; else None.
    ``forced`` (the pass option ``chunk``, for measuring) replaces the choice when it is valid."""
    if width is None or k < 1:
        return None
    if forced:
        return forced if forced >= 2 and width % forced == 0 and width // forced >= k else None
    c = 2
    while width % (2 * c) == 0 and width // (2 * c) >= k and (2 * c) ** 2 * k <= 2 * width:
        c *= 2
    return c if width % c == 0 and width // c >= k else None


def chunks_pay(width: int, k: int) -> bool:
    """Whether the chunks form beats rounds: rows of at least CHUNKS_MIN_WIDTH, and its compares
    (width + k*width/C + k*k*C) at most CHUNKS_GAIN of the rounds form's k*width."""
    c = chunk_size(width, k)
    return c is not None and width >= CHUNKS_MIN_WIDTH and width + k * width // c + k * k * c <= CHUNKS_GAIN * k * width


def _composites_fit(width: int | None, key_bits: int) -> bool:
    """A composite holds the key in its high 32 bits and the index in its low 31."""
    return width is not None and width <= INT32_MAX and key_bits <= 32


def choose_form(width: int | None, k: int, key_bits: int) -> Form:
    """The CPU rule: the cheapest form for a row of ``width`` keys (None: dynamic) and the top ``k``."""
    if not _composites_fit(width, key_bits):
        return Form.TOPK
    if k == 1:
        return Form.ARGMAX
    if 2 * k >= width:
        return Form.RANK
    if k <= MAX_ROUNDS:
        return Form.CHUNKS if chunks_pay(width, k) else Form.ROUNDS
    return Form.RANK if RANK_FACTOR * k >= width else Form.TOPK


def choose_gpu_form(width: int | None, k: int, key_bits: int) -> Form | None:
    """The GPU rule, which avoids rounds (a GPU reduces each row serially, one dispatch per round):
    under CHUNKS_MIN_WIDTH argmax or rank; from there chunks; where no chunk size divides the width,
    argmax (k = 1), rank up to GPU_RANK_MAX_WIDTH, rounds beyond. None: leave the sort alone."""
    if not _composites_fit(width, key_bits):
        return None
    if width < CHUNKS_MIN_WIDTH:
        return Form.ARGMAX if k == 1 else Form.RANK
    if k <= MAX_ROUNDS and 2 * k < width and chunk_size(width, k) is not None:
        return Form.CHUNKS
    if k == 1:
        return Form.ARGMAX
    if width <= GPU_RANK_MAX_WIDTH:
        return Form.RANK
    return Form.ROUNDS if k <= MAX_ROUNDS and 2 * k < width else None


@dataclass(frozen=True)
class Choice:
    """The form to build and the chunks form's chunk size; or no form, and why."""

    form: Form | None
    chunk: int | None = None
    why: str = ""


def _leave(why: str) -> Choice:
    return Choice(None, why=why)


def choose(form: Form, rule: Rule, width: int | None, k: int, key_bits: int, chunk: int = 0) -> Choice:
    """The form for a top-``k`` of rows of ``width`` keys of ``key_bits``: ``form`` unless ``auto``, else the
    ``rule``'s pick; left alone when the rule does not admit it or the form cannot compute this top-k."""
    chosen = form
    if form == Form.AUTO:
        chosen = (choose_gpu_form if rule == Rule.GPU else choose_form)(width, k, key_bits)
    if rule == Rule.GPU and chosen not in GPU_FORMS:
        return _leave(
            "for GPUs only the materialized argmax, rounds, chunks and rank forms, on a static width "
            f"and keys of at most 32 bits, and on rows over {GPU_RANK_MAX_WIDTH} only with "
            f"k <= {MAX_ROUNDS} and 2k < width (choose_gpu_form)"
        )
    if chosen in COMPOSITE_FORMS and not _composites_fit(width, key_bits):
        return _leave(f"the {chosen} form needs a static width below 2^31 and keys of at most 32 bits")
    if chosen == Form.TOPK and width is not None and width > INT32_MAX + 1:
        return _leave("the top-k op's indices are i32: a width over 2^31 is left alone")
    if chosen == Form.ARGMAX and k != 1:
        return _leave("the argmax form computes only k = 1")
    if chosen == Form.ROUNDS and not 1 <= k <= MAX_ROUNDS:
        return _leave(f"the rounds form computes 1 <= k <= {MAX_ROUNDS}")
    if chosen != Form.CHUNKS:
        return Choice(chosen)
    size = chunk_size(width, k, chunk)
    if not 1 <= k <= MAX_ROUNDS or size is None:
        return _leave(
            f"the chunks form needs 1 <= k <= {MAX_ROUNDS} and a power-of-two chunk "
            "size >= 2 dividing the width into at least k chunks"
        )
    return Choice(chosen, size)

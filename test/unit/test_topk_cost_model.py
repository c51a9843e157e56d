"""The top-k cost model on its own: which form for which width, k, key width and rule.

Each expectation is worked out from the rule's definition (the arithmetic is
in the comments), at the boundaries where the choice changes: widths around
CHUNKS_MIN_WIDTH, odd widths no chunk size divides, k = 1, 2k = width, k at
MAX_ROUNDS and width / RANK_FACTOR, the GPU rule's rank-width limit, and
forced chunk sizes. The module needs no MLIR bindings, and is checked to load
none.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from opt_py.patterns.sort_slice_to_topk import cost
from opt_py.patterns.sort_slice_to_topk.cost import (
    CHUNKS_GAIN,
    CHUNKS_MIN_WIDTH,
    GPU_RANK_MAX_WIDTH,
    INT32_MAX,
    MAX_ROUNDS,
    RANK_FACTOR,
    Choice,
    Form,
    Rule,
    choose,
    choose_form,
    choose_gpu_form,
    chunk_size,
    chunks_pay,
)

TOPK, RANK, ARGMAX, ROUNDS, CHUNKS = Form.TOPK, Form.RANK, Form.ARGMAX, Form.ROUNDS, Form.CHUNKS


def test_the_constants_the_rules_below_are_worked_out_for():
    assert (RANK_FACTOR, MAX_ROUNDS, CHUNKS_MIN_WIDTH, CHUNKS_GAIN, GPU_RANK_MAX_WIDTH) == (8, 64, 512, 0.6, 4096)
    assert INT32_MAX == 2**31 - 1


def test_the_cost_model_imports_no_mlir_bindings():
    tree = ast.parse(Path(cost.__file__).read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported <= {"__future__", "dataclasses", "enum"}, imported
    probe = "import sys, opt_py.patterns.sort_slice_to_topk.cost; print(sorted(m for m in sys.modules if 'iree' in m))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --------------------------------------------------------------------------
# chunk_size: the largest power of two C >= 2 with C | width, width / C >= k and C^2 * k <= 2 * width
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "width, k, want",
    [
        (64, 4, 4),  # C^2 <= 2*64/4 = 32: 4 (8^2 = 64 > 32)
        (1024, 8, 16),  # C^2 <= 256: 16
        (1024, 1, 32),  # C^2 <= 2048: 32 (64^2 = 4096 > 2048)
        (1024, 64, 4),  # C^2 <= 32: 4
        (32768, 64, 32),  # C^2 <= 1024: 32
        (512, 64, 4),  # C^2 <= 16: 4, and 512 / 4 = 128 >= 64
        (6, 1, 2),  # 6 = 2 * 3: only C = 2 divides it
        (2, 1, 2),  # one chunk of 2 is enough for k = 1
        (1024, 512, 2),  # C = 4 would leave 256 < 512 chunks
        (63, 4, None),  # odd: no C >= 2 divides it
        (50257, 1, None),  # odd
        (8, 5, None),  # C = 2 leaves 4 < 5 chunks
        (2, 2, None),  # one chunk for k = 2
        (None, 4, None),  # a dynamic width
        (64, 0, None),  # no k
    ],
)
def test_chunk_size(width, k, want):
    assert chunk_size(width, k) == want


@pytest.mark.parametrize(
    "width, k, forced, want",
    [
        (1024, 8, 64, 64),  # 1024 / 64 = 16 >= 8 chunks
        (96, 4, 3, 3),  # a forced size need not be a power of two: 96 / 3 = 32 chunks
        (1024, 1, 1024, 1024),  # one chunk is enough for k = 1
        (1024, 8, 3, None),  # 3 does not divide 1024
        (1024, 8, 256, None),  # 4 chunks < k = 8
        (1024, 8, 1, None),  # chunks of one
        (None, 8, 4, None),  # a dynamic width
    ],
)
def test_a_forced_chunk_size_is_taken_only_where_it_cuts_the_width(width, k, forced, want):
    assert chunk_size(width, k, forced) == want


# --------------------------------------------------------------------------
# chunks_pay: width >= 512 and width + k * width / C + k^2 * C <= 0.6 * k * width
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "width, k, pays",
    [
        (512, 4, True),  # C = 16: 512 + 128 + 256 = 896 <= 0.6 * 2048 = 1228.8
        (256, 4, False),  # C = 8: 256 + 128 + 128 = 512 <= 614.4 would pay, but 256 < 512 wide
        (510, 4, False),  # under the width floor
        (512, 8, True),  # C = 8: 512 + 512 + 512 = 1536 <= 2457.6
        (512, 64, False),  # C = 4: 512 + 8192 + 16384 = 25088 > 19660.8
        (1024, 8, True),  # C = 16: 1024 + 512 + 1024 = 2560 <= 4915.2
        (1024, 64, True),  # C = 4: 1024 + 16384 + 16384 = 33792 <= 39321.6
        (1024, 1, False),  # C = 32: 1024 + 32 + 32 = 1088 > 614.4
        (32768, 64, True),  # C = 32: 32768 + 65536 + 131072 = 229376 <= 1258291.2
        (1023, 4, False),  # odd: no chunk size
    ],
)
def test_chunks_pay(width, k, pays):
    assert chunks_pay(width, k) is pays


# --------------------------------------------------------------------------
# The CPU rule
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "width, k, bits, want",
    [
        (None, 4, 32, TOPK),  # a dynamic width: no composites
        (64, 4, 64, TOPK),  # 64-bit keys do not fit a composite's high half
        (2**31, 4, 32, TOPK),  # 2^31 positions do not fit its low 31 bits
        (64, 1, 32, ARGMAX),
        (2**31 - 1, 1, 32, ARGMAX),  # the widest a composite holds
        (64, 1, 16, ARGMAX),
        (64, 32, 32, RANK),  # 2k = width
        (8, 8, 32, RANK),  # k = width: a full sort
        (64, 31, 32, ROUNDS),  # 2k < width, 64 < 512 wide
        (64, 4, 32, ROUNDS),
        (256, 8, 32, ROUNDS),  # chunks would pay by count but the row is under 512
        (512, 64, 32, ROUNDS),  # chunks do not pay (above)
        (2**31 - 1, 4, 32, ROUNDS),  # odd: no chunk size
        (512, 4, 32, CHUNKS),
        (1024, 8, 32, CHUNKS),
        (32768, 64, 32, CHUNKS),
        (4096, 64, 32, CHUNKS),  # k = MAX_ROUNDS: 4096 + 32768 + 32768 <= 157286.4 with C = 8
        (4096, 65, 32, TOPK),  # k > MAX_ROUNDS and 8 * 65 = 520 < 4096
        (1024, 65, 32, TOPK),  # 520 < 1024
        (520, 65, 32, RANK),  # 8 * 65 = 520 >= 520: the rank count
        (521, 65, 32, TOPK),  # 520 < 521
    ],
)
def test_choose_form(width, k, bits, want):
    assert choose_form(width, k, bits) is want


# --------------------------------------------------------------------------
# The GPU rule
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "width, k, bits, want",
    [
        (None, 4, 32, None),  # dynamic widths stay with the sort
        (64, 4, 64, None),  # so do 64-bit keys
        (2**31, 1, 32, None),
        (64, 1, 32, ARGMAX),  # under 512 wide: argmax or rank
        (64, 4, 32, RANK),
        (511, 200, 32, RANK),
        (8, 8, 32, RANK),
        (512, 4, 32, CHUNKS),  # from 512 wide, where a chunk size cuts the row
        (1024, 1, 32, CHUNKS),  # k = 1 too: the best chunk best
        (1024, 8, 32, CHUNKS),
        (32768, 64, 32, CHUNKS),
        (1024, 512, 32, RANK),  # 2k = width: no chunks; 1024 <= 4096
        (4096, 65, 32, RANK),  # k > 64: no chunks; 4096 <= 4096
        (8192, 65, 32, None),  # k > 64 over 4096 wide: left to the sort
        (8192, 4096, 32, None),  # 2k = width over 4096 wide
        (50257, 1, 32, ARGMAX),  # odd widths: no chunk size
        (1001, 4, 32, RANK),
        (4095, 4, 32, RANK),  # up to GPU_RANK_MAX_WIDTH
        (4097, 4, 32, ROUNDS),  # beyond it
        (8191, 4, 32, ROUNDS),
        (8191, 64, 32, ROUNDS),
        (8191, 65, 32, None),  # past MAX_ROUNDS
    ],
)
def test_choose_gpu_form(width, k, bits, want):
    assert choose_gpu_form(width, k, bits) == want


# --------------------------------------------------------------------------
# choose: the rule's pick or the forced form, and each form's preconditions
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "form, rule, width, k, bits, chunk, want",
    [
        (Form.AUTO, Rule.CPU, 1024, 8, 32, 0, Choice(CHUNKS, 16)),
        (Form.AUTO, Rule.CPU, 64, 4, 32, 0, Choice(ROUNDS)),
        (Form.AUTO, Rule.CPU, None, 4, 32, 0, Choice(TOPK)),
        (Form.AUTO, Rule.CPU, 1024, 8, 32, 64, Choice(CHUNKS, 64)),  # the rule picks, the option sizes
        (Form.AUTO, Rule.GPU, 64, 4, 32, 0, Choice(RANK)),
        (Form.AUTO, Rule.GPU, 1024, 1, 32, 0, Choice(CHUNKS, 32)),
        (Form.RANK, Rule.CPU, 64, 4, 32, 0, Choice(RANK)),
        (Form.RANK, Rule.CPU, 2**31 - 1, 4, 32, 0, Choice(RANK)),
        (Form.ROUNDS, Rule.CPU, 1024, 8, 32, 3, Choice(ROUNDS)),  # chunk is for the chunks form only
        (Form.ROUNDS, Rule.GPU, 64, 4, 32, 0, Choice(ROUNDS)),  # a forced form the rule admits
        (Form.ROUNDS, Rule.CPU, 64, 64, 32, 0, Choice(ROUNDS)),
        (Form.ARGMAX, Rule.CPU, 64, 1, 32, 0, Choice(ARGMAX)),
        (Form.TOPK, Rule.CPU, None, 4, 64, 0, Choice(TOPK)),  # any width, any keys
        (Form.TOPK, Rule.CPU, 2**31, 4, 32, 0, Choice(TOPK)),  # i32 indices reach 2^31 - 1
        (Form.CHUNKS, Rule.CPU, 64, 4, 32, 0, Choice(CHUNKS, 4)),  # forced: no width floor
        (Form.CHUNKS, Rule.CPU, 96, 4, 32, 3, Choice(CHUNKS, 3)),
    ],
)
def test_choose_builds(form, rule, width, k, bits, chunk, want):
    assert choose(form, rule, width, k, bits, chunk) == want


@pytest.mark.parametrize(
    "form, rule, width, k, bits, chunk, why",
    [
        (Form.AUTO, Rule.GPU, None, 4, 32, 0, "for GPUs only the materialized"),
        (Form.AUTO, Rule.GPU, 8192, 65, 32, 0, "for GPUs only the materialized"),
        (Form.TOPK, Rule.GPU, 64, 4, 32, 0, "for GPUs only the materialized"),  # the rule does not admit it
        (Form.TOPK, Rule.CPU, 2**31 + 1, 4, 32, 0, "the top-k op's indices are i32"),
        (Form.RANK, Rule.CPU, None, 4, 32, 0, "the rank form needs a static width below 2^31"),
        (Form.ROUNDS, Rule.CPU, 64, 4, 64, 0, "the rounds form needs a static width below 2^31"),
        (Form.ARGMAX, Rule.CPU, 2**31, 1, 32, 0, "the argmax form needs a static width below 2^31"),
        (Form.CHUNKS, Rule.CPU, 1024, 4, 64, 0, "the chunks form needs a static width below 2^31"),
        (Form.ARGMAX, Rule.CPU, 64, 2, 32, 0, "the argmax form computes only k = 1"),
        (Form.ROUNDS, Rule.CPU, 64, 65, 32, 0, "the rounds form computes 1 <= k <= 64"),
        (Form.ROUNDS, Rule.CPU, 0, 0, 32, 0, "the rounds form computes 1 <= k <= 64"),
        (Form.CHUNKS, Rule.CPU, 32768, 65, 32, 0, "the chunks form needs 1 <= k <= 64"),
        (Form.CHUNKS, Rule.CPU, 63, 4, 32, 0, "the chunks form needs 1 <= k <= 64"),  # odd
        (Form.CHUNKS, Rule.CPU, 8, 5, 32, 0, "the chunks form needs 1 <= k <= 64"),  # 4 chunks < 5
        (Form.CHUNKS, Rule.CPU, 1000, 4, 32, 3, "the chunks form needs 1 <= k <= 64"),  # 3 does not divide
    ],
)
def test_choose_leaves_the_sort(form, rule, width, k, bits, chunk, why):
    got = choose(form, rule, width, k, bits, chunk)
    assert got.form is None and got.chunk is None and got.why.startswith(why), got


@pytest.mark.parametrize("width", [8, 64, 511, 512, 1000, 1024, 4096, 4097, 8191, 32768])
@pytest.mark.parametrize("k", [1, 2, 4, 64, 65, 500])
@pytest.mark.parametrize("rule", list(Rule))
def test_the_rules_pick_only_forms_that_can_compute_the_top_k(width, k, rule):
    """auto never picks a form whose preconditions then refuse it: what the rule picks is built."""
    if k > width:
        return
    pick = (choose_gpu_form if rule == Rule.GPU else choose_form)(width, k, 32)
    got = choose(Form.AUTO, rule, width, k, 32)
    assert got.form == pick, got

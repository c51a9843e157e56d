"""A sort read only through leading slices is a top-k; compute it as one.

PyTorch's ``topk``, ``sort`` and ``argsort`` reach IREE as an
``iree_linalg_ext.sort`` of the values with an iota of indices, read through
``tensor.extract_slice``s keeping the first k along the sorted dimension; IREE
lowers the sort to an O(width^2) bubble sort. The pattern computes the top-k
instead, in the form a cost rule picks for the shape and target, with the
sort's order of ties and torch's order of NaN.

The modules: ``cost`` (which form: pure, no MLIR), ``match`` (is this sort a
top-k), ``keys`` and ``reductions`` (building blocks), ``forms`` (each form's
IR, in a table), ``pattern`` (the rewrite). The forms, the rules, their
soundness and figures: docs/passes/sort-slice-to-topk.md.

Importing this package loads no MLIR bindings: it exports the cost model;
the pattern is ``.pattern.sort_slice_to_topk``.
"""

from .cost import (
    CHUNKS_GAIN,
    CHUNKS_MIN_WIDTH,
    GPU_RANK_MAX_WIDTH,
    INT32_MAX,
    MAX_ROUNDS,
    RANK_FACTOR,
    Choice,
    Form,
    Rule,
    Select,
    choose,
    choose_form,
    choose_gpu_form,
    chunk_size,
    chunks_pay,
)

__all__ = [
    "CHUNKS_GAIN",
    "CHUNKS_MIN_WIDTH",
    "GPU_RANK_MAX_WIDTH",
    "INT32_MAX",
    "MAX_ROUNDS",
    "RANK_FACTOR",
    "Choice",
    "Form",
    "Rule",
    "Select",
    "choose",
    "choose_form",
    "choose_gpu_form",
    "chunk_size",
    "chunks_pay",
]

"""Program generators that prove passes by numbers: importable by tests, tools and ``opt-py bundle``.

A generator module gives ``random_case(seed)``, ``program(case)`` (MLIR text),
``inputs(case)`` and ``expected(case, inputs)`` (numpy's outputs);
``generators()`` names the ones ``opt-py bundle --generator NAME=N`` offers.
"""


def generators() -> dict:
    """The random program generators of ``opt-py bundle``, by the name ``--generator`` gives them."""
    from . import fold_collapse_shape_into_store, scan, scatter, topk

    return {"scatter": scatter, "reshape-store": fold_collapse_shape_into_store, "topk": topk, "scan": scan}

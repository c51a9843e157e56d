"""The peers' suites (``../shared/peer`` beside the checkout) swept stock and with ``--fixes``: which cases,
run how, judged how (``suites``, ``torch_mlir_suite``), and the sweep's records and report (``sweep``).
Shared by tools/sweep_peer_suites.py and its CI sample, test/unit/test_peer_sweep.py.
"""

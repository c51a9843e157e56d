"""What the benchmarks in tools/ share: timing commands and pipelines (``timing``), and the top-k program
and its timers under iree-benchmark-module and torch (``topk``). The benchmarks themselves, and the
figures they give, are the scripts in tools/ and the pages in docs/ that quote them.
"""

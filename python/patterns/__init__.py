"""Rewrite patterns, one module per family: pure functions of (op, rewriter)."""

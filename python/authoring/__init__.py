"""What a pass author reads: declaring passes and options, writing patterns."""

from .declaration import Pass, PassContext, PatternPass, Rewrite, option
from .rewriting import Pattern, Rewriter, pattern

__all__ = ["Pass", "PassContext", "PatternPass", "Pattern", "Rewrite", "Rewriter", "option", "pattern"]

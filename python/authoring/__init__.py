"""What a pass author reads: declaring passes and options, writing patterns."""

from .declaration import Pass, PassContext, PatternPass, Rewrite, option
from .fix import STACK, TORCH_OPERATOR, WORKGROUP_MEMORY, Fix
from .rewriting import Pattern, Rewriter, pattern

__all__ = [
    "STACK",
    "TORCH_OPERATOR",
    "WORKGROUP_MEMORY",
    "Fix",
    "Pass",
    "PassContext",
    "PatternPass",
    "Pattern",
    "Rewrite",
    "Rewriter",
    "option",
    "pattern",
]

"""opt-py's own passes, one module per pass, named as its pass with '_' for '-' (registry.BUILTIN_PASSES)."""

"""opt-py's own passes, one module per pass. Names are listed in registry.BUILTIN_PASSES."""

"""Plan x IR -> IR: placement, the engine with its two strategies, the pattern driver, diagnostics, the library API."""

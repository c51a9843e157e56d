"""IREE: compiling with passes injected between phases and inside codegen, running, comparing."""

"""IREE, compiling: passes injected between phases, inside codegen and the input lowering, const-eval, --fixes.

Running what it compiled, checking it and hunting a wrong dispatch are the layer above, ``execution/``.
"""

"""Declares a pass whose name is taken by MLIR's C++ cse."""

from dataclasses import dataclass

from opt_py import Pass


@dataclass(frozen=True)
class NotCse(Pass):
    name = "cse"
    summary = "collides with the C++ pass"

    def run(self, op, ctx):
        pass

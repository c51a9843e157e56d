"""A pass that crashes its process (reads address 0: SIGSEGV), for the crash report's tests."""

import ctypes

from opt_py import Pass


class Crash(Pass):
    name = "test-crash"
    anchor = "builtin.module"
    summary = "reads address 0: SIGSEGV"

    def run(self, op, ctx):
        ctypes.string_at(0)

"""The options several subcommands share, each spelled once: its flag, its action, its values.

``opt-py``, ``compile``, ``compare``, ``bundle``, ``check`` and ``fuzz`` build
their parsers from these; a subcommand passes its own help where the option
means something particular there (``--inject`` of compare's side B). The
target names are ``execution/e2e.py``'s ``TARGETS`` (a test keeps them equal;
importing e2e here would load numpy for a ``--help``).
"""

from __future__ import annotations

TARGETS = ["cpu", "cuda", "rocm"]
TARGET_HELP = "cpu (llvm-cpu, local-task), cuda (sm_80) or rocm (gfx942, hip)"
PLUGIN_HELP = "import a Python file and register the passes it declares (repeatable)"
INJECT_HELP = "run PIPELINE after PHASE (repeatable; phases: start (the module as parsed), input ... vm)"
INJECT_CODEGEN_HELP = (
    "run PIPELINE inside IREE's code generation of each dispatch function, before or "
    "after its N-th (default first; #* every) run of PASS"
)
POINT = "before|after:PASS[#N]:PIPELINE"


def add_target(p, flag: str = "--target", default: str | None = "cpu", help: str | None = TARGET_HELP) -> None:
    p.add_argument(flag, choices=TARGETS, default=default, help=help)


def add_load_pass_plugin(p) -> None:
    p.add_argument("--load-pass-plugin", action="append", default=[], metavar="FILE.py", help=PLUGIN_HELP)


def add_inject(p, flag: str = "--inject", help: str | None = INJECT_HELP) -> None:
    p.add_argument(flag, action="append", default=[], metavar="PHASE:PIPELINE", help=help)


def add_inject_codegen(p, flag: str = "--inject-codegen", help: str | None = INJECT_CODEGEN_HELP) -> None:
    p.add_argument(flag, action="append", default=[], metavar=POINT, help=help)


def add_fixes(p, help: str) -> None:
    """``--fixes`` (every fix) or ``--fixes=NAME,...``; a bare one is made ``--fixes=all`` by ``bare_fixes``."""
    p.add_argument("--fixes", default=None, metavar="NAME,...", help=help)


def bare_fixes(argv: list[str]) -> list[str]:
    """A bare --fixes means all of them; it never takes the next argument (a file) as its value."""
    return ["--fixes=all" if a == "--fixes" else a for a in argv]

"""The ``opt-py`` command: argument parsing for every subcommand, the mlir-opt job, output, --verify-diagnostics."""

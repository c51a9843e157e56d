"""The first error line of a tool's output, as the sweeps and `opt-py fuzz` name a failure by it."""

from opt_py.execution.outcomes import first_error


def test_the_first_diagnostic_is_the_error():
    text = "p.mlir:3:10: error: failed to legalize operation 'x.y'\np.mlir:3:10: note: see current operation"
    assert first_error(text) == "p.mlir:3:10: error: failed to legalize operation 'x.y'"


def test_a_note_quoting_an_error_is_not_the_error():
    """--fixes' note on bringing a held-back fix quotes IREE's error; the error is the one after it."""
    text = (
        "opt-py: note: IREE failed with 'p.mlir:5:10: error: exceeded stack allocation limit': compiling again "
        "with forall-reuse-shared-outs\np.mlir:5:10: error: 'func.func' op exceeded stack allocation limit"
    )
    assert first_error(text) == "p.mlir:5:10: error: 'func.func' op exceeded stack allocation limit"


def test_a_line_ending_in_a_colon_takes_the_next():
    assert first_error("tool: error: unknown flags:\n--bogus\n") == "tool: error: unknown flags: --bogus"

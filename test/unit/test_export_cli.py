"""The command line both corpus exporters share (python/corpus/export_cli.py), without torch.

tools/export_models.py and tools/export_library_models.py need torch to load;
their options, defaults and messages are this module's, checked here on
stand-in models and an ``export`` that records what it is asked.
"""

from pathlib import Path
from types import SimpleNamespace

import pytest
from opt_py.corpus import export_cli

ROOT = Path(__file__).resolve().parents[2]
SPECS = [
    SimpleNamespace(name="first", family="topk", summary="the first model"),
    SimpleNamespace(name="second", family="scatter", summary="the second model"),
]


def _main(argv, asked=None):
    """``export_cli.main(argv)`` over SPECS with out=test/models: its status and the exports asked for
    (appended to ``asked`` as they are asked)."""
    asked = [] if asked is None else asked

    def export(s, out_root):
        asked.append((s.name, out_root))
        return {"inputs": [0], "outputs": [0, 1]}

    status = export_cli.main(
        argv, description="Export things.", specs=SPECS, export=export, out=str(ROOT / "test" / "models"), widths=(8, 9)
    )
    return status, asked


def test_no_names_exports_every_model_under_the_default_root(capsys):
    status, asked = _main([])
    assert status == 0
    assert asked == [("first", str(ROOT / "test" / "models")), ("second", str(ROOT / "test" / "models"))]
    assert capsys.readouterr().err == "first: 1 inputs, 2 outputs\nsecond: 1 inputs, 2 outputs\n"


def test_names_are_exported_in_their_order_under_out(capsys, tmp_path):
    status, asked = _main(["second", "first", "-o", str(tmp_path)])
    assert status == 0 and asked == [("second", str(tmp_path)), ("first", str(tmp_path))]
    assert capsys.readouterr().err == "second: 1 inputs, 2 outputs\nfirst: 1 inputs, 2 outputs\n"


def test_list_prints_name_family_and_summary_in_columns(capsys):
    status, asked = _main(["--list"])
    assert status == 0 and asked == []
    assert capsys.readouterr().out == "first    topk      the first model\nsecond   scatter   the second model\n"


def test_an_unknown_name_is_a_usage_error_and_nothing_is_exported(capsys):
    asked = []
    with pytest.raises(SystemExit) as exit_:
        _main(["first", "nope", "other"], asked)
    assert exit_.value.code == 2 and asked == []
    assert "error: unknown models: nope, other" in capsys.readouterr().err


def test_help_names_the_default_root_from_the_checkout(capsys):
    with pytest.raises(SystemExit) as exit_:
        _main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "Export things." in out and "output root (default: test/models)" in out

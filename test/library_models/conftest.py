"""The library-model corpus: one compile per (model, target, fixes) per session,
with the real-model corpus's Model and Compiled (test/models/model_corpus.py)."""

import pytest
from model_corpus import Compiled  # test/models is on sys.path (pyproject.toml's pytest `pythonpath`)


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    return Compiled(tmp_path_factory.mktemp("library-model-vmfbs"))

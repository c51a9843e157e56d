"""The library-model corpus: one compile per (model, target, fixes) per session,
with the real-model corpus's Model and Compiled (test/models/model_corpus.py)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models"))

from model_corpus import Compiled


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    return Compiled(tmp_path_factory.mktemp("library-model-vmfbs"))

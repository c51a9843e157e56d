"""The real-model corpus: one compile per (model, target, injections) per session."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from model_corpus import Compiled


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    return Compiled(tmp_path_factory.mktemp("model-vmfbs"))

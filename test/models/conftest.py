"""The real-model corpus: one compile per (model, target, injections) per session."""

import pytest
from model_corpus import Compiled


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    return Compiled(tmp_path_factory.mktemp("model-vmfbs"))

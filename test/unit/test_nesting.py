"""The bracket-depth guard counts on bytes, a chunk at a time: same answer as counting the text at once."""

import random

import pytest
from opt_py.tool import opt


def reference_depth(text: str) -> int:
    text = text.replace("->", "  ")
    best = 0
    for opener, closer in ("()", "[]", "{}", "<>"):
        depth = 0
        for ch in text:
            depth += (ch == opener) - (ch == closer)
            best = max(best, depth)
    return best


@pytest.mark.parametrize("seed", range(5))
def test_chunked_count_matches_whole_text(monkeypatch, seed):
    monkeypatch.setattr(opt, "MAX_NESTING", -1)  # always count, never the shortcut
    rng = random.Random(seed)
    for _ in range(100):
        text = "".join(rng.choice("([{<>}])-xé") for _ in range(rng.randint(0, 300)))
        for chunk in (1, 2, 7, 1 << 22):  # chunk edges inside '->' included
            assert opt._max_nesting(text.encode(), chunk=chunk) == reference_depth(text), (text, chunk)


@pytest.mark.parametrize("seed", range(3))
def test_file_read_in_blocks_matches_whole_text(monkeypatch, tmp_path, seed):
    """A regular file is counted a block at a time (MLIR reads it itself): an
    arrow split across two blocks is still an arrow."""
    monkeypatch.setattr(opt, "MAX_NESTING", -1)
    rng = random.Random(seed)
    f = tmp_path / "in.mlir"
    for _ in range(100):
        text = "".join(rng.choice("([{<>}])-xé") for _ in range(rng.randint(0, 300)))
        f.write_bytes(text.encode())
        for block in (1, 2, 7, 1 << 22):
            assert opt._max_nesting_of_file(str(f), block=block) == reference_depth(text), (text, block)

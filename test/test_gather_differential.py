"""gather-to-load against upstream canonicalization.

Upstream canonicalize turns a gather into a (masked) load only when the index
vector is exactly [0, 1, ..., n-1]. On that subset both must give the same
IR; on the offset forms only opt-py folds (the cases are listed, and the
comparison would catch canonicalize learning them).
"""

import pytest

from opt_py import run_pipeline


def gather(index_def: str, mask_def: str, n: int = 8, base: str = "memref<4x64xf32>") -> str:
    return f"""
func.func @f(%base: {base}, %i: index, %j: index, %k: index, %mask: vector<{n}xi1>, %pass: vector<{n}xf32>) -> vector<{n}xf32> {{
{index_def}
{mask_def}
  %g = vector.gather %base[%i, %j] [%idx], %m, %pass : {base}, vector<{n}xindex>, vector<{n}xi1>, vector<{n}xf32> into vector<{n}xf32>
  return %g : vector<{n}xf32>
}}
"""


ZERO_BASED = {
    "step": "  %idx = vector.step : vector<8xindex>",
    "constant": "  %idx = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xindex>",
}
OFFSET = {
    "step_plus_broadcast": "  %s = vector.step : vector<8xindex>\n  %b = vector.broadcast %k : index to vector<8xindex>\n"
                           "  %idx = arith.addi %s, %b : vector<8xindex>",
    "broadcast_plus_step": "  %s = vector.step : vector<8xindex>\n  %b = vector.broadcast %k : index to vector<8xindex>\n"
                           "  %idx = arith.addi %b, %s : vector<8xindex>",
    "constant_range": "  %idx = arith.constant dense<[3, 4, 5, 6, 7, 8, 9, 10]> : vector<8xindex>",
}
MASKS = {
    "true": "  %m = arith.constant dense<true> : vector<8xi1>",
    "constant_mask": "  %m = vector.constant_mask [8] : vector<8xi1>",
    "argument": "  %m = arith.andi %mask, %mask : vector<8xi1>",
}


@pytest.mark.parametrize("mask", sorted(MASKS))
@pytest.mark.parametrize("index", sorted(ZERO_BASED))
def test_same_as_canonicalize_on_zero_based_indices(index, mask):
    text = gather(ZERO_BASED[index], MASKS[mask])
    ours = run_pipeline(text, "gather-to-load,canonicalize")
    theirs = run_pipeline(text, "canonicalize")
    assert "vector.gather" not in theirs  # upstream does fold this subset
    assert ours == theirs


@pytest.mark.parametrize("mask", sorted(MASKS))
@pytest.mark.parametrize("index", sorted(OFFSET))
def test_only_opt_py_folds_offset_indices(index, mask):
    text = gather(OFFSET[index], MASKS[mask])
    assert "vector.gather" in run_pipeline(text, "canonicalize")
    assert "vector.gather" not in run_pipeline(text, "gather-to-load,canonicalize")

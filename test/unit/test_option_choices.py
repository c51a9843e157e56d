"""Choice options: a pass field typed by an Enum, parsed and checked when the pipeline is parsed.

The passes here are declared in this file and never registered: option text
becomes a pass in ``from_options`` alone; ``plan_pipeline`` (no IR) adds the
location of a bad option in the pipeline text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

import pytest
from opt_py import Pass, PatternPass, option
from opt_py.authoring.declaration import RegionSimplify, choices, format_option_value, option_type_name
from opt_py.errors import PassOptionError, PipelineError
from opt_py.passes.sort_slice_to_topk import SortSliceToTopk
from opt_py.patterns.sort_slice_to_topk import Form, Rule, Select


class Mode(StrEnum):
    PLAIN = "plain"
    TWO_WORDS = "two-words"


class Colour(Enum):  # a plain Enum works too; its values are not its spelling
    RED = 1
    DARK_BLUE = 2


@dataclass(frozen=True)
class Choosy(Pass):
    name = "test-choosy"
    summary = "Test: choice options"
    mode: Mode = option(Mode.PLAIN, "a StrEnum choice")
    colour: Colour = option(Colour.RED, "a plain Enum choice")
    modes: list[Mode] = option([], "a list of choices")


def test_a_choice_is_parsed_by_its_members_name():
    p = Choosy.from_options("mode=two-words colour=dark-blue")
    assert p.mode is Mode.TWO_WORDS and p.colour is Colour.DARK_BLUE


def test_a_choice_is_spelled_in_any_case():
    assert Choosy.from_options("mode=Two-Words colour=RED").mode is Mode.TWO_WORDS


def test_a_list_of_choices_is_parsed_item_by_item():
    assert Choosy.from_options("modes=plain,two-words").modes == [Mode.PLAIN, Mode.TWO_WORDS]


@pytest.mark.parametrize(
    "text, message",
    [
        ("mode=other", "pass 'test-choosy': option 'mode' expects one of plain, two-words, got 'other'"),
        ("mode=two_words_x", "option 'mode' expects one of plain, two-words, got 'two_words_x'"),
        ("colour=1", "option 'colour' expects one of red, dark-blue, got '1'"),
        ("modes=plain,red", "option 'modes' expects one of plain, two-words, got 'red'"),
        ("mode=", "option 'mode' expects one of plain, two-words, got ''"),
    ],
)
def test_a_bad_choice_names_the_option_and_its_choices(text, message):
    with pytest.raises(PassOptionError) as info:
        Choosy.from_options(text)
    assert message in str(info.value)


def test_option_text_spells_choices_as_they_are_parsed():
    p = Choosy.from_options("mode=two-words colour=dark-blue modes=two-words,plain")
    assert p.option_text() == "mode=two-words colour=dark-blue modes=two-words,plain"
    assert Choosy.from_options(p.option_text()) == p


def test_a_choice_given_from_python_by_its_spelling_becomes_the_member():
    assert Choosy(mode="two-words").mode is Mode.TWO_WORDS
    with pytest.raises(PassOptionError, match="option 'mode' expects one of plain, two-words, got 'nine'"):
        Choosy(mode="nine")


def test_list_passes_shows_a_choice_by_its_values():
    assert option_type_name(Mode) == "plain|two-words"
    assert option_type_name(int) == "int"
    assert choices(Colour) == ["red", "dark-blue"]
    assert format_option_value(Colour.DARK_BLUE) == "dark-blue"
    assert format_option_value([Mode.PLAIN, Mode.TWO_WORDS]) == "plain,two-words"
    assert format_option_value(True) == "true"


# --------------------------------------------------------------------------
# The choice options opt-py declares
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Greedy(PatternPass):
    name = "test-greedy"
    summary = "Test: the greedy driver's options"

    def patterns(self):
        return []


@pytest.mark.parametrize("value", list(RegionSimplify))
def test_region_simplify_is_a_choice_the_driver_reads_by_name(value):
    got = Greedy.from_options(f"region-simplify={value.name.lower()}").region_simplify
    # run/rewrite_driver.py reads it as MLIR's GreedySimplifyRegionLevel[NAME] and compares it to "disabled"
    assert got is value and got.upper() == value.name and (got.lower() == "disabled") == (value.name == "DISABLED")


def test_a_bad_region_simplify_is_rejected_by_the_parser():
    with pytest.raises(PassOptionError) as info:
        Greedy.from_options("region-simplify=bogus")
    assert str(info.value) == (
        "pass 'test-greedy': option 'region-simplify' expects one of disabled, normal, aggressive, got 'bogus'"
    )


@pytest.mark.parametrize(
    "text, field, value",
    [
        ("form=rank", "form", Form.RANK),
        ("form=chunks", "form", Form.CHUNKS),
        ("rule=gpu", "rule", Rule.GPU),
        ("select=rounds", "select", Select.ROUNDS),
    ],
)
def test_sort_slice_to_topk_choices(text, field, value):
    assert getattr(SortSliceToTopk.from_options(text), field) is value


def test_sort_slice_to_topk_defaults_and_what_fixes_spells_for_gpus():
    p = SortSliceToTopk()
    assert (p.form, p.rule, p.select, p.materialize) == (Form.AUTO, Rule.CPU, Select.RANK, False)
    gpu = SortSliceToTopk.from_options("rule=gpu materialize=true")
    assert (gpu.form, gpu.rule, gpu.select, gpu.materialize) == (Form.AUTO, Rule.GPU, Select.RANK, True)
    assert SortSliceToTopk.from_options(gpu.option_text()) == gpu


@pytest.mark.parametrize(
    "text, message",
    [
        ("form=sorted", "option 'form' expects one of auto, topk, rank, argmax, rounds, chunks, got 'sorted'"),
        ("select=best", "option 'select' expects one of rank, rounds, got 'best'"),
        ("rule=tpu", "option 'rule' expects one of cpu, gpu, got 'tpu'"),
        ("gpu=true", "pass 'sort-slice-to-topk' has no option 'gpu'"),
    ],
)
def test_sort_slice_to_topk_rejects_a_bad_choice_when_the_pipeline_is_parsed(text, message):
    """Located at the pass in the pipeline text, as every option error is, and with no IR at hand."""
    from opt_py.pipeline.plan import plan_pipeline

    with pytest.raises(PipelineError) as info:
        plan_pipeline(f"builtin.module(sort-slice-to-topk{{{text}}})")
    assert info.value.col == len("builtin.module(") + 1
    assert message in str(info.value)
    assert str(info.value).startswith(f"pipeline:1:{info.value.col}: ")

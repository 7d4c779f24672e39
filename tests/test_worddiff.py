"""Word diffs: whole words only, deterministic, and both sides recoverable."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from archive.worddiff import new_side, old_side, word_diff, word_diffs

WORDS = st.sampled_from(["play", "cast", "in", "the", "battlefield", "504.2", "707.2", "face-down"])
SEPARATORS = st.sampled_from([" ", "  ", "\n", ", ", ". ", "-", "\u2014", "'"])
TEXTS = st.lists(st.tuples(WORDS, SEPARATORS), max_size=30).map(
    lambda pairs: "".join(word + sep for word, sep in pairs)
)


@given(TEXTS, TEXTS)
def test_joining_each_side_gives_back_the_inputs(a: str, b: str) -> None:
    diff = word_diff(a, b)
    assert old_side(diff) == a
    assert new_side(diff) == b


@given(st.text(), st.text())
def test_any_text_round_trips(a: str, b: str) -> None:
    diff = word_diff(a, b)
    assert (old_side(diff), new_side(diff)) == (a, b)
    assert all(op in (-1, 0, 1) and text for op, text in diff)


def test_words_are_never_cut() -> None:
    diff = word_diff("Objects that are played face down", "Objects that are cast face down")
    assert diff == [(0, "Objects that are "), (-1, "played "), (1, "cast "), (0, "face down")]


def test_reference_change_is_just_the_number() -> None:
    diff = word_diff("(see rule 502.26) allow", "(see rule 702.34) allow")
    changed = [(op, text) for op, text in diff if op]
    assert changed == [(-1, "502.26"), (1, "702.34")]


def test_many_distinct_words_do_not_hit_surrogates() -> None:
    a = " ".join(f"w{i}" for i in range(60000))
    b = " ".join(f"w{i}" for i in range(1000, 61000))
    diff = word_diff(a, b)
    assert (old_side(diff), new_side(diff)) == (a, b)


def test_identical_texts_are_one_equality() -> None:
    assert word_diff("same words", "same words") == [(0, "same words")]
    assert word_diff("", "") == []


def test_word_diffs_shortcuts_and_remembered_pairs_match_word_diff() -> None:
    pairs = [("", ""), ("same", "same"), ("", "new words"), ("old words", ""), ("a b", "a c")]
    first = word_diffs(pairs * 2)
    assert first == [word_diff(a, b) for a, b in pairs * 2]
    first[-1].append((0, "x"))  # each caller gets its own list
    assert word_diffs(pairs[-1:]) == [word_diff("a b", "a c")]

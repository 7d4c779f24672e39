"""Word diffs: whole words only, deterministic, and both sides recoverable."""

from __future__ import annotations

from diff_match_patch import diff_match_patch
from hypothesis import given, settings
from hypothesis import strategies as st

from archive import worddiff
from archive.worddiff import new_side, old_side, word_diff, word_diffs
from vocabulary.numbers import tokens

WORDS = st.sampled_from(["play", "cast", "in", "the", "battlefield", "504.2", "707.2", "face-down"])
SEPARATORS = st.sampled_from([" ", "  ", "\n", ", ", ". ", "-", "\u2014", "'"])
STRAIGHT = str.maketrans("\u201c\u201d", '""')
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


def test_a_change_of_quotes_is_only_the_quotes() -> None:
    """502.26a from 2005-08-01 to 2005-10-01: the same words, set in curly quotes. A sentence
    ending in a closing quote ends there in either typography, so the diff is the quotes,
    not the next sentence taken out and put back."""
    straight = (
        '"Morph [cost]" means "You may play this card rather than its mana cost." Any time'
        " you could play an instant, you may turn it face up. This action does not use the"
        ' stack. (See rule 504, "Face-Down Spells and Permanents.")'
    )
    curly = straight.replace(' "', " \u201c").replace('"', "\u201d").replace("\u201d", "\u201c", 1)
    diff = word_diff(straight, curly)
    removed = [text for op, text in diff if op == -1]
    added = [text for op, text in diff if op == 1]
    assert removed and [text.translate(STRAIGHT) for text in added] == removed
    assert max(len(text) for text in removed) <= len(']" means "'), removed  # no sentence


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


def _pure_python_units(left: list[str], right: list[str]) -> list[tuple[int, str]]:
    """The same word diff from diff-match-patch's pure-Python engine alone."""
    codes: dict[str, str] = {}
    vocabulary = [""]
    left_code = worddiff._encode(left, codes, vocabulary)
    right_code = worddiff._encode(right, codes, vocabulary)
    engine = diff_match_patch()
    engine.Diff_Timeout = 0
    diffs = engine.diff_main(left_code, right_code, False)
    engine.diff_cleanupSemantic(diffs)
    return [(op, worddiff._decode(code, vocabulary)) for op, code in diffs]


_WORDS = st.sampled_from(
    ["face-down ", "permanent ", "in ", "play ", "the ", "battlefield ", "504.2", ". ", "2/2 "]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=40), st.lists(_WORDS, min_size=1, max_size=40))
def test_the_compiled_engine_gives_the_pure_python_engines_diff(left, right):
    assert worddiff._diff_units(left, right, cleanup=True) == _pure_python_units(left, right)


def test_the_compiled_engine_agrees_on_every_change_of_a_real_release_pair(small_lineage):
    pairs = [
        (row["a"], row["b"])
        for row in small_lineage.query(
            """SELECT old.text AS a, new.text AS b FROM lineage_events e
               JOIN clauses old ON old.part_id = e.old_part_id
               JOIN clauses new ON new.part_id = e.new_part_id
               WHERE e.kind IN ('reworded', 'renumbered+reworded') LIMIT 400"""
        )
    ]
    assert len(pairs) > 50
    for a, b in pairs:
        left, right = tokens(a), tokens(b)
        assert worddiff._diff_units(left, right, cleanup=True) == _pure_python_units(left, right)

"""A text that lost characters in a conversion ("?" or U+FFFD for a dash or an apostrophe)
reads as another when each lost one is put back. The matcher walks the pieces between the
lost characters; it must accept exactly what a regular expression of the same rule does."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from archive.normalise import _LOST_MARK, _matches_lost, same_but_formatting

# Few letters, many of the characters the rule is about: the cases where pieces, marks and
# spaces meet are the ones worth trying.
TEXTS = st.text(alphabet="ab '-?\ufffd.", max_size=14)


def _by_regular_expression(pattern_text: str, text: str) -> bool:
    if not _LOST_MARK.search(pattern_text):
        return False
    pieces = _LOST_MARK.split(pattern_text)
    pattern = "(?:['\\-]| ?- ?)?".join(re.escape(piece) for piece in pieces)
    return re.fullmatch(pattern, text) is not None


@given(pattern_text=TEXTS, text=TEXTS)
def test_the_matcher_accepts_what_the_rule_does(pattern_text: str, text: str) -> None:
    assert _matches_lost(pattern_text, text) == _by_regular_expression(pattern_text, text)


def test_restored_marks_read_as_the_same_words() -> None:
    assert same_but_formatting("Choose one ?, or N?[cost]", "Choose one -, or N-[cost]")
    assert same_but_formatting("can\ufffdt", "can't")
    assert same_but_formatting("Gathering?Tempest", "Gathering - Tempest")
    assert not same_but_formatting("can\ufffdt", "cannot")
    assert not same_but_formatting("Is it legal?", "Is it legal.")

"""A text that lost characters in a conversion ("?" or U+FFFD for a dash or an apostrophe)
reads as another when each lost one is put back: as nothing (the spaces beside it, one at
most, stay), an apostrophe, or a dash (the spaces beside it go, as spaces beside a dash are
typography). The matcher walks the pieces between the lost characters; it must accept
exactly what a regular expression of the same rule does."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from archive.normalise import _SPACED_LOST_MARK, _matches_lost, same_but_formatting

# Few letters, many of the characters the rule is about: the cases where pieces, marks and
# spaces meet are the ones worth trying.
TEXTS = st.text(alphabet="ab '-?\ufffd.", max_size=14)


def _by_regular_expression(pattern_text: str, text: str) -> bool:
    parts = _SPACED_LOST_MARK.split(pattern_text)
    if len(parts) == 1:
        return False
    pattern = re.escape(parts[0])
    for left, right, piece in zip(parts[1::3], parts[2::3], parts[3::3], strict=True):
        nothing = " " if left or right else ""
        pattern += f"(?:{re.escape(nothing)}|{re.escape(left + chr(39) + right)}|-)"
        pattern += re.escape(piece)
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
    # the spaces beside a lost dash went with it (2001-09-24's 217.1d; 2008-05-01's 212.2c)
    assert same_but_formatting("the controller\ufffd chooses", "the controller-chooses")
    assert same_but_formatting('"Artifact ? Equipment."', '"Artifact-Equipment."')
    assert not same_but_formatting("can\ufffdt", "can t")
    assert not same_but_formatting("turned face?down", "turned face down")

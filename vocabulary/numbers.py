"""Rule numbers: recognise, order, nest, and cut running text into words.

One definition each, used by the store's readers, the lineage engine, the examples and the
site (whose JavaScript receives `WORD_TOKEN` generated from here).
"""

from __future__ import annotations

import re
from typing import Any

# A clause number: chapter "5", section "504", rule "504.2", subrule "504.2a". ASCII digits
# only, as JavaScript reads `\d`: Python's takes any script's ("７０２.３７"), which a reader's
# typing is brought to first (vocabulary.names.as_typed).
RULE_NUMBER = re.compile(r"^(?:[0-9]|[0-9]{3}|[0-9]{3}\.[0-9]+[a-z]*)$")
# A word for diffs: with inner apostrophes, hyphens and dots ("isn't", "face-down", "504.2"),
# or a run of other characters; each with the white space after it. Written so that Python's
# `re` and JavaScript's RegExp read it the same way.
WORD_TOKEN = r"\s+|\w+(?:['\u2019.-]\w+)*\s*|[^\w\s]+\s*"
_WORD_TOKEN = re.compile(WORD_TOKEN)
# Where a word diff may cut a text into sentences: after a sentence's end (with closing quotes,
# straight or curly, or brackets) and its white space, or after line breaks. A release set in
# curly quotes cuts where one in straight quotes does, so a change of quotes stays small.
SENTENCE_BREAK = r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+|\n+"
# A plain word, as the opening words that pair sentences count them.
PLAIN_WORD = r"\w+"


def is_rule_number(text: str) -> bool:
    """Is `text` written like a clause number (no trailing dot, no spaces)?

    >>> is_rule_number("708.2a"), is_rule_number("5"), is_rule_number("50"), is_rule_number("Morph")
    (True, True, False, False)
    >>> is_rule_number("７０２.３７"), is_rule_number("504.2\\n")
    (False, False)
    """
    return RULE_NUMBER.fullmatch(text) is not None


def sort_key(number: str) -> tuple[Any, ...]:
    """Rule numbers in reading order: 100 < 100.1 < 100.1a < 100.2 < 100.10.

    >>> sorted(["100.10", "100.2", "100.1a", "100"], key=sort_key)
    ['100', '100.1a', '100.2', '100.10']
    """
    head, _, tail = number.partition(".")
    digits = "".join(ch for ch in tail if ch.isdigit())
    letters = tail[len(digits) :]
    return (int(head) if head.isdigit() else 0, int(digits) if digits else -1, letters)


def is_under(number: str, prefix: str) -> bool:
    """Is `number` the clause `prefix` or numbered beneath it?

    A one-digit prefix is a chapter: its sections are the three-digit numbers that start with it.

    >>> is_under("504.2a", "504"), is_under("504.10", "504.1"), is_under("504.1a", "504.1")
    (True, False, True)
    >>> is_under("504", "5"), is_under("504.2", "5"), is_under("5", "5"), is_under("50", "5")
    (True, True, True, False)
    >>> is_under("702.360", "702.36"), is_under("702.36b", "702.36")
    (False, True)
    """
    if number == prefix:
        return True
    if not number.startswith(prefix):
        return False
    rest = number[len(prefix) :]
    if len(prefix) == 1 and prefix.isdigit():
        section = number.partition(".")[0]
        return len(section) == 3 and section.isdigit()
    return rest.isalpha() if "." in prefix else rest.startswith(".")


def tokens(text: str) -> list[str]:
    """The words a word diff compares; joined, they are the text again.

    >>> tokens("(see rule 504.2.) Then")
    ['(', 'see ', 'rule ', '504.2', '.) ', 'Then']
    """
    return _WORD_TOKEN.findall(text)

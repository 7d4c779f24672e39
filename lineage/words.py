"""Words as the aligner compares them: one vocabulary across the 2009 renaming ("in play"
is "on the battlefield"), each word coded as one character for similarity over words
(`WordCodes`), and word counts for how much of one clause another holds
(`share_contained`)."""

from __future__ import annotations

import re
from collections import Counter

from lineage.clause import Clause

STRICT, LOOSE, WITH_CONTEXT = 72.0, 60.0, 45.0  # word-similarity thresholds (0-100)
# A passage that kept its order: most of its words in sequence in the other text (rapidfuzz's
# partial ratio over words), and most of them there at all. The order is evidence the words
# alone are not: a rule that only shares an entry's vocabulary scatters it.
PASSAGE = 70.0
PASSAGE_WORDS = 0.6
WORD = re.compile(r"\w+")
# The first sentence, with its closing quotation mark or parenthesis: '... that damage." If'.
FIRST_SENTENCE = re.compile(r"^.*?[.!?][\"'\u201d\u2019)]*(?=\s|$)", re.DOTALL)
# The 2009 (and 2018) vocabulary folded for similarity only: "in play" is "on the
# battlefield", "removed from the game" is "exiled", a spell is "played" then "cast", an
# ability "played" then "activated", "his or her" is "their". Phrases first, then words.
_PHRASES = {
    "battlefield": (
        "in play",
        "into play",
        "on the battlefield",
        "onto the battlefield",
        # before 2009 the zone itself was "the in-play zone"
        "in the in-play zone",
        "into the in-play zone",
        "in-play zone",
    ),
    "enters battlefield": (
        "comes into play",
        "come into play",
        "came into play",
        "coming into play",
        "enters the battlefield",
        "enter the battlefield",
        "entered the battlefield",
        "entering the battlefield",
        "enters the in-play zone",
        "enter the in-play zone",
    ),
    "exile": (
        "removed from the game",
        "remove from the game",
        "removing from the game",
        "removed-from-the-game",  # the zone's name before 2009: "the exile zone"
    ),
    "their": ("his or her",),
    "they": ("he or she",),
}
_PHRASE_OF = {phrase: folded for folded, phrases in _PHRASES.items() for phrase in phrases}
VOCABULARY_PHRASE = re.compile(
    r"\b(?:" + "|".join(sorted(map(re.escape, _PHRASE_OF), key=len, reverse=True)) + r")\b"
)
# "Remove target creature from the game": the words between stay.
VOCABULARY_REMOVE = re.compile(r"\b(?:remove|removes|removing) ((?:\w+ ){1,4})from the game\b")
# A spell is "played" then "cast", an ability "played" then "activated": one word for all.
_WORDS = {
    "cast": (
        *("play", "plays", "played", "playing", "cast", "casts", "casting"),
        *("activate", "activates", "activated", "activating"),
    ),
    "exile": ("exile", "exiles", "exiled", "exiling"),
}
VOCABULARY_WORD = {word: folded for folded, words in _WORDS.items() for word in words}


def fold_vocabulary(text: str) -> str:
    """Lower-case text in one vocabulary, phrase by phrase (words are folded as they are
    coded).

    >>> fold_vocabulary("it comes into play and is removed from the game")
    'it enters battlefield and is exile'
    >>> fold_vocabulary("remove target creature from the game")
    'exile target creature '
    >>> fold_vocabulary("permanents exist only in the in-play zone")
    'permanents exist only battlefield'
    """
    if "from the game" in text:
        text = VOCABULARY_REMOVE.sub(r"exile \1", text)
    return VOCABULARY_PHRASE.sub(lambda match: _PHRASE_OF[match[0]], text)


class WordCodes:
    """Each distinct word becomes one character, so similarity counts words, not letters.

    The text is first folded to one vocabulary (`VOCABULARY`): a clause that only says
    "battlefield" where it said "in play" keeps most of its similarity.
    """

    def __init__(self) -> None:
        self.codes: dict[str, str] = {}
        self.done: dict[str, str] = {}

    def encode(self, text: str) -> str:
        found = self.done.get(text)
        if found is None:
            found = self.done[text] = self._encode(text)
        return found

    def _encode(self, text: str) -> str:
        folded = fold_vocabulary(text.lower())
        out = []
        for word in WORD.findall(folded):
            word = VOCABULARY_WORD.get(word, word)
            code = self.codes.get(word)
            if code is None:
                code = chr(0x10000 + len(self.codes))
                self.codes[word] = code
            out.append(code)
        return "".join(out)


def word_counts(text: str) -> Counter[str]:
    folded = fold_vocabulary(text.lower())
    return Counter(VOCABULARY_WORD.get(word, word) for word in WORD.findall(folded))


def share_contained(part: Counter[str], whole: Counter[str]) -> float:
    """Share of `part`'s words that `whole` also has."""
    total = sum(part.values())
    return sum((part & whole).values()) / total if total else 0.0


class LazyWords(dict[int, Counter[str]]):
    """The words of each clause, counted when first asked for."""

    def __init__(self, clauses: list[Clause]) -> None:
        super().__init__()
        self.clauses = clauses

    def __missing__(self, index: int) -> Counter[str]:
        self[index] = words = word_counts(self.clauses[index].normalised)
        return words


def first_sentence_text(text: str) -> str:
    found = FIRST_SENTENCE.match(text)
    return found[0] if found else text


def first_sentence_words(text: str) -> Counter[str]:
    return word_counts(first_sentence_text(text))

"""The clauses whose sets of words nearly hold one another (rapidfuzz's `token_set_ratio`),
found without comparing every pair.

The far-move and leftover passes look, for each unpaired new clause, for the old clauses
whose words it nearly holds, or that nearly hold its words, at a high score. Scoring every
pair is most of their time (2009: some 1,400 clauses each side, two million pairs). A score
that high needs many shared words, so a pair that shares none of the rarer words of its
smaller set cannot reach it: only the pairs that do are scored ("prefix filtering" of
set-similarity joins). The answers are those of `rapidfuzz.process.extract` over all
pairs (`tests/test_word_sets.py` holds them to it).

Why the shared words: each word is one code character (`lineage.words.WordCodes`), so
for sets A and B with S = A & B, rapidfuzz's three ratios each fall under `cutoff` unless
|A - S| or |B - S| is at most `extra_words(cutoff)` times |S| (the different words have
no character but the spaces in common). Then S holds at least `shared_share(cutoff)` of
the smaller set.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from rapidfuzz import fuzz


def extra_words(cutoff: float) -> float:
    """How many words beyond the shared ones, per shared word, one of the two sets may have
    and still score `cutoff` (0-100, above 50). The larger of two bounds: against the
    shared words alone, 2(1-c)/c; the two sets against each other, 4(1-c)/(4c-2)."""
    c = cutoff / 100
    return max(2 * (1 - c) / c, 4 * (1 - c) / (4 * c - 2))


def shared_share(cutoff: float) -> float:
    """The least share of the smaller set's words a pair scoring `cutoff` shares."""
    return 1 / (1 + extra_words(cutoff))


class WordSetSearch:
    """The choices (code strings) to search, indexed by their rarer words."""

    def __init__(self, choices: Sequence[str], cutoff: float) -> None:
        self.cutoff = cutoff
        self.spaced = [" ".join(choice) for choice in choices]
        self.sets = [set(choice) for choice in choices]
        self.least = shared_share(cutoff)
        self.frequency: dict[str, int] = defaultdict(int)
        for words in self.sets:
            for word in words:
                self.frequency[word] += 1
        self.holding: dict[str, list[int]] = defaultdict(list)  # word -> choices with it
        self.opening: dict[str, list[int]] = defaultdict(list)  # word -> rare words of
        for c, words in enumerate(self.sets):
            for word in words:
                self.holding[word].append(c)
            for word in self._rarest(words):
                self.opening[word].append(c)

    def _rarest(self, words: set[str]) -> list[str]:
        """The words of a set any set sharing `least` of it must share one of (the rarest
        first: they have the shortest lists). The words unknown to the choices are rarest."""
        keep = len(words) - _ceiling(self.least * len(words)) + 1
        return sorted(words, key=lambda word: (self.frequency.get(word, 0), word))[:keep]

    def candidates(self, query: str) -> set[int]:
        """The choices that may score `cutoff` with `query`: its rarer words are among
        theirs (when it is the smaller), or their rarer words among its (when they are)."""
        words = set(query)
        size = len(words)
        found: set[int] = set()
        for word in self._rarest(words):
            found.update(c for c in self.holding.get(word, ()) if len(self.sets[c]) >= size)
        for word in words:
            found.update(c for c in self.opening.get(word, ()) if len(self.sets[c]) < size)
        return found

    def extract(self, query: str, limit: int) -> list[tuple[float, int]]:
        """(score, choice) of the best `limit` choices scoring at least `cutoff`, best first,
        the earlier choice first among equal scores, as `process.extract` orders them."""
        spaced = " ".join(query)
        scored = []
        for c in self.candidates(query):
            score = fuzz.token_set_ratio(spaced, self.spaced[c], score_cutoff=self.cutoff)
            if score:
                scored.append((score, c))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return scored[:limit]


def _ceiling(value: float) -> int:
    """The least whole number of words at least `value` (a hair under one rounds up)."""
    whole = int(value)
    return whole if value - whole < 1e-9 else whole + 1

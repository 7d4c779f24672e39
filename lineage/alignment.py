"""What an alignment of two releases found (`Alignment`): which old clause each new one
continues, the kind of each change, splits and merges, and the evidence of each decision
(method and score), with what makes a decision weak enough for the site to mark it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# Evidence below this (word similarity plus context, 0-100+) leaves a link uncertain: the
# site marks it. Equal texts, formatting-equal texts and term matches are always certain.
WEAK = 60.0


# How each pairing was decided, strongest first (stored with each event as its evidence).
EQUAL, SAME_FORMAT, SAME_WORDS, SAME_TERM = "equal", "formatting", "references", "term"
# `IN_PLACE`: a pair found by its place between two pairs (not "gap": readers took that for
# a gap in the archive, which the same pages name)
SIMILAR, MOVED_FAR, IN_PLACE, BY_CHILDREN = "similar", "moved", "in-place", "children"
SPLIT_OFF, ABSORBED, UNPAIRED = "split-off", "absorbed", "unpaired"
SENTENCE = "sentence"  # a split piece or absorbed clause found by a sentence it moved
# a rule found to be a piece of a glossary entry by a sentence the entry gave it; its score
# is how well the rule holds that sentence in order (0-100), not a share of moved words
ENTRY_SENTENCE = "entry-sentence"
RENAMED_TERM = "renamed"
ABSORBED_ROLE = "absorbed"  # how `moved_words` names an old clause a merge absorbed
LEFTOVER = "leftover"
CERTAIN_METHODS = (EQUAL, SAME_FORMAT, SAME_WORDS, SAME_TERM)
# Pairings that rest on their words alone, at a lower bar than a far move's (what nothing
# else claimed, found anywhere: `lineage.align.MOVED_LEFT` against `MOVED`): never certain,
# whatever their score.
WORDS_ALONE = (LEFTOVER,)


@dataclass
class Alignment:
    """How a new release continues an old one; indices are into the two clause lists."""

    matches: dict[int, int] = field(default_factory=dict)  # new -> old, one to one
    kinds: dict[int, str] = field(default_factory=dict)  # new -> change kind
    similarity: dict[int, float] = field(default_factory=dict)  # new -> 0..100
    removed: dict[int, str] = field(default_factory=dict)  # old -> removed | merged
    splits: dict[int, list[int]] = field(default_factory=dict)  # old -> new pieces
    merges: dict[int, list[int]] = field(default_factory=dict)  # new -> old absorbed
    method: dict[int, str] = field(default_factory=dict)  # new -> how it was paired
    score: dict[int, float] = field(default_factory=dict)  # new -> evidence that paired it
    # the words that moved: split piece (new) or absorbed clause (old) -> share, 0-100
    moved_words: dict[tuple[str, int], float] = field(default_factory=dict)
    # the best word similarity each clause had to a clause it was not paired with
    nearest_new: dict[int, float] = field(default_factory=dict)
    nearest_old: dict[int, float] = field(default_factory=dict)
    passed_over: dict[int, int] = field(default_factory=dict)  # new -> that nearest old
    passed_over_old: dict[int, int] = field(default_factory=dict)  # old -> that nearest new
    # the pieces and absorbed clauses (as `moved_words` names them) a moved sentence found
    by_sentence: set[tuple[str, int]] = field(default_factory=set)
    # the pieces a glossary entry's sentence found (`lineage.entry_sentences`)
    by_entry_sentence: set[int] = field(default_factory=set)

    def counts(self) -> dict[str, int]:
        counts = Counter(self.kinds.values())
        counts.update(self.removed.values())
        return dict(sorted(counts.items()))

    def pair(self, n: int, o: int, similarity: float, method: str, score: float) -> None:
        self.matches[n] = o
        self.similarity[n] = round(similarity, 1)
        self.method[n] = method
        self.score[n] = round(score, 1)

    def evidence_new(self, n: int) -> tuple[str, float | None, bool]:
        """How new clause `n` was decided: method, score, and whether that is weak.

        A pairing is weak below `WEAK` (unless the texts were equal), and always when it
        rests on its words alone (`WORDS_ALONE`); a split piece when under `WEAK` of its words
        come from what its source lost (never one found by a sentence it took word for word:
        `SENTENCE`; one a glossary entry's sentence found, `ENTRY_SENTENCE`, is scored by how
        well it holds that sentence); an added clause when some old clause was at least `WEAK`
        similar to it (its predecessor may have been missed).
        """
        if ("piece", n) in self.by_sentence:
            return SENTENCE, self.moved_words[("piece", n)], False
        if n in self.by_entry_sentence:
            score = self.moved_words[("piece", n)]
            return ENTRY_SENTENCE, score, score < WEAK
        if ("piece", n) in self.moved_words:
            share = self.moved_words[("piece", n)]
            return SPLIT_OFF, share, share < WEAK
        if n in self.matches:
            method, score = self.method[n], self.score[n]
            weak = method in WORDS_ALONE or (method not in CERTAIN_METHODS and score < WEAK)
            return method, score, weak
        nearest = self.nearest_new.get(n)
        return UNPAIRED, nearest, nearest is not None and nearest >= WEAK

    def evidence_old(self, o: int) -> tuple[str, float | None, bool]:
        """How old clause `o`, which does not continue, was decided (see `evidence_new`)."""
        if ("absorbed", o) in self.by_sentence:
            return SENTENCE, self.moved_words[("absorbed", o)], False
        if ("absorbed", o) in self.moved_words:
            share = self.moved_words[("absorbed", o)]
            return ABSORBED, share, share < WEAK
        nearest = self.nearest_old.get(o)
        return UNPAIRED, nearest, nearest is not None and nearest >= WEAK

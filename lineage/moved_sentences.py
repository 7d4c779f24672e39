"""Sentences that moved, word for word, from one clause to another: the plainest evidence of
a split or a merge, and one the word counts miss when the sentence is a small part of
either clause (2009: "Objects may have multiple subtypes." left 205.3c, which went away,
for 204.3b, which continues 205.3b).

A sentence is evidence only when it is a statement (`SENTENCE_WORDS`) said by one clause of
each release: a sentence many rules repeat ("This is a state-based action.") says nothing of
where one of them went.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from lineage.alignment import ABSORBED_ROLE, Alignment
from lineage.clause import Clause
from lineage.words import WORD, fold_vocabulary

SENTENCE_WORDS = 5  # a statement; shorter sentences ("See rule 601.") are asides many share
SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)]*\s+")
# a pointer, however long, states nothing (as `_words` spaces them)
CITATIONS = (" see rule ", " see rules ", " see section ")
CLAUSES_APART = "\n"  # between two clauses' words: no sentence spans two clauses
MOVED_SENTENCE = 100.0  # the share of the moved words a verbatim sentence shows
# Texts whose words are kept: a release's rules, and most of the next one's, which are the
# same texts (a worker aligns releases in turn).
KEPT_TEXTS = 1 << 14


def _folded_words(text: str) -> str:
    """`text` as its lower-case words in one vocabulary, spaced, with a space at each end."""
    return f" {' '.join(WORD.findall(fold_vocabulary(text.lower())))} "


_words = lru_cache(maxsize=KEPT_TEXTS)(_folded_words)  # a clause's text, kept


def sentences(text: str) -> list[str]:
    """The statements of `text` (`SENTENCE_WORDS` or more, no citation), as `_words`
    (not kept: a sentence is read once, and would push the clauses' texts out)."""
    found = []
    for sentence in SENTENCE_END.split(text):
        words = _folded_words(sentence)
        if words.count(" ") > SENTENCE_WORDS and not words.startswith(CITATIONS):
            found.append(words)
    return found


class _Release:
    """The words of one release's rules, each clause's once asked for, the whole on demand
    (only a transition where a sentence seems to have moved reads every rule)."""

    def __init__(self, clauses: list[Clause]) -> None:
        self.clauses = clauses
        self.whole: str | None = None

    def of(self, i: int) -> str:
        return _words(self.clauses[i].normalised)

    def said_once(self, sentence: str) -> bool:
        """True when one clause of the release says `sentence`, once."""
        if self.whole is None:
            self.whole = CLAUSES_APART.join(
                self.of(i) for i, clause in enumerate(self.clauses) if is_content_rule(clause)
            )
        return self.whole.count(sentence) == 1


def is_content_rule(clause: Clause) -> bool:
    """A rule or subrule that says something: not a heading."""
    return clause.group == "rule" and not clause.heading


def find_moved_sentences(old: list[Clause], new: list[Clause], result: Alignment) -> None:
    """Attach what the word counts left: an old rule that went away, one of whose sentences
    a rewritten new rule now says, was merged into it; a new rule that says a sentence a
    rewritten old rule no longer says was split off it. Each sentence said once in each
    release (`_Release.said_once`)."""
    before, after = _Release(old), _Release(new)
    new_of = {o: n for n, o in result.matches.items()}
    absorbed = {o for olds in result.merges.values() for o in olds}
    pieces = {n for found in result.splits.values() for n in found}
    rewritten_new = [
        n
        for n, o in result.matches.items()
        if new[n].normalised != old[o].normalised and is_content_rule(new[n])
    ]
    rewritten_old = [result.matches[n] for n in rewritten_new]
    gone = [o for o in range(len(old)) if o not in new_of and is_content_rule(old[o])]
    for o, n in _moved(gone, before, rewritten_new, after, absorbed):
        result.merges.setdefault(n, []).append(o)
        result.merges[n].sort()
        result.moved_words[(ABSORBED_ROLE, o)] = MOVED_SENTENCE
        result.by_sentence.add((ABSORBED_ROLE, o))
    unpaired = [n for n in range(len(new)) if n not in result.matches and is_content_rule(new[n])]
    for n, o in _moved(unpaired, after, rewritten_old, before, pieces):
        result.splits.setdefault(o, []).append(n)
        result.splits[o].sort()
        result.moved_words[("piece", n)] = MOVED_SENTENCE
        result.by_sentence.add(("piece", n))


def _moved(
    these: list[int], here: _Release, those: list[int], there: _Release, attached: set[int]
) -> Iterator[tuple[int, int]]:
    """(clause of `these`, clause of `those` that says one of its sentences), each clause of
    `these` at most once and none already `attached`: the sentence is said once on each side.
    A clause of `those` is rewritten, so the sentence is new to it (it was said once)."""
    these = [i for i in these if i not in attached]
    if not these or not those:
        return
    rewritten = CLAUSES_APART.join(there.of(j) for j in those)
    for i in these:
        for sentence in sentences(here.clauses[i].normalised):
            if (
                rewritten.count(sentence) == 1
                and here.of(i).count(sentence) == 1
                and here.said_once(sentence)
                and there.said_once(sentence)
            ):
                yield i, next(j for j in those if sentence in there.of(j))
                break

"""Align one release with the one before it: which old clause each new clause continues.

Pure functions over plain `Clause` rows; nothing here touches the store. Identity comes from
content, never from the number (numbers are reused after renumbering):

1. the same normalised text (typography folded), then the same text with every rule number
   masked (a change only in cross-references), then, for glossary entries, the same term;
2. word similarity (words mapped to characters, rapidfuzz's Indel ratio, so a rewording such
   as "in play" -> "on the battlefield" costs a few words, not a few dozen letters), helped
   by context: a parent that maps to the new parent, a neighbour that maps to the neighbour,
   the same number;
3. what is left: a new clause drawn from an old one that continues elsewhere is a `split`,
   an old clause absorbed by a new one that continues another is `merged`.

Examples are not aligned: they follow their rule (lineages cover chapters, sections, rules,
subrules and glossary entries).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import NamedTuple

from rapidfuzz import fuzz, process

from lineage.alignment import (
    ABSORBED_ROLE,
    BY_CHILDREN,
    CERTAIN_METHODS,
    EQUAL,
    IN_PLACE,
    LEFTOVER,
    MOVED_FAR,
    RENAMED_TERM,
    SAME_FORMAT,
    SAME_TERM,
    SAME_WORDS,
    SIMILAR,
    Alignment,
)
from lineage.change_kind import cited_rules, formatting_key_kept, kind_of_change, masked
from lineage.clause import Clause, index_by_number
from lineage.splits import (
    CONTAINED,
    MOVED_WORDS,
    RESTATED,
    RulesByRareWords,
    find_splits_and_merges,
    partners_around,
)
from lineage.word_sets import WordSetSearch
from lineage.words import (
    LOOSE,
    STRICT,
    WITH_CONTEXT,
    WORD,
    WordCodes,
    fold_vocabulary,
    share_contained,
    word_counts,
)
from vocabulary.kinds import (
    ADDED,
    MERGED,
    REMOVED,
    SPLIT,
    UNCHANGED,
)

OBSOLETE = re.compile(r"\(Obsolete\)", re.IGNORECASE)
_TERM_NOTE = re.compile(r"\s*\((?:Obsolete|Informal|Deprecated)\)", re.IGNORECASE)
_TERM_QUOTES = "\"'\u201c\u201d\u2018\u2019"  # '"As Though"' is the entry As Though
MAX_GAP = 24  # longer gaps are not filled: their order says little
MOVED = 85.0  # token-set similarity for a clause found far from where it was, most words kept
MOVED_LEFT = 70.0  # the same for clauses nothing else claims, its place no evidence against it
IN_GAP = 20.0  # enough for a clause between two pairs, in the same place under the same parent
EXAMPLES_KEPT = STRICT  # examples as alike as a pair of rules on words alone: the same examples
MAX_ROUNDS = 4  # rounds of pairing, each with the context the one before found; few need 3
CANDIDATES = 12  # most similar clauses considered for each: families of alike rules are big
FAR_CANDIDATES = 3  # found anywhere by their words alone: the best few, the rest are noise
# A glossary entry renamed (`_pair_renamed_entries`): its evidence adds up from the term's
# words (all shared: 2; else the share shared), a cited rule whose successor the new entry
# cites (1) or cites a rule under (0.5), a definition that names the other term when the
# terms share no word (0.5), and
# one that kept its words (`STRICT`: 1); one whole sign is enough, half signs need another.
TERM_WEIGHT, CITED_SAME, CITED_UNDER, NAMED, SAME_DEFINITION = 2.0, 1.0, 0.5, 0.5, 1.0
RENAMED = 1.0
# paired children of a heading that all went elsewhere deny a pairing by its title or place
# when at least this many: one child may move alone
CHILDREN_AGAINST = 2
STEM = 3  # shorter words than this are no stem: "on" does not prefix "once"
TERM_STOP_WORDS = frozenset(("a", "an", "the", "of", "on", "to", "into", "and", "or"))
_NORMALISED = attrgetter("normalised")  # the key of equal texts


def align(old: list[Clause], new: list[Clause], codes: WordCodes | None = None) -> Alignment:
    """Classify every clause of `new` against `old` (both in document order).

    Equal texts pair first (they are certain); everything else competes in one ranking of
    candidate pairs by evidence, so that a strong match far away beats a weak one nearby.
    `codes` may be kept from one alignment to the next, as a run of releases is aligned:
    most texts repeat, and each is then coded once (a code only says which words are the
    same, so the scores do not depend on the texts coded before).
    """
    result = Alignment()
    free = _Free(list(range(len(old))), list(range(len(new))))
    _pair_equal(old, new, result, _NORMALISED, EQUAL, free)
    _pair_equal(old, new, result, lambda c: formatting_key_kept(c.normalised), SAME_FORMAT, free)
    _pair_equal(old, new, result, lambda c: masked(c.normalised), SAME_WORDS, free)
    _pair_equal(
        old,
        new,
        result,
        lambda c: (c.title or "").lower() if c.kind == "glossary" else None,
        SAME_TERM,
        free,
    )
    _pair_equal(old, new, result, _bare_term, SAME_TERM, free)
    codes = WordCodes() if codes is None else codes
    if len(result.matches) not in (len(old), len(new)):  # something left on both sides
        _pair_the_rest(old, new, result, codes)
        followed = _follow_children(old, new, result, codes)
        if _leave_headings_their_children_left(old, new, result, codes) or followed:
            _pair_by_children(old, new, result, codes)  # the heading given up, by its own
    find_splits_and_merges(old, new, result, codes, _KeywordTest(old, new, result))
    _merge_headings_by_children(old, new, result)
    _classify(old, new, result)
    return result


def _pair_the_rest(
    old: list[Clause], new: list[Clause], result: Alignment, codes: WordCodes
) -> None:
    """Strong similarities first (they give the context: parents, neighbours), then every
    kind of candidate at once, again while the context found in a round pairs more; then
    what nothing claimed."""
    _pair_best_first(old, new, result, codes)
    _pair_kept_headings(old, new, result, codes)
    _pair_by_children(old, new, result, codes)
    pool = _Pool()
    for _round in range(MAX_ROUNDS):
        paired = len(result.matches)
        _pair_best_first(old, new, result, codes, pool)
        _pair_by_children(old, new, result, codes)
        if len(result.matches) == paired:
            break
    _pair_leftovers(old, new, result, codes)
    _pair_renamed_entries(old, new, result, codes)
    _pair_headings_with_rules(old, new, result, codes)


def _bare_term(clause: Clause) -> str | None:
    """A glossary term without its note: "Fizzle (Informal)" -> "fizzle". An obsolete term
    keeps its mark: "Totem Armor (Obsolete)" (2024) is a new entry pointing to the one that
    continues "Totem Armor" under its new name, Umbra Armor; similarity decides which."""
    if clause.kind != "glossary" or not clause.title:
        return None
    bare = _TERM_NOTE.sub("", clause.title).strip().strip(_TERM_QUOTES).lower()
    return f"{bare} (obsolete)" if OBSOLETE.search(clause.title) else bare


class _Free(NamedTuple):
    """The indices of the clauses no pass of equal keys has paired yet, on each side, in
    order: after the first pass (equal texts) only a few percent are left, and the later
    passes look at those alone."""

    old: list[int]
    new: list[int]


def _pair_equal(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    key: Callable[[Clause], str | None],
    method: str,
    free: _Free,
) -> None:
    """Pair clauses of the same kind whose keys are equal; among equals, the same number
    first, then order. A heading whose title is not unique ("General") or that changed level
    ("Zones", section 217, became chapter 4) is left to the evidence of context.

    Pairs are made in the order of each key's first new clause. Nearly every key is once
    on each side (the first pass sees every clause of two releases that share most of their
    texts): such a pair is made at once, and only repeated keys are grouped (`_Keys`)."""
    if not free.old or not free.new:
        return  # nothing is left on one side
    olds, news = _Keys(old, free.old, key), _Keys(new, free.new, key)
    repeated = olds.repeated() | news.repeated()
    made: list[tuple[int, int]] = []  # (new, old), in the order they are made
    for value, n in zip(news.values, free.new, strict=True):
        if value is None or value not in olds.count:
            continue
        group = new[n].pairing
        if value in repeated:
            olds_alike = olds.alike(group, value, repeated)
            news_alike = news.alike(group, value, repeated)
            if not olds_alike or news_alike[0] != n:
                continue  # no old clause of its kind, or paired with the key's first one
            if len(olds_alike) > 1 or len(news_alike) > 1:
                if group != "heading":  # "General" heads many: context decides which
                    made.extend(_pair_in_order(old, new, olds_alike, news_alike))
                continue
            o = olds_alike[0]
        else:
            o = olds.unique[value]
            if old[o].pairing != group:
                continue
        if group == "heading" and old[o].kind != new[n].kind:
            continue  # a heading that changed level: its children and title decide
        made.append((n, o))
    if made:
        news_made = [n for n, _o in made]
        result.matches.update(made)
        result.similarity.update(dict.fromkeys(news_made, 100.0))
        result.method.update(dict.fromkeys(news_made, method))
        result.score.update(dict.fromkeys(news_made, 100.0))
        taken = set(result.matches.values())
        free.old[:] = [index for index in free.old if index not in taken]
        free.new[:] = [index for index in free.new if index not in result.matches]


class _Keys:
    """The keys of some clauses of a release (`indices`, in order): how often each occurs,
    the clause of each key found once, and the clauses of each repeated key by group."""

    def __init__(
        self, clauses: list[Clause], indices: list[int], key: Callable[[Clause], str | None]
    ) -> None:
        self.clauses, self.indices = clauses, indices
        self.values = [key(clauses[i]) for i in indices]
        self.count = Counter(self.values)
        self.unique = dict(zip(self.values, indices, strict=True))  # right for keys once
        self._alike: dict[tuple[str, str], list[int]] | None = None

    def repeated(self) -> set[str]:
        return {value for value, times in self.count.items() if times > 1 and value is not None}

    def alike(self, group: str, value: str, repeated: set[str]) -> list[int]:
        """The clauses (in order) of key `value` and group `group`, one of the `repeated`."""
        if self._alike is None:
            self._alike = {}
            for v, i in zip(self.values, self.indices, strict=True):
                if v is not None and v in repeated:
                    self._alike.setdefault((self.clauses[i].pairing, v), []).append(i)
        return self._alike.get((group, value), [])


def _pair_in_order(
    old: list[Clause], new: list[Clause], olds: list[int], news: list[int]
) -> Iterable[tuple[int, int]]:
    if not olds:
        return
    if len(olds) == 1 and len(news) == 1:
        yield news[0], olds[0]
        return
    by_number: dict[str, list[int]] = defaultdict(list)
    for o in olds:
        by_number[old[o].label].append(o)
    used, rest_new = set(), []
    for n in news:
        same = by_number.get(new[n].label)
        if same:
            used.add(same[0])
            yield n, same.pop(0)
        else:
            rest_new.append(n)
    yield from zip(rest_new, [o for o in olds if o not in used], strict=False)


@dataclass
class _Pool:
    """Candidate pairs found by their words, kept across rounds: a round changes the context
    (and so the ranking), not the words."""

    similar: list[tuple[int, int, float]] | None = None
    moved: list[tuple[int, int, float]] | None = None


def _pair_best_first(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    codes: WordCodes,
    pool: _Pool | None = None,
) -> None:
    """Every candidate pair of the clauses left, ranked by its evidence, taken best first.

    Candidates come from word similarity (helped by context), from clauses found far from
    where they were (nearly all words of one in the other), and from gaps between paired
    clauses (the same place under the same parent, where a weak similarity is enough); all
    compete in one ranking, so a weak positional pair never beats a strong distant one.
    Without a `pool`, only strong similarities are taken (the first round).
    """
    taken = set(result.matches.values())
    context = _Context(old, new, result)
    if pool is None:
        raw = _similar_pairs(old, new, result, taken, codes, both_ways=False)
        changes_level = _may_change_level(old, new, raw)
        candidates = [
            candidate
            for candidate in _similar_candidates(old, new, raw, result, taken, context)
            if candidate[0] >= STRICT and candidate[3] not in changes_level
        ]
    else:
        if pool.similar is None:
            pool.similar = _similar_pairs(old, new, result, taken, codes)
        candidates = list(_similar_candidates(old, new, pool.similar, result, taken, context))
        if pool.moved is None:
            strong = [(n, o) for total, _score, n, o, _method in candidates if total >= MOVED]
            settled = {o for _n, o in strong} | taken, {n for n, _o in strong}
            pool.moved = _moved_pairs(old, new, result, settled, codes)
        candidates.extend(_moved_candidates(pool.moved, result, taken, context))
        candidates.extend(_gap_candidates(old, new, result, taken, codes, context))
    candidates.sort(key=lambda item: (-item[0], -item[1], item[2], item[3]))
    pieces = _PieceTest(old, new, result)
    for total, score, n, o, method in candidates:
        if (
            n not in result.matches
            and o not in taken
            and not context.another_keyword(o, n)
            and not (method == IN_PLACE and pieces.reads_as_piece(n, o))
        ):
            result.pair(n, o, score, method, total)
            taken.add(o)
        else:
            if score > result.nearest_new.get(n, 0.0):
                result.nearest_new[n] = score
                result.passed_over[n] = o
            if score > result.nearest_old.get(o, 0.0):
                result.nearest_old[o] = score
                result.passed_over_old[o] = n
    if pool is None:
        _note_strong_passed_over(old, new, raw, result, taken)


def _may_change_level(
    old: list[Clause], new: list[Clause], raw: list[tuple[int, int, float]]
) -> set[int]:
    """Old headings whose title is as strongly like a heading of another level: 2009's rule
    heading 217.7 "Removed from the Game" is both section 406 "Exile" (where its rules went)
    and the keyword action 701.9 "Exile". The first round has no context to tell them apart;
    later rounds know where its children and its parent went. A heading that kept its
    number and title ("400. General") is no such case."""
    strong = [(n, o) for n, o, score in raw if score >= STRICT and old[o].heading]
    kept = {o for n, o in strong if old[o].label == new[n].label}
    return {o for n, o in strong if old[o].kind != new[n].kind and o not in kept}


def _note_strong_passed_over(
    old: list[Clause],
    new: list[Clause],
    raw: list[tuple[int, int, float]],
    result: Alignment,
    taken: set[int],
) -> None:
    """A strong similarity whose context was against it (a rule restated in another section,
    2009: 215.4a -> 117.4a, and again as 806.9d) is still the nearest clause of a clause left
    unpaired: later rounds no longer see it, since its other side is taken. Only when the
    unpaired one says nothing that the other and its partner do not (`RESTATED`): a new
    keyword's rule made on another's template (Fortify on Equip) names its own keyword."""
    paired_new = {o: n for n, o in result.matches.items()}
    for n, o, score in raw:
        if score < STRICT:
            continue
        unpaired_new = n not in result.matches and o in taken
        if (
            unpaired_new
            and score > result.nearest_new.get(n, 0.0)
            and _restates(new[n], old[o], new[paired_new[o]])
        ):
            result.nearest_new[n] = score
            result.passed_over[n] = o
        unpaired_old = o not in taken and n in result.matches
        if (
            unpaired_old
            and score > result.nearest_old.get(o, 0.0)
            and _restates(old[o], new[n], old[result.matches[n]])
        ):
            result.nearest_old[o] = score
            result.passed_over_old[o] = n


def _restates(clause: Clause, other: Clause, partner: Clause) -> bool:
    """True when (nearly) every word of `clause` is in `other` or in `other`'s partner."""
    words = word_counts(clause.normalised)
    return (
        share_contained(words, word_counts(other.normalised) | word_counts(partner.normalised))
        >= RESTATED
    )


def _similar_candidates(
    old: list[Clause],
    new: list[Clause],
    raw: list[tuple[int, int, float]],
    result: Alignment,
    taken: set[int],
    context: _Context,
) -> Iterable[tuple[float, float, int, int, str]]:
    """The similar pairs among the clauses left, each with its context."""
    for n, o, score in raw:
        if n in result.matches or o in taken:
            continue
        bonus = context.bonus(o, n)
        if old[o].heading and old[o].kind != new[n].kind and (score < STRICT or bonus <= 0):
            continue  # a heading changes level when its title and its place say so
        total = score + bonus
        if total >= LOOSE:
            yield total, score, n, o, SIMILAR


def _similar_pairs(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    taken: set[int],
    codes: WordCodes,
    both_ways: bool = True,
) -> list[tuple[int, int, float]]:
    """(new, old, word similarity): the old clauses most similar to each new one (and,
    `both_ways`, the new clauses most similar to each old one: a clause among many alike is
    then still found)."""
    olds_of, news_of = defaultdict(list), defaultdict(list)
    for o in (i for i in range(len(old)) if i not in taken):
        olds_of[old[o].pairing].append(o)
    for n in (i for i in range(len(new)) if i not in result.matches):
        news_of[new[n].pairing].append(n)
    found: dict[tuple[int, int], float] = {}
    for group, news in news_of.items():
        olds = olds_of.get(group)
        if not olds:
            continue
        choices, queries = [old[i] for i in olds], [new[i] for i in news]
        forward, back = _most_similar(codes, choices, queries, both_ways)
        # headings are few and their titles repeat ("General"): every one is a candidate
        limit = None if group == "heading" else CANDIDATES
        pairs = [(q, c, score) for row in forward for q, c, score in row[:limit]]
        if both_ways:
            pairs.extend((q, c, score) for column in back for c, q, score in column[:limit])
        for query, choice, score in pairs:
            found[(news[query], olds[choice])] = score
    return [(n, o, score) for (n, o), score in found.items()]


def _most_similar(
    codes: WordCodes, choices: list[Clause], queries: list[Clause], both_ways: bool
) -> tuple[list[list[tuple[int, int, float]]], list[list[tuple[int, int, float]]]]:
    """The word similarities of every query with every choice, at least `WITH_CONTEXT`: for
    each query, (query, choice, similarity) most similar first; and (`both_ways`) for each
    choice, (choice, query, similarity) so. Ties keep the order of the lists (rapidfuzz's
    `extract` order).

    The similarity is symmetric, so one pass over the pairs serves both ways."""
    encoded = [codes.encode(clause.normalised) for clause in choices]
    rows: list[list[tuple[int, int, float]]] = []
    columns: list[list[tuple[int, int, float]]] = [[] for _ in choices]
    for q, clause in enumerate(queries):
        found = process.extract(
            codes.encode(clause.normalised),
            encoded,
            scorer=fuzz.ratio,
            limit=None,
            score_cutoff=WITH_CONTEXT,
        )
        rows.append([(q, c, score) for _choice, score, c in found])
        if both_ways:
            for _choice, score, c in found:
                columns[c].append((c, q, score))
    for column in columns:
        column.sort(key=lambda pair: -pair[2])  # stable: queries in order among equals
    return rows, columns


def _moved_pairs(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    exclude: tuple[set[int], set[int]],
    codes: WordCodes,
) -> list[tuple[int, int, float]]:
    """(new, old, evidence) for clauses that moved far and changed a little ("you" in a
    card's text isn't a target -> in an object's text): nearly all words of the shorter one
    are in the longer one. Containment alone flatters a short clause inside a long one, so
    the plain similarity counts for half of the evidence.

    Clauses `settled` by a similar candidate at least as strong are not searched: a moved
    candidate could hardly beat it.
    """
    taken, settled = exclude
    olds = [o for o in range(len(old)) if o not in taken and _long_enough(old[o])]
    if not olds:
        return []
    search = WordSetSearch([codes.encode(old[o].normalised) for o in olds], MOVED)
    news = [n for n in range(len(new)) if n not in result.matches and n not in settled]
    found = []
    for n in (n for n in news if _long_enough(new[n])):
        for score, position in search.extract(codes.encode(new[n].normalised), FAR_CANDIDATES):
            o = olds[position]
            if old[o].pairing == new[n].pairing:
                found.append((n, o, (score + _similarity(old[o], new[n], codes)) / 2))
    return found


def _moved_candidates(
    raw: list[tuple[int, int, float]], result: Alignment, taken: set[int], context: _Context
) -> Iterable[tuple[float, float, int, int, str]]:
    for n, o, evidence in raw:
        if n in result.matches or o in taken:
            continue
        total = evidence + context.bonus(o, n)
        if total >= LOOSE:
            yield total, evidence, n, o, MOVED_FAR


def _pair_leftovers(
    old: list[Clause], new: list[Clause], result: Alignment, codes: WordCodes
) -> None:
    """Clauses nothing claimed, rewritten as they moved (2009: "Each object has a controller"
    became part of 108-110): most words of one are in the other, and where the clause sits
    is no evidence against it, since a reorganisation moves everything. Only here does an
    old heading that nothing continues count as gone where its title went (`_absorbed_by`):
    earlier, while headings are still being paired, that guess would outvote their children.
    """
    taken = set(result.matches.values())
    olds = [o for o in range(len(old)) if o not in taken and _long_enough(old[o])]
    news = [n for n in range(len(new)) if n not in result.matches and _long_enough(new[n])]
    if not olds or not news:
        return
    context = _Context(old, new, result, codes)
    search = WordSetSearch([codes.encode(old[o].normalised) for o in olds], MOVED_LEFT)
    candidates = []
    for n in news:
        for score, position in search.extract(codes.encode(new[n].normalised), FAR_CANDIDATES):
            o = olds[position]
            if old[o].pairing != new[n].pairing:
                continue
            evidence = (score + _similarity(old[o], new[n], codes)) / 2
            total = evidence + max(0.0, context.bonus(o, n))
            if total >= LOOSE:
                candidates.append((total, evidence, n, o))
    if not candidates:
        return  # most releases: the tests below would read every clause for nothing
    candidates.sort(key=lambda item: (-item[0], -item[1], item[2], item[3]))
    pieces = _PieceTest(old, new, result)
    restated = _RestatedTest(old, new, result)
    for total, evidence, n, o in candidates:
        if (
            n not in result.matches
            and o not in taken
            and not pieces.is_piece(n, o)
            and not restated.elsewhere(o, n)
            and not context.another_keyword(o, n)
        ):
            result.pair(n, o, evidence, LEFTOVER, total)
            taken.add(o)


class _PieceTest:
    """Whether a new clause reads as a piece split off a neighbour's source rather than as
    the continuation of the old clause a weak leftover pairing would give it (2017: 708.3
    "A player chooses which half of a split card he or she is casting" is the first sentence
    of 708.2a, whose rest is 708.3a; the old 708.3 on multicolored split cards, which shares
    half its words, went nowhere)."""

    def __init__(self, old: list[Clause], new: list[Clause], result: Alignment) -> None:
        self.old, self.new, self.result = old, new, result
        self.old_at = index_by_number(old)

    def reads_as_piece(self, n: int, o: int) -> bool:
        """True when new clause `n`, offered old clause `o` by its place alone, holds most of
        its words (`CONTAINED`) in an old clause near it that continues elsewhere, most of
        them (`MOVED_WORDS`) words that clause lost, and more of them there than in `o`
        (2009: 202.1a "... Paying an object's mana cost requires matching the color ..." is
        203.1's last sentence; 203.1a, after it in the gap, on copies, went nowhere)."""
        words = word_counts(self.new[n].normalised)
        own = share_contained(words, word_counts(self.old[o].normalised))
        partner = {source: kept for kept, source in self.result.matches.items()}
        for source in partners_around(n, self.result.matches, self.old, self.old_at):
            if source == o or source not in partner:
                continue
            whole = word_counts(self.old[source].normalised)
            share = share_contained(words, whole)
            if share < CONTAINED or share <= own:
                continue
            lost = whole - word_counts(self.new[partner[source]].normalised)
            if share_contained(words, lost) >= MOVED_WORDS:
                return True
        return False

    def is_piece(self, n: int, o: int) -> bool:
        """True when nearly all of new clause `n`'s words (`RESTATED`) are in an old clause
        near it, other than `o`, and most of them (`MOVED_WORDS`) are words that clause lost
        where it continues."""
        words = word_counts(self.new[n].normalised)
        partner = {source: kept for kept, source in self.result.matches.items()}
        for source in partners_around(n, self.result.matches, self.old, self.old_at):
            if source == o or source not in partner:
                continue
            whole = word_counts(self.old[source].normalised)
            if share_contained(words, whole) < RESTATED:
                continue
            lost = whole - word_counts(self.new[partner[source]].normalised)
            if share_contained(words, lost) >= MOVED_WORDS:
                return True
        return False


class _RestatedTest:
    """Whether an old clause was taken into the rewrite of a clause that continues another,
    rather than continuing in the new clause a weak leftover pairing would give it (2023:
    713.12, naming a meld card, is said word for word in 712.19, which continues 712.15 on
    naming a double-faced card; 701.19j, on searching outside the game, shares only the
    template "If an effect instructs a player to ...")."""

    def __init__(self, old: list[Clause], new: list[Clause], result: Alignment) -> None:
        self.old, self.new, self.result = old, new, result
        self.rules = RulesByRareWords(new)  # read when a candidate first reaches it

    def elsewhere(self, o: int, n: int) -> bool:
        """True when nearly all of old clause `o`'s words (`RESTATED`) are in a rewritten new
        clause other than `n`, and most of them (`MOVED_WORDS`) are words that clause gained
        (those its own predecessor lacks), while `n` lacks some of them (2009: 419.2's
        "Replacement and prevention effects apply continuously ..." is said by both 613.1
        and 614.1, and continues in 614.1)."""
        words = word_counts(self.old[o].normalised)
        if share_contained(words, word_counts(self.new[n].normalised)) >= RESTATED:
            return False  # `n` says it all as well: no better home than the pairing's
        matches = self.result.matches
        for m in self.rules.having(words):
            before = self.old[matches[m]] if m in matches else None
            if m == n or before is None or before.normalised == self.new[m].normalised:
                continue  # not paired, or not rewritten: nothing was taken into it
            whole = word_counts(self.new[m].normalised)
            if share_contained(words, whole) < RESTATED:
                continue
            gained = whole - word_counts(before.normalised)
            if share_contained(words, gained) >= MOVED_WORDS:
                return True
        return False


def _term_words(text: str) -> list[str]:
    """The words of a glossary term that say something, in one vocabulary."""
    folded = fold_vocabulary(_TERM_NOTE.sub("", text).lower())  # phrases only: "play" stays
    return [word for word in WORD.findall(folded) if word not in TERM_STOP_WORDS]


def _same_stem(a: str, b: str) -> bool:
    """True for words of one stem: "flip" and "flipping", "depend" and "dependency"."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short) and len(short) >= STEM


def _shared_term_words(these: list[str], those: list[str]) -> float:
    """Share of the longer term's words that the other term has (by stem)."""
    if not these or not those:
        return 0.0
    shared = sum(any(_same_stem(word, other) for other in those) for word in these)
    return shared / max(len(these), len(those))


def _terms_share_a_word(this: str, that: str) -> bool:
    """True when two terms or titles share a word that says something (by stem)."""
    return _shared_term_words(_term_words(this), _term_words(that)) > 0


def _words_said(term: list[str], text: str) -> int:
    """How many words of `term` are in `text` (lower case; by stem)."""
    words = WORD.findall(fold_vocabulary(text))
    return sum(any(_same_stem(t, word) for word in words) for t in term)


def _mentions(term: list[str], text: str) -> bool:
    """True when every word of `term` is in `text` (by stem): the definition names it."""
    return bool(term) and _words_said(term, text) == len(term)


def _pair_renamed_entries(
    old: list[Clause], new: list[Clause], result: Alignment, codes: WordCodes
) -> None:
    """Glossary entries nothing claimed whose term changed (2009: "Comes into Play" ->
    "Enters the Battlefield", "Ending the Turn" -> "End the Turn"; 2024: "Totem Armor" ->
    "Umbra Armor"). The rewritten definitions share few words, so the evidence is the term
    (its words, vocabulary folded, by stem), a definition that names the other term, and
    the rules cited: the successor of a rule the old entry cited (or a rule under it).
    Best evidence first, each entry once (`RENAMED`)."""
    taken = set(result.matches.values())
    olds = [o for o, c in enumerate(old) if c.kind == "glossary" and o not in taken]
    news = [n for n, c in enumerate(new) if c.kind == "glossary" and n not in result.matches]
    if not olds or not news:
        return
    number_map = {old[o].number: new[n].number for n, o in result.matches.items()}
    parent_of = {clause.number: clause.parent for clause in new}
    terms_old = {o: _term_words(old[o].title or "") for o in olds}
    terms_new = {n: _term_words(new[n].title or "") for n in news}
    candidates = []
    for o in olds:
        went = {number_map.get(number, number) for number in cited_rules(old[o])}
        went.discard(None)
        for n in news:
            shared = _shared_term_words(terms_old[o], terms_new[n])
            evidence = TERM_WEIGHT if shared == 1.0 else shared
            cited = cited_rules(new[n])
            if any(number in went for number in cited):
                evidence += CITED_SAME
            elif any(parent_of.get(number) in went for number in cited):
                evidence += CITED_UNDER
            if not shared and (
                _mentions(terms_new[n], old[o].normalised.lower())
                or _mentions(terms_old[o], new[n].normalised.lower())
            ):
                evidence += NAMED
            similarity = _similarity(old[o], new[n], codes)
            if similarity >= STRICT:
                evidence += SAME_DEFINITION
            if evidence >= RENAMED:
                candidates.append((evidence, similarity, n, o))
    candidates.sort(key=lambda item: (-item[0], -item[1], item[2], item[3]))
    for evidence, similarity, n, o in candidates:
        if n not in result.matches and o not in taken:
            result.pair(n, o, similarity, RENAMED_TERM, 100.0 * evidence / TERM_WEIGHT)
            taken.add(o)


def _gap_candidates(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    taken: set[int],
    codes: WordCodes,
    context: _Context,
) -> Iterable[tuple[float, float, int, int, str]]:
    """After a paired clause, what follows on both sides, in order, as a line diff would.

    A clause rewritten so much that few words survive (504.3 of 2002-10-07) still sits in the
    same place, after the same clause and under the same parent: a weak similarity is then
    enough, as long as nothing stronger claims either side. Each new clause is offered the
    first old clause of its gap that fits, as a line diff would pair them; but a new clause
    alone between two pairs is offered every old clause of the gap, and the one that reads
    most like it wins. (2016-09-30: the old 505.4, on the main phase's triggers, was dropped;
    505.5 "Third, the active player gets priority" became 505.4 "Second, the active player
    gets priority". Being first in the gap made the old 505.4 no better a candidate.)
    """
    anchor: int | None = None  # the old clause paired with the last paired new clause
    anchor_new = 0
    for n in range(len(new)):
        if n in result.matches:
            anchor, anchor_new = result.matches[n], n
            continue
        if anchor is None:
            continue
        closing = result.matches.get(n + 1)
        alone = anchor_new == n - 1 and closing is not None and closing > anchor
        for o in range(anchor + 1, min(anchor + 1 + MAX_GAP, len(old))):
            if o in taken:
                break
            if _fits(old[o], new[n], context.number_map) and _same_place_says_enough(
                old[o], new[n]
            ):
                score = _similarity(old[o], new[n], codes)
                if score >= IN_GAP or _examples_kept(old[o], new[n], codes):
                    off_diagonal = abs((o - anchor) - (n - anchor_new))
                    yield score + context.bonus(o, n) - off_diagonal, score, n, o, IN_PLACE
                    if not alone:
                        break


def _same_place_says_enough(old: Clause, new: Clause) -> bool:
    """False for two glossary entries whose terms share no word: the glossary is in
    alphabetical order, so its place says only that a term is spelled alike (2009: "In
    Play" is no "In Response To", though both came after "Illegal Target"). Rules keep
    their place for what they say."""
    if old.kind != "glossary" or new.kind != "glossary":
        return True
    return _terms_share_a_word(old.title or "", new.title or "")


def _pair_kept_headings(
    old: list[Clause], new: list[Clause], result: Alignment, codes: WordCodes
) -> None:
    """A heading nothing claimed continues in the heading of its number and level that
    nothing claimed either, under its parent's successor (or its parent's number, while
    that parent waits for its own pairing), when their titles share a word (by stem): the
    section was renamed where it stands (2003: 212 "Card Type" is 212 "Type, Supertype, and
    Subtype", 214 "Permanent Type" is 214 "Permanents"), even when its rules moved to other
    sections in the same rewrite (most of old 214's went to 212, and the children alone
    would give 214's identity to 212). The evidence is the place (`IN_PLACE`: title
    similarity and context), or the children where most of them went there as well."""
    taken = set(result.matches.values())
    free_new = {
        clause.number: n
        for n, clause in enumerate(new)
        if clause.heading and clause.number and n not in result.matches
    }
    if not free_new:
        return
    same_place = [
        (o, free_new[clause.number])
        for o, clause in enumerate(old)
        if clause.heading
        and clause.number in free_new
        and o not in taken
        and new[free_new[clause.number]].kind == clause.kind
    ]
    if not same_place:
        return  # most releases: every heading is paired, or none kept its number
    context = _Context(old, new, result, codes)
    children = _children_went(old, new, result)
    for o, n in same_place:
        clause = old[o]
        if n in result.matches:
            continue  # two old headings of one number: the first takes it
        went = context.number_map.get(clause.parent, clause.parent)  # or not yet known
        if clause.pairing != new[n].pairing or went != new[n].parent:
            continue
        if not _terms_share_a_word(clause.normalised, new[n].normalised):
            continue
        similarity = _similarity(clause, new[n], codes)
        # most of its children there too (as `_pair_by_children` counts): the stronger
        # evidence, and kept as such
        went_there = children.get(clause.number or "", Counter())
        if went_there[new[n].number] * 2 > went_there.total():
            share = 100.0 * went_there[new[n].number] / went_there.total()
            result.pair(n, o, similarity, BY_CHILDREN, share)
        else:
            result.pair(n, o, similarity, IN_PLACE, similarity + context.bonus(o, n))


def _pair_by_children(
    old: list[Clause], new: list[Clause], result: Alignment, codes: WordCodes
) -> None:
    """A heading renamed beyond recognition ("Planar Magic" -> "Planechase") is still the
    parent of the same children: pair it with the heading where most of them went. A heading
    that went one level up (section 217 "Zones" -> chapter 4) is found through the parents
    of those headings, when its title agrees. A heading is never paired so with content."""
    taken = set(result.matches.values())
    if all(o in taken or not clause.heading for o, clause in enumerate(old)):
        return  # no heading left to pair
    index_of = index_by_number(new)
    parent_of = {clause.number: clause.parent for clause in new}
    went = _children_went(old, new, result)
    for o, clause in enumerate(old):
        children = went.get(clause.number or "")
        if o in taken or not children or not clause.heading:
            continue
        under: Counter[str | None] = Counter()  # children under each new heading, any depth
        for target, count in children.items():
            while target is not None:
                under[target] += count
                target = parent_of.get(target)
        total = children.total()
        for target, count in sorted(under.items(), key=lambda item: -item[1]):
            at = index_of.get(target) if target else None
            if count < 2 or count * 2 <= total:
                break
            if at is None or at in result.matches or not new[at].heading:
                continue
            title = _similarity(clause, new[at], codes)
            if children[target] * 2 <= total and title < STRICT:
                continue  # a level up or down: the title must say so too
            result.pair(at, o, title, BY_CHILDREN, 100.0 * count / total)
            taken.add(o)
            break


def _pair_headings_with_rules(
    old: list[Clause], new: list[Clause], result: Alignment, codes: WordCodes
) -> None:
    """A rule heading nothing continues became the rule nothing continues either under
    which most of its children went (at least two), when that rule says most of its title
    (`_says_the_title`) and is no statement of one of those children moved up
    (`_holds_what_a_child_lost`). 2009: 418.3 "Continuous Effects from Spells or Abilities"
    became 610.2 "A continuous effect may be generated by the resolution of a spell or
    ability.", its 418.3a-d now 610.2a-c; 418.4 on static abilities became 610.3.

    A heading is paired with content only here, once every content clause has had its
    chance (`_pair_the_rest`): a rule that continues a rule of its own (2009: 110.5 "A token
    is a marker ...", 200.4's successor, under which section 216 "Tokens" went) is no
    heading's successor."""
    taken = set(result.matches.values())
    index_of = index_by_number(new)
    went = _children_went(old, new, result)
    for o, clause in enumerate(old):
        children = went.get(clause.number or "")
        if o in taken or not children or not clause.heading or clause.kind != "rule":
            continue
        target, count = children.most_common(1)[0]
        at = index_of.get(target) if target else None
        if at is None or at in result.matches or new[at].heading or count * 2 <= children.total():
            continue
        if count < 2 or not _says_the_title(clause, new[at]):
            continue
        if _holds_what_a_child_lost(clause, new[at], old, new, result):
            continue
        title = _similarity(clause, new[at], codes)
        result.pair(at, o, title, BY_CHILDREN, 100.0 * count / children.total())
        taken.add(o)


def _holds_what_a_child_lost(
    heading: Clause, rule: Clause, old: list[Clause], new: list[Clause], result: Alignment
) -> bool:
    """True when most of `rule`'s words (`MOVED_WORDS`) are words one of `heading`'s
    children lost on its way to its successor: the rule is that child's statement, moved up
    to lead its siblings (2009: 419.8a's opening became 608.7, its rest 608.7a)."""
    words = word_counts(rule.normalised)
    for n, o in result.matches.items():
        if old[o].parent == heading.number:
            lost = word_counts(old[o].normalised) - word_counts(new[n].normalised)
            if share_contained(words, lost) >= MOVED_WORDS:
                return True
    return False


def _says_the_title(heading: Clause, rule: Clause) -> bool:
    """True when `rule` says more than half of the words of `heading`'s title (by stem): the
    rule is about what the heading named ("Continuous Effects from Static Abilities": "A
    continuous effect may be generated by the static ability of an object")."""
    title = _term_words(heading.normalised)
    return bool(title) and _words_said(title, rule.normalised.lower()) * 2 > len(title)


def _children_went(
    old: list[Clause], new: list[Clause], result: Alignment
) -> dict[str, Counter[str | None]]:
    """Old parent number -> how many of its paired children sit under each new parent."""
    went: dict[str, Counter[str | None]] = defaultdict(Counter)
    for n, o in result.matches.items():
        parent = old[o].parent
        if parent:
            went[parent][new[n].parent] += 1
    return went


def _follow_children(
    old: list[Clause], new: list[Clause], result: Alignment, codes: WordCodes
) -> bool:
    """Move a heading paired by its title alone, under another number, to the heading where
    most of its children went, when that one is of its level and nothing continues it; True
    if one moved.

    Equal titles pair first, and a short title can be reused for another subject (2003:
    section 401 "Spells" went on as 401 "Spells on the Stack", while section 213 "Spell
    Type" became 213 "Spells"): the children, paired by their own words, say more."""
    # a heading that kept its number and its title is itself: only a moved one is in doubt
    doubted = [
        (n, o)
        for n, o in result.matches.items()
        if old[o].heading and old[o].number != new[n].number and result.method[n] in CERTAIN_METHODS
    ]
    if not doubted:
        return False
    moved = False
    index_of = index_by_number(new)
    went = _children_went(old, new, result)
    for n, o in doubted:
        heading = old[o]
        children = went.get(heading.number or "")
        if not children:
            continue
        target, count = children.most_common(1)[0]
        at = index_of.get(target) if target else None
        if (
            at is None
            or at == n
            or at in result.matches
            or count < 2
            or count * 2 <= children.total()
            or children[new[n].number] * 2 >= count
            or new[at].kind != heading.kind
        ):
            continue
        del result.matches[n], result.similarity[n], result.method[n], result.score[n]
        title = _similarity(heading, new[at], codes)
        result.pair(at, o, title, BY_CHILDREN, 100.0 * count / children.total())
        moved = True
    return moved


def _leave_headings_their_children_left(
    old: list[Clause], new: list[Clause], result: Alignment, codes: WordCodes
) -> bool:
    """Undo each pairing of two headings made by their titles or their place alone (similar,
    in-place) that the children deny, when nothing as strong speaks for it; True if one was
    undone. The children deny it when at least `CHILDREN_AGAINST` paired children of the old
    heading went elsewhere, none under the new heading at any depth, and no child of the new
    heading continues a child of the old (a grandchild may have come through a subheading,
    itself the new heading's predecessor). The pairing then stands on its title, and gives
    way to an old heading that has a title as like the new one and children there
    (`_pair_by_children` pairs them, of any level), or to none when its title is weaker
    than `STRICT`: the old heading is merged where its children went, or removed.

    2009: section 419 "Replacement and Prevention Effects" read like 615 "Interaction of
    Replacement and/or Prevention Effects", but its rules went to 613 and 614, while 615's
    came from its rule heading 419.9 "Interaction of Replacement or Prevention Effects". 2008:
    section 407 "Adding and Removing Abilities" sat where 407 "Linked Abilities" does, a new
    section: its rules went to 402 "Abilities". 2009's rule heading 212.1 "General" stays
    section 300 "General" of the card types, though its rules went to 204 "Type Line": the
    same title under its parent's successor, and no other heading's children there."""
    doubted = [
        (n, o)
        for n, o in result.matches.items()
        if old[o].heading
        and new[n].heading
        and result.method[n] not in CERTAIN_METHODS
        and result.method[n] != BY_CHILDREN
    ]
    if not doubted:
        return False
    went = _children_went(old, new, result)
    new_parent = {clause.number: clause.parent for clause in new}
    taken = set(result.matches.values())
    undone = False
    for n, o in doubted:
        heading, kept = old[o], new[n]
        children = went.get(heading.number or "")
        if not children or children.total() < CHILDREN_AGAINST:
            continue
        if any(_under(target, kept.number, new_parent) for target in children):
            continue  # some went there: the children agree, at least in part
        if any(
            new[m].parent == kept.number and old[p].parent == heading.number
            for m, p in result.matches.items()
        ):
            continue  # a rule of one is a rule of the other
        title = _similarity(heading, kept, codes)
        if title >= STRICT and not _heading_by_children(
            old, kept, (went, new_parent), taken, title, codes
        ):
            continue  # a strong title, and no other heading's children there
        del result.matches[n], result.similarity[n], result.method[n], result.score[n]
        taken.discard(o)
        if title > result.nearest_new.get(n, 0.0):
            result.nearest_new[n], result.passed_over[n] = title, o
        if title > result.nearest_old.get(o, 0.0):
            result.nearest_old[o], result.passed_over_old[o] = title, n
        undone = True
    return undone


def _heading_by_children(
    old: list[Clause],
    heading: Clause,
    children_of: tuple[dict[str, Counter[str | None]], dict[str | None, str | None]],
    taken: set[int],
    title: float,
    codes: WordCodes,
) -> bool:
    """True when an old heading nothing continues has most of its paired children (at least
    `CHILDREN_AGAINST`) under new `heading` at any depth, and a title at least `title` like
    its own. `children_of`: where the old headings' children went (`_children_went`), and
    the parents of the new release."""
    went, parent_of = children_of
    for o, clause in enumerate(old):
        children = went.get(clause.number or "")
        if o in taken or not clause.heading or not children:
            continue
        count = sum(n for at, n in children.items() if _under(at, heading.number, parent_of))
        if count < CHILDREN_AGAINST or count * 2 <= children.total():
            continue
        if _similarity(clause, heading, codes) >= title:
            return True
    return False


def _under(
    number: str | None, heading: str | None, parent_of: dict[str | None, str | None]
) -> bool:
    """True when `number` is `heading` or sits under it at any depth."""
    while number is not None:
        if number == heading:
            return True
        number = parent_of.get(number)
    return False


def _merge_headings_by_children(old: list[Clause], new: list[Clause], result: Alignment) -> None:
    """An old heading nothing continues, whose children went under a new heading that
    continues another, is merged there when one title holds every word of the other (2009:
    section 404 "Triggered Abilities" into 603 "Handling Triggered Abilities", 411 "Playing
    Mana Abilities" into 605 "Mana Abilities"). A heading has too few words to be found as a
    passage (the split search, `lineage.splits`, passes over headings): its children are the
    evidence, the title only says the two are about the same thing. The share of its paired
    children that went there is kept as the merge's evidence.

    The new home may be a rule whose subrules its children became, when that rule names the
    title and continues a rule from elsewhere (2009: section 216 "Tokens" went into 110.5,
    which continues 200.4 "A token is a marker ...", its rules now 110.5b-f). A heading whose
    own rule took the others as subrules went nowhere but over its own content: removed
    (510 "Status", its 510.1 now 110.6, 510.2 now 110.6a)."""
    taken = set(result.matches.values()) | {o for olds in result.merges.values() for o in olds}
    waiting: dict[str, int] = {}  # number of an old heading nothing continues -> its index
    for o, clause in enumerate(old):
        if clause.heading and clause.number and o not in taken:
            waiting.setdefault(clause.number, o)
    if not waiting:
        return  # most releases: every heading continues
    index_of = index_by_number(new)
    parent_of = {clause.number: clause.parent for clause in new}
    went: dict[str, Counter[int]] = defaultdict(Counter)  # old heading -> new homes, any depth
    paired_children: Counter[str] = Counter()
    for n, o in result.matches.items():
        parent = old[o].parent
        if parent not in waiting:
            continue
        paired_children[parent] += 1
        target, rule_found = new[n].parent, False  # every heading above; the nearest rule
        while target is not None:
            at = index_of.get(target)
            if at is not None and at in result.matches and (new[at].heading or not rule_found):
                went[parent][at] += 1
                rule_found = rule_found or not new[at].heading
            target = parent_of.get(target)
    for number, homes in went.items():
        o, clause = waiting[number], old[waiting[number]]
        title = _term_words(clause.normalised)
        paired = paired_children[number]
        for home, count in homes.most_common():
            if count * 2 <= paired:
                break  # most of its children went elsewhere, or nowhere one heading holds
            if new[home].heading:
                if new[home].kind != clause.kind:
                    continue  # a level change needs more than a title (`_pair_by_children`)
                if not _one_title_holds_the_other(title, _term_words(new[home].normalised)):
                    continue
            elif old[result.matches[home]].parent == number or not _mentions(
                title, new[home].normalised.lower()
            ):
                continue  # see the docstring: a rule of its own, or one that names it
            result.merges.setdefault(home, []).append(o)
            result.merges[home].sort()
            share = 100.0 * count / paired
            result.moved_words[(ABSORBED_ROLE, o)] = round(share, 1)
            break


def _one_title_holds_the_other(these: list[str], those: list[str]) -> bool:
    """True when every word of the shorter title is in the longer one (by stem)."""
    if not these or not those:
        return False
    short, long = sorted((these, those), key=len)
    return all(any(_same_stem(word, other) for other in long) for word in short)


def _long_enough(clause: Clause) -> bool:
    return clause.group == "rule" and clause.normalised.count(" ") >= 5


def _fits(old: Clause, new: Clause, number_map: dict[str | None, str | None]) -> bool:
    return old.pairing == new.pairing and number_map.get(old.parent) == new.parent


@cache
def _title_pattern(title: str) -> re.Pattern[str]:
    """A heading's title as a whole phrase in a clause's text, any case ("Banding")."""
    return re.compile(rf"\b{re.escape(title.strip())}\b", re.IGNORECASE)


def _similarity(old: Clause, new: Clause, codes: WordCodes) -> float:
    return float(fuzz.ratio(codes.encode(old.normalised), codes.encode(new.normalised)))


def _examples_kept(old: Clause, new: Clause, codes: WordCodes) -> bool:
    """True when both clauses have examples, nearly word for word the same (`EXAMPLES_KEPT`).

    An example illustrates its rule: a rule rewritten in its place keeps its examples, a
    new rule brings its own (2001-07-23: 419.8b said anew how replacement effects interact,
    under the same example of gaining life; 2003-07-01: 500.5 on blocking requirements
    restated around its example of a creature that "blocks if able"). So kept examples let
    a pair in a gap be considered however few of the rule's own words are left, ranked by
    those words: ranked by its examples, a pair outran the one a merge is found from (read
    from 2002-10-07 straight to 2008-02-01, 418.5d and 418.5a became 418.5h, words and
    examples of both, and the merge was lost). A scenario reused for another rule is
    rewritten around it (2009: 421.3's two-player flying loop became 713.3's fragmented
    one), and stays below the bar."""
    if not (old.examples and new.examples):
        return False
    return fuzz.ratio(codes.encode(old.examples), codes.encode(new.examples)) >= EXAMPLES_KEPT


class _KeywordTest:
    """`_Context.another_keyword` once the pairs are made, the context read when first asked
    (most releases have no unpaired clause to ask about)."""

    def __init__(self, old: list[Clause], new: list[Clause], result: Alignment) -> None:
        self.old, self.new, self.result = old, new, result
        self.context: _Context | None = None

    def __call__(self, o: int, n: int) -> bool:
        if self.context is None:
            self.context = _Context(self.old, self.new, self.result)
        return self.context.another_keyword(o, n)


class _Context:
    """Evidence beyond the words: parents and neighbours already paired, the same number."""

    def __init__(
        self,
        old: list[Clause],
        new: list[Clause],
        result: Alignment,
        codes: WordCodes | None = None,
    ) -> None:
        self.old, self.new, self.matches = old, new, result.matches
        self.number_map = {old[o].number: new[n].number for n, o in result.matches.items()}
        self.source_of = {new[n].number: old[o].number for n, o in result.matches.items()}
        self.parent_of = {clause.number: clause.parent for clause in new}
        self.codes = codes
        self.old_headings = {c.number: c for c in old if c.heading and c.number}
        self.new_headings = {c.number: c for c in new if c.heading and c.number}
        self.titles_agree: dict[tuple[str, str], bool] = {}
        self.said_elsewhere: dict[tuple[str, str], bool] = {}

    def another_keyword(self, o: int, n: int) -> bool:
        """True when old clause `o` names the title of the heading it was under where new
        clause `n` names the title of its own, and that old heading went elsewhere: `n` is
        the same rule written for another keyword, not `o` (2009: "Multiple instances of
        banding on the same creature are redundant." stayed with banding, 702.21; 702.11c
        says it of intimidate). The two titles share no word: a heading split in two keeps
        its words in both halves. A heading that was renamed (EDH, now Commander) went where
        the new clause is, and its rules follow it."""
        old, new = self.old[o], self.new[n]
        if old.parent is None or new.parent is None:
            return False
        if self.number_map.get(old.parent) == new.parent:
            return False  # the heading went there, renamed or not: its rules follow it
        before, after = self.old_headings.get(old.parent), self.new_headings.get(new.parent)
        if (
            before is None
            or after is None
            or _terms_share_a_word(before.normalised, after.normalised)
        ):
            return False  # a heading split in two ("Replacement and Prevention Effects")
        old_title = _title_pattern(before.normalised)
        new_title = _title_pattern(after.normalised)
        old_text, new_text = old.normalised, new.normalised
        if not (
            old_title.search(old_text)
            and new_title.search(new_text)
            and not old_title.search(new_text)
            and not new_title.search(old_text)
        ):
            return False
        # the old heading went elsewhere, or its title lives on under another heading (2009:
        # "bands with other" is said by banding's 702.19m); if not, it may have been renamed
        return old.parent in self.number_map or self._said_elsewhere(old_title, new.parent)

    def _said_elsewhere(self, title: re.Pattern[str], parent: str) -> bool:
        """True when a rule of the new release not under `parent` says `title`."""
        key = (title.pattern, parent)
        if key not in self.said_elsewhere:
            self.said_elsewhere[key] = any(
                clause.group == "rule"
                and clause.parent != parent
                and title.search(clause.normalised) is not None
                for clause in self.new
            )
        return self.said_elsewhere[key]

    def bonus(self, o: int, n: int) -> float:
        old, new = self.old[o], self.new[n]
        bonus = 0.0
        # the old parent went where the new clause's parent is, or somewhere else; or the
        # new parent came from somewhere else. A clause that moved one level deeper (a step
        # of a new rule under its parent's successor) counts as staying there; one level
        # higher (under a heading that became a section) is not penalised. A parent rewritten
        # under its own number waits for its pairing, as its rules compete for their places:
        # a clause under the same number on both sides stays there (2022-06-10: 608.3a on
        # Aura spells is 608.3c, both under 608.3; the old 608.3, not yet paired, was one
        # level above 608.3c, and that alone gave it the place).
        if old.parent and old.parent in self.number_map:
            went = self.number_map[old.parent]
            if went == new.parent or self._one_level_deeper(went, new.parent):
                bonus += 12
            elif not self._one_level(went, new.parent):
                bonus -= 15
        elif self._absorbed_by(old.parent, new.parent):
            bonus += 12
        elif new.parent and new.parent in self.source_of:
            bonus -= 15
        elif new.parent and old.parent == new.parent:
            bonus += 12  # the same parent number, and neither parent paired yet
        if self.matches.get(n - 1) == o - 1 or self.matches.get(n + 1) == o + 1:
            bonus += 10
        if old.label == new.label:
            bonus += 3
        return bonus

    def _absorbed_by(self, old_parent: str | None, new_parent: str | None) -> bool:
        """True when an old heading that nothing continues has the title of the new clause's
        parent heading, or most of it (2009: section 404 "Triggered Abilities" was merged into
        603 "Handling Triggered Abilities"): its rules went there with it."""
        if self.codes is None or not old_parent or not new_parent:
            return False
        key = (old_parent, new_parent)
        found = self.titles_agree.get(key)
        if found is None:
            before, after = self.old_headings.get(old_parent), self.new_headings.get(new_parent)
            found = (
                before is not None
                and after is not None
                and _similarity(before, after, self.codes) >= STRICT
            )
            self.titles_agree[key] = found
        return found

    def _one_level_deeper(self, went: str | None, parent: str | None) -> bool:
        """True when `parent` is just under `went`: the clause went one level deeper under its
        parent's successor (2003: 308.1 -> 308.2a, the declaration became a step of 308.2)."""
        return went is not None and parent is not None and self.parent_of.get(parent) == went

    def _one_level(self, went: str | None, parent: str | None) -> bool:
        """True when `parent` is just under `went`, or just above it."""
        if went is None or parent is None:
            return False
        return self.parent_of.get(parent) == went or self.parent_of.get(went) == parent


def _classify(old: list[Clause], new: list[Clause], result: Alignment) -> None:
    split_pieces = {n: o for o, pieces in result.splits.items() for n in pieces}
    number_map: dict[str | None, str | None] | None = None  # made for the first change
    kinds, matches, splits, merges = result.kinds, result.matches, result.splits, result.merges
    for n, clause in enumerate(new):
        o = matches.get(n)
        if o is None:
            kinds[n] = SPLIT if n in split_pieces else ADDED
            continue
        before = old[o]
        if n in split_pieces or o in splits:
            kinds[n] = SPLIT
        elif n in merges:
            kinds[n] = MERGED
        elif (
            before.version_hash == clause.version_hash
            and before.label == clause.label
            and before.example_versions == clause.example_versions
        ):
            kinds[n] = UNCHANGED  # most clauses: decided without looking further
        else:
            if number_map is None:
                number_map = {old[i].number: new[j].number for j, i in matches.items()}
            kinds[n] = kind_of_change(before, clause, number_map)
    merged = {o for olds in result.merges.values() for o in olds}
    matched = set(result.matches.values())
    for o in range(len(old)):
        if o not in matched:
            result.removed[o] = MERGED if o in merged else REMOVED

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
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from archive.normalise import normalise
from vocabulary.kinds import (
    ADDED,
    FORMATTING,
    MERGED,
    REFERENCE,
    REMOVED,
    RENUMBERED,
    RENUMBERED_REWORDED,
    REWORDED,
    SPLIT,
    UNCHANGED,
)

ALIGNED_KINDS = ("chapter", "section", "rule", "subrule", "glossary")
GROUP = {"chapter": "chapter", "section": "section", "rule": "rule", "subrule": "rule"}
GROUP["glossary"] = "glossary"


# A rule number quoted in running text: "rule 504", "rule 502.26", "702.34a".
REFERENCE_NUMBER = re.compile(r"(?<![\w.])\d{3}(?:\.\d+[a-z]?)?(?![\w])")
_WORD = re.compile(r"\w+")
_TERM_NOTE = re.compile(r"\s*\((?:Obsolete|Informal|Deprecated)\)", re.IGNORECASE)

STRICT, LOOSE, WITH_CONTEXT = 72.0, 60.0, 45.0  # word-similarity thresholds (0-100)
MAX_GAP = 24  # longer gaps are not filled: their order says little
MOVED = 85.0  # token-set similarity for a clause found far from where it was
IN_GAP = 20.0  # enough for a clause between two pairs, in the same place under the same parent
CONTAINED = 0.7  # share of a clause's words found in another, for splits and merges
NEAR = 4  # how many positions around a clause count as its neighbourhood


@dataclass(slots=True)
class Clause:
    part_id: int
    kind: str
    number: str | None
    parent: str | None
    title: str | None
    version_hash: str  # the same exactly when the text is (see `clause_versions`)
    normalised: str
    position: int

    @property
    def label(self) -> str:
        """The number, or a glossary entry's term."""
        return self.number or self.title or ""

    @property
    def group(self) -> str:
        return GROUP[self.kind]


@dataclass
class Alignment:
    """How a new release continues an old one; indices are into the two clause lists."""

    matches: dict[int, int] = field(default_factory=dict)  # new -> old, one to one
    kinds: dict[int, str] = field(default_factory=dict)  # new -> change kind
    similarity: dict[int, float] = field(default_factory=dict)  # new -> 0..100
    removed: dict[int, str] = field(default_factory=dict)  # old -> removed | merged
    splits: dict[int, list[int]] = field(default_factory=dict)  # old -> new pieces
    merges: dict[int, list[int]] = field(default_factory=dict)  # new -> old absorbed

    def counts(self) -> dict[str, int]:
        counts = Counter(self.kinds.values())
        counts.update(self.removed.values())
        return dict(sorted(counts.items()))


def mask_references(text: str) -> str:
    """The text with every rule number replaced by `#`.

    >>> mask_references('see rule 504.2 and rule 702.34a, "Morph."')
    'see rule # and rule #, "Morph."'
    """
    return REFERENCE_NUMBER.sub("#", text)


def align(old: list[Clause], new: list[Clause]) -> Alignment:
    """Classify every clause of `new` against `old` (both in document order)."""
    result = Alignment()
    _pair_equal(old, new, result, lambda c: c.normalised)
    _pair_equal(old, new, result, lambda c: mask_references(c.normalised))
    _pair_equal(
        old, new, result, lambda c: (c.title or "").lower() if c.kind == "glossary" else None
    )
    _pair_equal(old, new, result, _bare_term)
    codes = _WordCodes()
    _pair_similar(old, new, result, codes, STRICT, context_threshold=LOOSE)
    _pair_similar(old, new, result, codes, LOOSE, context_threshold=WITH_CONTEXT)
    _pair_by_children(old, new, result)
    _fill_gaps(old, new, result, codes)
    _rescue_moved(old, new, result)
    _find_splits_and_merges(old, new, result)
    _classify(old, new, result)
    return result


def _bare_term(clause: Clause) -> str | None:
    """A glossary term without its note: "In Play (Obsolete)" -> "in play"."""
    if clause.kind != "glossary" or not clause.title:
        return None
    return _TERM_NOTE.sub("", clause.title).strip().lower()


def _pair_equal(
    old: list[Clause], new: list[Clause], result: Alignment, key: Callable[[Clause], str | None]
) -> None:
    """Pair clauses whose keys are equal; among equals, the same number first, then order."""
    taken = set(result.matches.values())
    waiting: dict[tuple[str, str | None], list[int]] = defaultdict(list)
    for index, clause in enumerate(old):
        if index not in taken:
            waiting[(GROUP[clause.kind], key(clause))].append(index)
    buckets: dict[tuple[str, str | None], list[int]] = defaultdict(list)
    for index, clause in enumerate(new):
        if index not in result.matches:
            bucket = (GROUP[clause.kind], key(clause))
            if bucket in waiting:
                buckets[bucket].append(index)
    for bucket, new_indices in buckets.items():
        if bucket[1] is None:
            continue
        for n, o in _pair_in_order(old, new, waiting[bucket], new_indices):
            result.matches[n] = o
            result.similarity[n] = 100.0


def _pair_in_order(
    old: list[Clause], new: list[Clause], olds: list[int], news: list[int]
) -> Iterable[tuple[int, int]]:
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


class _WordCodes:
    """Each distinct word becomes one character, so similarity counts words, not letters."""

    def __init__(self) -> None:
        self.codes: dict[str, str] = {}
        self.done: dict[str, str] = {}

    def encode(self, text: str) -> str:
        found = self.done.get(text)
        if found is None:
            found = self.done[text] = self._encode(text)
        return found

    def _encode(self, text: str) -> str:
        out = []
        for word in _WORD.findall(text.lower()):
            code = self.codes.get(word)
            if code is None:
                code = chr(0x10000 + len(self.codes))
                self.codes[word] = code
            out.append(code)
        return "".join(out)


def _pair_similar(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    codes: _WordCodes,
    threshold: float,
    context_threshold: float,
) -> None:
    """Greedy best-first pairing of the clauses left, by word similarity plus context."""
    taken = set(result.matches.values())
    candidates: list[tuple[float, float, int, int]] = []
    olds_of, news_of = defaultdict(list), defaultdict(list)
    for o in (i for i in range(len(old)) if i not in taken):
        olds_of[old[o].group].append(o)
    for n in (i for i in range(len(new)) if i not in result.matches):
        news_of[new[n].group].append(n)
    context = _Context(old, new, result)
    for group, news in news_of.items():
        olds = olds_of.get(group)
        if not olds:
            continue
        choices = [codes.encode(old[i].normalised) for i in olds]
        for n in news:
            query = codes.encode(new[n].normalised)
            found = process.extract(
                query, choices, scorer=fuzz.ratio, limit=6, score_cutoff=context_threshold
            )
            for _choice, score, position in found:
                o = olds[position]
                bonus = context.bonus(o, n)
                if score + bonus >= threshold:
                    candidates.append((score + bonus, score, n, o))
    candidates.sort(key=lambda item: (-item[0], item[2], item[3]))
    for _total, score, n, o in candidates:
        if n not in result.matches and o not in taken:
            result.matches[n] = o
            result.similarity[n] = round(score, 1)
            taken.add(o)


def _pair_by_children(old: list[Clause], new: list[Clause], result: Alignment) -> None:
    """A section or rule renamed beyond recognition ("Planar Magic" -> "Planechase") is
    still the parent of the same children: pair it with where most of them went."""
    taken = set(result.matches.values())
    index_of = {clause.number: n for n, clause in enumerate(new) if clause.number}
    went: dict[str, Counter[str | None]] = defaultdict(Counter)
    for n, o in result.matches.items():
        parent = old[o].parent
        if parent:
            went[parent][new[n].parent] += 1
    for o, clause in enumerate(old):
        children = went.get(clause.number or "")
        if o in taken or not children or clause.kind not in ("section", "rule"):
            continue
        (target, count), total = children.most_common(1)[0], children.total()
        parent_at = index_of.get(target) if target else None
        if parent_at is None or parent_at in result.matches:
            continue
        if new[parent_at].group == clause.group and count >= 2 and count * 2 > total:
            result.matches[parent_at] = o
            result.similarity[parent_at] = 0.0
            taken.add(o)


def _fill_gaps(old: list[Clause], new: list[Clause], result: Alignment, codes: _WordCodes) -> None:
    """After a paired clause, pair what follows on both sides, in order, as a line diff would.

    A clause rewritten so much that few words survive (504.3 of 2002-10-07) still sits in the
    same place, after the same clause and under the same parent: a weak similarity is then
    enough.
    """
    number_map = {old[o].number: new[n].number for n, o in result.matches.items()}
    taken = set(result.matches.values())
    anchor: int | None = None  # the old clause paired with the last paired new clause
    for n in range(len(new)):
        if n in result.matches:
            anchor = result.matches[n]
            continue
        if anchor is None:
            continue
        for o in range(anchor + 1, min(anchor + 1 + MAX_GAP, len(old))):
            if o in taken:
                break
            if _fits(old[o], new[n], number_map, codes):
                result.matches[n] = o
                result.similarity[n] = round(_similarity(old[o], new[n], codes), 1)
                taken.add(o)
                anchor = o
                break


def _rescue_moved(old: list[Clause], new: list[Clause], result: Alignment) -> None:
    """A clause that moved far and changed a little ("you" in a card's text isn't a target
    -> in an object's text): nearly all words of the shorter one are in the longer one."""
    taken = set(result.matches.values())
    olds = [o for o in range(len(old)) if o not in taken and _long_enough(old[o])]
    if not olds:
        return
    choices = [old[o].normalised for o in olds]
    found = []
    for n in (n for n in range(len(new)) if n not in result.matches and _long_enough(new[n])):
        for _choice, score, position in process.extract(
            new[n].normalised, choices, scorer=fuzz.token_set_ratio, limit=3, score_cutoff=MOVED
        ):
            if old[olds[position]].group == new[n].group:
                found.append((score, n, olds[position]))
    for score, n, o in sorted(found, key=lambda item: (-item[0], item[1], item[2])):
        if n not in result.matches and o not in taken:
            result.matches[n] = o
            result.similarity[n] = round(score, 1)
            taken.add(o)


def _long_enough(clause: Clause) -> bool:
    return clause.group == "rule" and clause.normalised.count(" ") >= 5


def _fits(
    old: Clause, new: Clause, number_map: dict[str | None, str | None], codes: _WordCodes
) -> bool:
    if old.group != new.group or number_map.get(old.parent) != new.parent:
        return False
    return _similarity(old, new, codes) >= IN_GAP


def _similarity(old: Clause, new: Clause, codes: _WordCodes) -> float:
    return float(fuzz.ratio(codes.encode(old.normalised), codes.encode(new.normalised)))


class _Context:
    """Evidence beyond the words: parents and neighbours already paired, the same number."""

    def __init__(self, old: list[Clause], new: list[Clause], result: Alignment) -> None:
        self.old, self.new, self.matches = old, new, result.matches
        self.number_map = {old[o].number: new[n].number for n, o in result.matches.items()}
        self.source_of = {new[n].number: old[o].number for n, o in result.matches.items()}

    def bonus(self, o: int, n: int) -> float:
        old, new = self.old[o], self.new[n]
        bonus = 0.0
        # the old parent went where the new clause's parent is, or somewhere else; or the
        # new parent came from somewhere else
        if old.parent and old.parent in self.number_map:
            bonus += 12 if self.number_map[old.parent] == new.parent else -15
        elif new.parent and new.parent in self.source_of:
            bonus -= 15
        if self.matches.get(n - 1) == o - 1 or self.matches.get(n + 1) == o + 1:
            bonus += 10
        if old.label == new.label:
            bonus += 3
        return bonus


def _words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.lower()))


def _contained(part: Counter[str], whole: Counter[str]) -> float:
    """Share of `part`'s words that `whole` also has."""
    total = sum(part.values())
    return sum((part & whole).values()) / total if total else 0.0


class _LazyWords(dict[int, Counter[str]]):
    """The words of each clause, counted when first asked for."""

    def __init__(self, clauses: list[Clause]) -> None:
        super().__init__()
        self.clauses = clauses

    def __missing__(self, index: int) -> Counter[str]:
        self[index] = words = _words(self.clauses[index].normalised)
        return words


def _find_splits_and_merges(old: list[Clause], new: list[Clause], result: Alignment) -> None:
    """Unpaired new clauses drawn from a nearby old one; unpaired old ones absorbed nearby."""
    old_of = result.matches
    new_of = {o: n for n, o in old_of.items()}
    words_old = _LazyWords(old)
    words_new = _LazyWords(new)
    for n in [i for i in range(len(new)) if i not in old_of]:
        if new[n].group != "rule" or sum(words_new[n].values()) < 4:
            continue
        around = {old_of[m] for m in range(n - NEAR, n + NEAR + 1) if m in old_of}
        best = max(around, key=lambda o: _contained(words_new[n], words_old[o]), default=None)
        if best is None or _contained(words_new[n], words_old[best]) < CONTAINED:
            continue
        if _contained(words_new[n], words_new[new_of[best]]) < 0.5:
            result.splits.setdefault(best, []).append(n)
    for o in [i for i in range(len(old)) if i not in new_of]:
        if old[o].group != "rule" or sum(words_old[o].values()) < 4:
            continue
        around = {new_of[p] for p in range(o - NEAR, o + NEAR + 1) if p in new_of}
        best = max(around, key=lambda n: _contained(words_old[o], words_new[n]), default=None)
        if best is None or _contained(words_old[o], words_new[best]) < CONTAINED:
            continue
        if _contained(words_old[o], words_old[old_of[best]]) < 0.5:
            result.merges.setdefault(best, []).append(o)


def _classify(old: list[Clause], new: list[Clause], result: Alignment) -> None:
    number_map = {old[o].number: new[n].number for n, o in result.matches.items()}
    split_pieces = {n: o for o, pieces in result.splits.items() for n in pieces}
    for n, clause in enumerate(new):
        o = result.matches.get(n)
        if n in split_pieces:
            result.kinds[n] = SPLIT
        elif o is None:
            result.kinds[n] = ADDED
        elif o in result.splits:
            result.kinds[n] = SPLIT
        elif n in result.merges:
            result.kinds[n] = MERGED
        elif old[o].version_hash == clause.version_hash and old[o].label == clause.label:
            result.kinds[n] = UNCHANGED  # most clauses: decided without looking further
        else:
            result.kinds[n] = kind_of_change(old[o], clause, number_map)
    merged = {o for olds in result.merges.values() for o in olds}
    matched = set(result.matches.values())
    for o in range(len(old)):
        if o not in matched:
            result.removed[o] = MERGED if o in merged else REMOVED


def kind_of_change(old: Clause, new: Clause, number_map: dict[str | None, str | None]) -> str:
    """The kind of change from one clause to the clause that continues it."""
    renumbered = _label_key(old) != _label_key(new)
    if old.normalised == new.normalised:
        if renumbered:
            return RENUMBERED
        return UNCHANGED if old.version_hash == new.version_hash else FORMATTING
    if _only_references_follow(old.normalised, new.normalised, number_map):
        return RENUMBERED if renumbered else REFERENCE
    return RENUMBERED_REWORDED if renumbered else REWORDED


def _label_key(clause: Clause) -> str:
    """A glossary term compares in its normalised form: 'Isn’t' is "Isn't"."""
    return normalise(clause.label) if clause.kind == "glossary" else clause.label


def _only_references_follow(
    old_text: str, new_text: str, number_map: dict[str | None, str | None]
) -> bool:
    """True when the texts differ only in rule numbers, each changed as its rule moved."""
    if mask_references(old_text) != mask_references(new_text):
        return False
    pairs = zip(REFERENCE_NUMBER.findall(old_text), REFERENCE_NUMBER.findall(new_text), strict=True)
    return all(a == b or number_map.get(a, b) == b for a, b in pairs)

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
from functools import cached_property, lru_cache
from operator import attrgetter
from typing import NamedTuple

from rapidfuzz import fuzz, process

from archive.normalise import fold_markup, formatting_key, normalise, same_but_formatting
from vocabulary.kinds import (
    ADDED,
    EXAMPLE,
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
from vocabulary.numbers import is_under

ALIGNED_KINDS = ("chapter", "section", "rule", "subrule", "glossary")
GROUP = {"chapter": "chapter", "section": "section", "rule": "rule", "subrule": "rule"}
GROUP["glossary"] = "glossary"


# A rule number quoted in running text: "rule 504", "rule 502.26", "702.34a", or a range of
# them: "601.2e-g", "702.1-702.5" (dashes are "-" once normalised).
REFERENCE_NUMBER = re.compile(
    r"(?<![\w.])\d{3}(?:\.\d+[a-z]?)?(?:-(?:\d{3}(?:\.\d+[a-z]?)?|[a-z])(?![\w]))?(?![\w])"
)
# A reference with the title quoted after it ('rule 403, "Activated Abilities"'): the title
# names the rule referred to, and follows it when that rule is renamed as it moves.
TITLED_REFERENCE = re.compile(f'({REFERENCE_NUMBER.pattern})(?:, "([^"]*)")?')
_WORD = re.compile(r"\w+")
OBSOLETE = re.compile(r"\(Obsolete\)", re.IGNORECASE)
_TERM_NOTE = re.compile(r"\s*\((?:Obsolete|Informal|Deprecated)\)", re.IGNORECASE)
_TERM_QUOTES = "\"'\u201c\u201d\u2018\u2019"  # '"As Though"' is the entry As Though

STRICT, LOOSE, WITH_CONTEXT = 72.0, 60.0, 45.0  # word-similarity thresholds (0-100)
MAX_GAP = 24  # longer gaps are not filled: their order says little
MOVED = 85.0  # token-set similarity for a clause found far from where it was, most words kept
MOVED_LEFT = 70.0  # the same for clauses nothing else claims, its place no evidence against it
IN_GAP = 20.0  # enough for a clause between two pairs, in the same place under the same parent
CONTAINED = 0.7  # share of a clause's words found in another, for splits and merges
READS_BETTER = 20.0  # how much more like the opening a split's or merge's new identity reads
OPENS_BETTER = 0.2  # how much more of the opening's words a new identity holds than the old
# Share of a split piece's words found among the words its source lost (or of an absorbed
# clause's words among those its new home gained): the words moved, not just look alike.
MOVED_WORDS = 0.5
# A clause folded into its sibling's rewrite keeps at least this share of its words there.
SIBLING_WORDS = 0.5
# A glossary entry that gave its rule text away (2009) is far from the rules that took it:
# a rule piece found nowhere near its source is looked for among the entries that lost words.
COMMON_WORD = 60  # a word more changed entries lost than this says nothing of the source
ANYWHERE_CANDIDATES = 5  # entries sharing the most rare words, checked word for word
# Far from its source, a piece has only its words to show where it came from: it must be a
# passage (a short rule, "Instants have no subtypes.", matches many) almost all of moved words.
ANYWHERE_WORDS = 12
MOVED_ANYWHERE = 0.85
# ... or a passage that kept its order: most of its words in sequence in the source (rapidfuzz's
# partial ratio over words), and most of them among the words the source lost. The order is
# evidence the words alone are not: a rule that only shares an entry's vocabulary scatters it.
PASSAGE = 70.0
PASSAGE_WORDS = 0.6
# A clause restated elsewhere says nothing new: at most one word in twenty is outside the
# clause it restates and that clause's own successor (or predecessor); an old rule said again
# by a rule far away keeps as many of its words there.
RESTATED = 0.95
# Subrules push a piece away from its source's successor (509.5 after 509.4a-f): the rules of
# the piece's own parent this far away still count as near it.
FAMILY = 12
RARE_WORDS = 3  # a rule that holds a passage has its three longest words
REPEATED = 0.75  # share of a passage's words a rule had: the glossary only repeated it
PIECE_WORDS = 4  # a shorter new rule ("Instants have no subtypes.") matches any source
MAX_ROUNDS = 4  # rounds of pairing, each with the context the one before found; few need 3
CANDIDATES = 12  # most similar clauses considered for each: families of alike rules are big
NEAR = 4  # how many positions around a clause count as its neighbourhood
HEADING_WORDS = 6  # a rule whose text is a title ("Artifacts", "General") is a heading
# A glossary entry renamed (`_pair_renamed_entries`): its evidence adds up from the term's
# words (all shared: 2; else the share shared), a cited rule whose successor the new entry
# cites (1) or cites a rule under (0.5), a definition that names the other term when the
# terms share no word (0.5), and
# one that kept its words (`STRICT`: 1); one whole sign is enough, half signs need another.
TERM_WEIGHT, CITED_SAME, CITED_UNDER, NAMED, SAME_DEFINITION = 2.0, 1.0, 0.5, 0.5, 1.0
RENAMED = 1.0
STEM = 3  # shorter words than this are no stem: "on" does not prefix "once"
TERM_STOP_WORDS = frozenset(("a", "an", "the", "of", "on", "to", "into", "and", "or"))
# Evidence below this (word similarity plus context, 0-100+) leaves a link uncertain: the
# site marks it. Equal texts, formatting-equal texts and term matches are always certain.
WEAK = 60.0
# The first sentence, with its closing quotation mark or parenthesis: '... that damage." If'.
FIRST_SENTENCE = re.compile(r"^.*?[.!?][\"'\u201d\u2019)]*(?=\s|$)", re.DOTALL)

# How each pairing was decided, strongest first (stored with each event as its evidence).
EQUAL, SAME_FORMAT, SAME_WORDS, SAME_TERM = "equal", "formatting", "references", "term"
SIMILAR, MOVED_FAR, IN_PLACE, BY_CHILDREN = "similar", "moved", "gap", "children"
SPLIT_OFF, ABSORBED, UNPAIRED = "split-off", "absorbed", "unpaired"
RENAMED_TERM = "renamed"
ABSORBED_ROLE = "absorbed"  # how `moved_words` names an old clause a merge absorbed
LEFTOVER = "leftover"
CERTAIN_METHODS = (EQUAL, SAME_FORMAT, SAME_WORDS, SAME_TERM)

# The 2009 (and 2018) vocabulary folded for similarity only: "in play" is "on the
# battlefield", "removed from the game" is "exiled", a spell is "played" then "cast", an
# ability "played" then "activated", "his or her" is "their". Phrases first, then words.
_PHRASES = {
    "battlefield": ("in play", "into play", "on the battlefield", "onto the battlefield"),
    "enters battlefield": (
        "comes into play",
        "come into play",
        "came into play",
        "coming into play",
        "enters the battlefield",
        "enter the battlefield",
        "entered the battlefield",
        "entering the battlefield",
    ),
    "exile": ("removed from the game", "remove from the game", "removing from the game"),
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
    examples: str = ""  # the normalised text of the rule's examples, one a line
    heading: bool = False  # set from the rest: see `is_heading`
    pairing: str = ""  # which clauses this one may continue: see `is_heading`

    @property
    def label(self) -> str:
        """The number, or a glossary entry's term."""
        return self.number or self.title or ""

    @property
    def group(self) -> str:
        return GROUP[self.kind]

    def __post_init__(self) -> None:
        self.heading = is_heading(self.kind, self.normalised)
        self.pairing = "heading" if self.heading else GROUP[self.kind]


def joined_examples(examples: Iterable[str]) -> str:
    """A rule's examples (normalised texts, in order) as the one text its wording carries
    (`Clause.examples`), one a line. Every reader of the store that rebuilds a clause joins
    them so, or its kinds of change would not be the pipeline's."""
    return "\n".join(examples)


def is_heading(kind: str, normalised: str) -> bool:
    """A chapter, a section, or a rule whose text is only a title ("212.2. Artifacts").

    Headings of any level pair with headings (a rule heading may become a section, a section
    a chapter), content with content.
    """
    if kind in ("chapter", "section"):
        return True
    if kind != "rule":
        return False
    text = normalised.rstrip()
    return text.count(" ") < HEADING_WORDS and not text.endswith((".", ":", '"', ")"))


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

        A pairing is weak below `WEAK` (unless the texts were equal); a split piece when
        under `WEAK` of its words come from what its source lost; an added clause when some
        old clause was at least `WEAK` similar to it (its predecessor may have been missed).
        """
        if ("piece", n) in self.moved_words:
            share = self.moved_words[("piece", n)]
            return SPLIT_OFF, share, share < WEAK
        if n in self.matches:
            method, score = self.method[n], self.score[n]
            return method, score, method not in CERTAIN_METHODS and score < WEAK
        nearest = self.nearest_new.get(n)
        return UNPAIRED, nearest, nearest is not None and nearest >= WEAK

    def evidence_old(self, o: int) -> tuple[str, float | None, bool]:
        """How old clause `o`, which does not continue, was decided (see `evidence_new`)."""
        if ("absorbed", o) in self.moved_words:
            share = self.moved_words[("absorbed", o)]
            return ABSORBED, share, share < WEAK
        nearest = self.nearest_old.get(o)
        return UNPAIRED, nearest, nearest is not None and nearest >= WEAK


def mask_references(text: str) -> str:
    """The text with every rule number (or range of rules) replaced by `#`.

    >>> mask_references('see rule 504.2 and rules 702.34a-c, "Morph."')
    'see rule # and rules #, "Morph."'
    """
    return REFERENCE_NUMBER.sub("#", text)


_NORMALISED = attrgetter("normalised")  # the key of equal texts


def align(old: list[Clause], new: list[Clause]) -> Alignment:
    """Classify every clause of `new` against `old` (both in document order).

    Equal texts pair first (they are certain); everything else competes in one ranking of
    candidate pairs by evidence, so that a strong match far away beats a weak one nearby.
    """
    result = Alignment()
    free = _Free(list(range(len(old))), list(range(len(new))))
    _pair_equal(old, new, result, _NORMALISED, EQUAL, free)
    _pair_equal(old, new, result, lambda c: _formatting_key(c.normalised), SAME_FORMAT, free)
    _pair_equal(old, new, result, lambda c: _masked(c.normalised), SAME_WORDS, free)
    _pair_equal(
        old,
        new,
        result,
        lambda c: (c.title or "").lower() if c.kind == "glossary" else None,
        SAME_TERM,
        free,
    )
    _pair_equal(old, new, result, _bare_term, SAME_TERM, free)
    codes = _WordCodes()
    if len(result.matches) not in (len(old), len(new)):  # something left on both sides
        _pair_the_rest(old, new, result, codes)
        if _follow_children(old, new, result, codes):
            _pair_by_children(old, new, result, codes)  # the heading given up, by its own
    _find_splits_and_merges(old, new, result, codes)
    _merge_headings_by_children(old, new, result)
    _classify(old, new, result)
    return result


def _pair_the_rest(
    old: list[Clause], new: list[Clause], result: Alignment, codes: _WordCodes
) -> None:
    """Strong similarities first (they give the context: parents, neighbours), then every
    kind of candidate at once, again while the context found in a round pairs more; then
    what nothing claimed."""
    _pair_best_first(old, new, result, codes)
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


# Answers kept per text: a worker aligns a run of releases that repeat nearly all their texts,
# and each pair would otherwise work them out again.
TEXTS_KEPT = 200_000  # a few runs' worth of texts, a few tens of MB
_formatting_key = lru_cache(maxsize=TEXTS_KEPT)(formatting_key)
_masked = lru_cache(maxsize=TEXTS_KEPT)(mask_references)


def _only_formatting_differs(old: str, new: str) -> bool:
    """`same_but_formatting`, asked only when the two texts' formatting keys (kept per text)
    agree: when they differ it is False anyway, and most changed pairs differ there."""
    return _formatting_key(old) == _formatting_key(new) and same_but_formatting(old, new)


@lru_cache(maxsize=TEXTS_KEPT)
def _term_key(term: str) -> str:
    return _formatting_key(normalise(term))


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


def fold_vocabulary(text: str) -> str:
    """Lower-case text in one vocabulary, phrase by phrase (words are folded as they are
    coded).

    >>> fold_vocabulary("it comes into play and is removed from the game")
    'it enters battlefield and is exile'
    >>> fold_vocabulary("remove target creature from the game")
    'exile target creature '
    """
    if "from the game" in text:
        text = VOCABULARY_REMOVE.sub(r"exile \1", text)
    return VOCABULARY_PHRASE.sub(lambda match: _PHRASE_OF[match[0]], text)


class _WordCodes:
    """Each distinct word becomes one character, so similarity counts words, not letters.

    The text is first folded to one vocabulary (`VOCABULARY`): a clause that only says
    "battlefield" where it said "in play" keeps most of its similarity.
    """

    def __init__(self) -> None:
        self.codes: dict[str, str] = {}
        self.done: dict[str, str] = {}
        self.spaced_done: dict[str, str] = {}

    def spaced(self, text: str) -> str:
        """The codes separated by spaces, for scorers that compare sets of words."""
        found = self.spaced_done.get(text)
        if found is None:
            found = self.spaced_done[text] = " ".join(self.encode(text))
        return found

    def encode(self, text: str) -> str:
        found = self.done.get(text)
        if found is None:
            found = self.done[text] = self._encode(text)
        return found

    def _encode(self, text: str) -> str:
        folded = fold_vocabulary(text.lower())
        out = []
        for word in _WORD.findall(folded):
            word = VOCABULARY_WORD.get(word, word)
            code = self.codes.get(word)
            if code is None:
                code = chr(0x10000 + len(self.codes))
                self.codes[word] = code
            out.append(code)
        return "".join(out)


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
    codes: _WordCodes,
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
    for total, score, n, o, method in candidates:
        if n not in result.matches and o not in taken:
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
    words = _words(clause.normalised)
    return _contained(words, _words(other.normalised) | _words(partner.normalised)) >= RESTATED


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
    codes: _WordCodes,
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
        pairs = _most_similar(codes, [old[i] for i in olds], [new[i] for i in news], group)
        if both_ways:
            back = _most_similar(codes, [new[i] for i in news], [old[i] for i in olds], group)
            pairs.extend((q, c, score) for c, q, score in back)
        for query, choice, score in pairs:
            found[(news[query], olds[choice])] = score
    return [(n, o, score) for (n, o), score in found.items()]


def _most_similar(
    codes: _WordCodes, choices: list[Clause], queries: list[Clause], group: str
) -> list[tuple[int, int, float]]:
    """(query, choice, word similarity) for the choices most similar to each query."""
    encoded = [codes.encode(clause.normalised) for clause in choices]
    # headings are few and their titles repeat ("General"): every one is a candidate
    limit = len(choices) if group == "heading" else CANDIDATES
    found = []
    for q, clause in enumerate(queries):
        for _choice, score, c in process.extract(
            codes.encode(clause.normalised),
            encoded,
            scorer=fuzz.ratio,
            limit=limit,
            score_cutoff=WITH_CONTEXT,
        ):
            found.append((q, c, score))
    return found


def _moved_pairs(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    exclude: tuple[set[int], set[int]],
    codes: _WordCodes,
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
    choices = [codes.spaced(old[o].normalised) for o in olds]
    news = [n for n in range(len(new)) if n not in result.matches and n not in settled]
    found = []
    for n in (n for n in news if _long_enough(new[n])):
        for _choice, score, position in process.extract(
            codes.spaced(new[n].normalised),
            choices,
            scorer=fuzz.token_set_ratio,
            limit=3,
            score_cutoff=MOVED,
        ):
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
    old: list[Clause], new: list[Clause], result: Alignment, codes: _WordCodes
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
    choices = [codes.spaced(old[o].normalised) for o in olds]
    candidates = []
    for n in news:
        for _choice, score, position in process.extract(
            codes.spaced(new[n].normalised),
            choices,
            scorer=fuzz.token_set_ratio,
            limit=3,
            score_cutoff=MOVED_LEFT,
        ):
            o = olds[position]
            if old[o].pairing != new[n].pairing:
                continue
            evidence = (score + _similarity(old[o], new[n], codes)) / 2
            total = evidence + max(0.0, context.bonus(o, n))
            if total >= LOOSE:
                candidates.append((total, evidence, n, o))
    candidates.sort(key=lambda item: (-item[0], -item[1], item[2], item[3]))
    pieces = _PieceTest(old, new, result)
    for total, evidence, n, o in candidates:
        if n not in result.matches and o not in taken and not pieces.is_piece(n, o):
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
        self.old_at = {clause.number: i for i, clause in enumerate(old) if clause.number}

    def is_piece(self, n: int, o: int) -> bool:
        """True when nearly all of new clause `n`'s words (`RESTATED`) are in an old clause
        near it, other than `o`, and most of them (`MOVED_WORDS`) are words that clause lost
        where it continues."""
        words = _words(self.new[n].normalised)
        partner = {source: kept for kept, source in self.result.matches.items()}
        for source in _around(n, self.result.matches, self.old, self.old_at):
            if source == o or source not in partner:
                continue
            whole = _words(self.old[source].normalised)
            if _contained(words, whole) < RESTATED:
                continue
            lost = whole - _words(self.new[partner[source]].normalised)
            if _contained(words, lost) >= MOVED_WORDS:
                return True
        return False


def _term_words(text: str) -> list[str]:
    """The words of a glossary term that say something, in one vocabulary."""
    folded = fold_vocabulary(_TERM_NOTE.sub("", text).lower())  # phrases only: "play" stays
    return [word for word in _WORD.findall(folded) if word not in TERM_STOP_WORDS]


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


def _mentions(term: list[str], text: str) -> bool:
    """True when every word of `term` is in `text` (by stem): the definition names it."""
    words = _WORD.findall(fold_vocabulary(text))
    return bool(term) and all(any(_same_stem(t, word) for word in words) for t in term)


def _cited(clause: Clause) -> list[str]:
    """The rules a glossary entry refers to ("See rule 711"), ranges by their first rule."""
    return [_range_ends(found)[0] for found in REFERENCE_NUMBER.findall(clause.normalised)]


def _pair_renamed_entries(
    old: list[Clause], new: list[Clause], result: Alignment, codes: _WordCodes
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
        went = {number_map.get(number, number) for number in _cited(old[o])}
        went.discard(None)
        for n in news:
            shared = _shared_term_words(terms_old[o], terms_new[n])
            evidence = TERM_WEIGHT if shared == 1.0 else shared
            cited = _cited(new[n])
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
    codes: _WordCodes,
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
            if _fits(old[o], new[n], context.number_map):
                score = _similarity(old[o], new[n], codes)
                if score >= IN_GAP:
                    off_diagonal = abs((o - anchor) - (n - anchor_new))
                    yield score + context.bonus(o, n) - off_diagonal, score, n, o, IN_PLACE
                    if not alone:
                        break


def _pair_by_children(
    old: list[Clause], new: list[Clause], result: Alignment, codes: _WordCodes
) -> None:
    """A heading renamed beyond recognition ("Planar Magic" -> "Planechase") is still the
    parent of the same children: pair it with the heading where most of them went. A heading
    that went one level up (section 217 "Zones" -> chapter 4) is found through the parents
    of those headings, when its title agrees. A heading is never paired so with content."""
    taken = set(result.matches.values())
    if all(o in taken or not clause.heading for o, clause in enumerate(old)):
        return  # no heading left to pair
    index_of = {clause.number: n for n, clause in enumerate(new) if clause.number}
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
    old: list[Clause], new: list[Clause], result: Alignment, codes: _WordCodes
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
    index_of = {clause.number: n for n, clause in enumerate(new) if clause.number}
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


def _merge_headings_by_children(old: list[Clause], new: list[Clause], result: Alignment) -> None:
    """An old heading nothing continues, whose children went under a new heading that
    continues another, is merged there when one title holds every word of the other (2009:
    section 404 "Triggered Abilities" into 603 "Handling Triggered Abilities", 411 "Playing
    Mana Abilities" into 605 "Mana Abilities"). A heading has too few words to be found as a
    passage (`_attach_unpaired` passes over headings): its children are the evidence, the
    title only says the two are about the same thing. The share of its paired children that
    went there is kept as the merge's evidence."""
    taken = set(result.matches.values()) | {o for olds in result.merges.values() for o in olds}
    waiting: dict[str, int] = {}  # number of an old heading nothing continues -> its index
    for o, clause in enumerate(old):
        if clause.heading and clause.number and o not in taken:
            waiting.setdefault(clause.number, o)
    if not waiting:
        return  # most releases: every heading continues
    index_of = {clause.number: n for n, clause in enumerate(new) if clause.number}
    parent_of = {clause.number: clause.parent for clause in new}
    went: dict[str, Counter[int]] = defaultdict(Counter)  # old heading -> new headings, any depth
    paired_children: Counter[str] = Counter()
    for n, o in result.matches.items():
        parent = old[o].parent
        if parent not in waiting:
            continue
        paired_children[parent] += 1
        target = new[n].parent
        while target is not None:
            at = index_of.get(target)
            if at is not None and new[at].heading and at in result.matches:
                went[parent][at] += 1
            target = parent_of.get(target)
    for number, homes in went.items():
        o, clause = waiting[number], old[waiting[number]]
        title = _term_words(clause.normalised)
        paired = paired_children[number]
        for home, count in homes.most_common():
            if count * 2 <= paired:
                break  # most of its children went elsewhere, or nowhere one heading holds
            if new[home].kind != clause.kind:
                continue  # a level change needs more than a title (see `_pair_by_children`)
            if not _one_title_holds_the_other(title, _term_words(new[home].normalised)):
                continue
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


def _similarity(old: Clause, new: Clause, codes: _WordCodes) -> float:
    return float(fuzz.ratio(codes.encode(old.normalised), codes.encode(new.normalised)))


class _Context:
    """Evidence beyond the words: parents and neighbours already paired, the same number."""

    def __init__(
        self,
        old: list[Clause],
        new: list[Clause],
        result: Alignment,
        codes: _WordCodes | None = None,
    ) -> None:
        self.old, self.new, self.matches = old, new, result.matches
        self.number_map = {old[o].number: new[n].number for n, o in result.matches.items()}
        self.source_of = {new[n].number: old[o].number for n, o in result.matches.items()}
        self.parent_of = {clause.number: clause.parent for clause in new}
        self.codes = codes
        self.old_headings = {c.number: c for c in old if c.heading and c.number}
        self.new_headings = {c.number: c for c in new if c.heading and c.number}
        self.titles_agree: dict[tuple[str, str], bool] = {}

    def bonus(self, o: int, n: int) -> float:
        old, new = self.old[o], self.new[n]
        bonus = 0.0
        # the old parent went where the new clause's parent is, or somewhere else; or the
        # new parent came from somewhere else. A clause that moved one level deeper (a step
        # of a new rule under its parent's successor) counts as staying there; one level
        # higher (under a heading that became a section) is not penalised.
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


def _first_sentence_text(text: str) -> str:
    found = FIRST_SENTENCE.match(text)
    return found[0] if found else text


def _first_sentence(text: str) -> Counter[str]:
    return _words(_first_sentence_text(text))


def _find_splits_and_merges(
    old: list[Clause], new: list[Clause], result: Alignment, codes: _WordCodes
) -> None:
    """Unpaired new clauses drawn from an old one; unpaired old ones absorbed by a new one.

    A piece must be made of words its source lost (a template clause that looks like a
    neighbour, "If a permanent has multiple instances of X ...", is no piece of it), and an
    absorbed clause of words its new home gained. Sources are looked for near the piece
    (and the rules those neighbours belong to) and, by the words that moved, anywhere. The
    identity of a split stays with the piece that carries the old clause's first sentence.
    The two searches are one (`_attach_unpaired`), run in each direction.
    """
    old_of = result.matches
    new_of = {o: n for n, o in old_of.items()}
    words_old = _LazyWords(old)
    words_new = _LazyWords(new)
    lost = _Difference(old, new, new_of, words_old, words_new)  # old -> words it lost
    gained = _Difference(new, old, old_of, words_new, words_old)  # new -> words it gained
    pieces = _Side(
        new,
        old_of,
        words_new,
        result.passed_over,
        result.nearest_new,
        "piece",
        PIECE_WORDS,
        from_glossary=True,
        codes=codes,
    )
    sources = _Side(old, new_of, words_old, result.passed_over_old, result.nearest_old, "")
    for piece, source in _attach_unpaired(pieces, sources, lost, result.moved_words):
        result.splits.setdefault(source, []).append(piece)
    absorbed = _Side(
        old,
        new_of,
        words_old,
        result.passed_over_old,
        result.nearest_old,
        ABSORBED_ROLE,
        codes=codes,
    )
    homes = _Side(new, old_of, words_new, result.passed_over, result.nearest_new, "")
    for clause, home in _attach_unpaired(absorbed, homes, gained, result.moved_words):
        result.merges.setdefault(home, []).append(clause)
    for found in result.splits.values():
        found.sort()
    for olds in result.merges.values():
        olds.sort()
    for o, found in result.splits.items():
        _keep_identity_on_first_sentence(old, new, result, o, found, words_new, codes)
    for n, olds in result.merges.items():
        _keep_merge_identity_on_first_sentence(old, new, result, n, olds, words_old, codes)


@dataclass
class _Side:
    """One release seen from a split or merge search: its clauses, their partners in the
    other release, their words, and the nearest clause each one lost to another."""

    clauses: list[Clause]
    partner: dict[int, int]
    words: _LazyWords
    passed_over: dict[int, int]
    nearest: dict[int, float]
    role: str  # how `moved_words` names a clause attached from this side
    least_words: int = 1  # fewer words than this never attach
    from_glossary: bool = False  # whether a clause may come from a glossary entry far away
    codes: _WordCodes | None = None  # to compare word order (the sides that attach)


def _family(i: int, side: _Side, partner: dict[int, int] | None = None) -> set[int]:
    """The partners (`side.partner`, or `partner`) of clause `i`'s parent, of its siblings
    and of its own subrules, up to `FAMILY` places away: a rule whose list became subrules
    leads them (2009: 217.1c's opening became the rule 400.7, its exceptions the subrules
    400.7a-f)."""
    partner = side.partner if partner is None else partner
    parent = side.clauses[i].parent
    if parent is None:
        return set()
    kin = {parent, side.clauses[i].number} - {None}
    found = set()
    for j in range(max(0, i - FAMILY), min(len(side.clauses), i + FAMILY + 1)):
        clause = side.clauses[j]
        if j in partner and (clause.parent in kin or clause.number == parent):
            found.add(partner[j])
    return found


def _passage_home(
    these: _Side, those: _Side, changed: _Difference, i: int, candidates: list[int]
) -> tuple[int, float] | None:
    """The candidate that holds clause `i` as a passage (`PASSAGE`), most of its words lost
    there (`PASSAGE_WORDS`) and most in the whole clause (`CONTAINED`), and that share."""
    words = these.words[i]
    holding = [j for j in candidates if _contained(words, those.words[j]) >= CONTAINED]
    return _best_passage(these, those, i, holding, changed, PASSAGE_WORDS)


def _best_passage(
    these: _Side,
    those: _Side,
    i: int,
    candidates: list[int],
    words_of: dict[int, Counter[str]],
    least: float,
) -> tuple[int, float] | None:
    """The candidate with the largest share of clause `i`'s words in `words_of` (at least
    `least`) that holds it as a passage, its words in order (`PASSAGE`), and that share."""
    codes = these.codes
    if codes is None:
        return None
    words, text = these.words[i], codes.encode(these.clauses[i].normalised)
    best: tuple[int, float] | None = None
    for j in candidates:
        share = _contained(words, words_of[j])
        if share < least or (best is not None and share <= best[1]):
            continue
        if fuzz.partial_ratio(text, codes.encode(those.clauses[j].normalised)) >= PASSAGE:
            best = (j, share)
    return best


def _attach_unpaired(
    these: _Side, those: _Side, changed: _Difference, moved_words: dict[tuple[str, int], float]
) -> Iterable[tuple[int, int]]:
    """(unpaired rule of `these`, paired rule of `those` it went into or came from).

    For a split, `these` are the new clauses and `changed` holds the words each old clause
    lost; for a merge, `these` are the old clauses and `changed` the words each new clause
    gained. A clause attaches near it (its neighbours' partners, and those of its parent's
    rules a little further: `_family`; and the clause it lost its best match to), where
    most of its words are among those words (`MOVED_WORDS`) and nearly all are in the whole
    clause (`CONTAINED`); a clause attached stands for its source as a neighbour of the
    ones after it, when the clauses paired near them hold no home (a run of pieces: 2009's
    layers 7a-7d, under 612.3, itself a piece of 418.5a); a new rule far from any source
    may come from a glossary entry that lost its words (`MOVED_ANYWHERE`), or most of them
    as a passage in order (`PASSAGE`), unless a rule already held them; failing that, to
    the clause it lost its best match to, when that one was rewritten, or into the rewrite
    of a sibling (`_folded_into_sibling`); an old clause said again by a clause near it is
    merged there (`_restated_near`); a new rule that holds, in order, a passage an entry
    lost is a piece of that entry when the entry was rewritten to cite the rule
    (`_CitingEntries`), however few words it lost; an old rule said again, in order, by a
    rule anywhere (`RESTATED`) is merged there when the rule it was under let it go
    (`_let_go`).
    Glossary entries attach only as absorbed ones, to a neighbouring entry: a new entry
    beside one that lost words is too often a new term for part of an old one.
    """
    at = {clause.number: i for i, clause in enumerate(those.clauses) if clause.number}
    at_these = {clause.number: i for i, clause in enumerate(these.clauses) if clause.number}
    entries: _MovedWordIndex | None = None
    citing: _CitingEntries | None = None
    rules_of_those = _Rules(those.clauses)
    reached = dict(these.partner)  # and each clause attached -> where it attached
    for i in [i for i in range(len(these.clauses)) if i not in these.partner]:
        clause, words = these.clauses[i], these.words[i]
        if clause.heading or words.total() < these.least_words:
            continue
        around = _around(i, these.partner, those.clauses, at) | _family(i, these)
        near = [j for j in around if j in changed]
        if clause.group == "glossary" and these.role == ABSORBED_ROLE:
            # an entry folded into its neighbour (the second meaning of "Counter")
            entries_near = [j for j in near if those.clauses[j].group == "glossary"]
            found = _best_home(these, those, changed, i, entries_near, MOVED_WORDS)
            if found is not None:
                moved_words[(these.role, i)] = round(100 * found[1], 1)
                yield i, found[0]
            continue
        if clause.group != "rule":
            continue
        rules = [j for j in near if those.clauses[j].group == "rule"]
        other = these.passed_over.get(i)  # its best match, lost to another: near it too
        if other is not None and other in changed and those.clauses[other].group == "rule":
            rules.append(other)
        found = _best_home(these, those, changed, i, rules, MOVED_WORDS)
        if found is None and len(reached) > len(these.partner):
            through = _around(i, reached, those.clauses, at) | _family(i, these, reached)
            run = [j for j in through - around if j in changed and those.clauses[j].group == "rule"]
            found = _best_home(these, those, changed, i, run, MOVED_WORDS)
        if found is None and these.from_glossary and words.total() >= ANYWHERE_WORDS:
            entries = entries or _MovedWordIndex(those, these.clauses, changed)
            candidates = entries.candidates(words)
            found = _best_home(these, those, changed, i, candidates, MOVED_ANYWHERE)
            if found is None:
                found = _passage_home(these, those, changed, i, candidates)
            found = _unless_a_rule_said_it(found, rules_of_those, clause)
        if found is not None:
            moved_words[(these.role, i)] = round(100 * found[1], 1)
            reached[i] = found[0]
            yield i, found[0]
            continue
        # one that lost its best match to another clause, from (or into) a rewritten one:
        # the statement went into both (409.1a: casting 601.2a, activating 602.2a)
        other = these.passed_over.get(i)
        if (
            other is not None
            and other in changed
            and changed[other].total()
            and these.nearest[i] >= STRICT
            and _contained(words, those.words[other]) >= CONTAINED
        ):
            moved_words[(these.role, i)] = round(these.nearest[i], 1)
            yield i, other
            continue
        folded = _folded_into_sibling(these, those, changed, i)
        if folded is None and these.role == ABSORBED_ROLE:
            folded = _restated_near(these, those, i, rules)
        if folded is None and these.role == ABSORBED_ROLE and words.total() >= ANYWHERE_WORDS:
            homes = [
                j
                for j in rules_of_those.having(words)
                if j in those.partner and _let_go(these, those, i, j, at_these)
            ]
            folded = _best_passage(these, those, i, homes, those.words, RESTATED)
        if folded is None and these.from_glossary:
            citing = citing or _CitingEntries(those, these.clauses)
            folded = _passage_home(these, those, changed, i, citing.of(clause))
            folded = _unless_a_rule_said_it(folded, rules_of_those, clause)
        if folded is not None:
            moved_words[(these.role, i)] = round(100 * folded[1], 1)
            yield i, folded[0]


def _restated_near(
    these: _Side, those: _Side, i: int, candidates: list[int]
) -> tuple[int, float] | None:
    """The clause near old clause `i` that restates it as a passage (`PASSAGE`, most of its
    words: `REPEATED`), and that share: what the old release said twice, the new one says
    once (2022-10-07: 723.2a moved the planar deck into a subgame, 723.2d the scheme deck;
    724.2a moves every supplementary deck). Its words moved nowhere, so only their order
    and place can say where it went."""
    return _best_passage(these, those, i, candidates, those.words, REPEATED)


def _folded_into_sibling(
    these: _Side, those: _Side, changed: _Difference, i: int
) -> tuple[int, float] | None:
    """The clause that continues a sibling of clause `i` and took `i` in as it was rewritten
    (2015: 701.16d's "replacement effect" case folded into 701.16c), and the share of `i`'s
    own words (those its sibling lacks) among the words that changed there.

    The two siblings shared most of their words, so the words that moved are only the ones
    that told `i` apart; they must be there, and half of all of `i`'s words too."""
    other = these.passed_over.get(i)
    if other is None or other not in changed:
        return None
    sibling = those.partner[other]
    if these.clauses[sibling].parent != these.clauses[i].parent:
        return None
    words = these.words[i]
    own = words - these.words[sibling]
    if not own or _contained(words, those.words[other]) < SIBLING_WORDS:
        return None
    share = _contained(own, changed[other])
    return (other, share) if share >= MOVED_WORDS else None


class _Rules:
    """The rules of a release, found by their rarest words (read when first asked for)."""

    def __init__(self, clauses: list[Clause]) -> None:
        self.clauses = clauses

    @cached_property
    def texts(self) -> dict[int, str]:
        return {
            j: clause.normalised.lower()
            for j, clause in enumerate(self.clauses)
            if clause.group == "rule" and not clause.heading
        }

    def having(self, words: Counter[str]) -> list[int]:
        """The rules with the longest of `words` (the rarest): the only ones worth reading
        word for word."""
        rare = sorted(words, key=len, reverse=True)[:RARE_WORDS]
        return [j for j, text in self.texts.items() if all(word in text for word in rare)]

    def hold(self, passage: str) -> bool:
        """True when one rule has most of `passage`'s words (`REPEATED`)."""
        words = _words(passage)
        return any(_contained(words, _words(self.texts[j])) >= REPEATED for j in self.having(words))


def _unless_a_rule_said_it(
    found: tuple[int, float] | None, rules: _Rules, clause: Clause
) -> tuple[int, float] | None:
    """`found`, the entry a new rule came from, unless an old rule already said the rule:
    then the glossary only repeated that rule, which is the new one's source."""
    return None if found is not None and rules.hold(clause.normalised) else found


def _let_go(these: _Side, those: _Side, i: int, j: int, at: dict[str, int]) -> bool:
    """True when the rule that old clause `i` was under let it go to new clause `j`: that
    rule is gone (2023: the section on meld cards went, and what its face-down rule said
    712.15 now says of every double-faced card), or its new text cites `j` or a rule `j`
    is under (2018: the Two-Headed Giant's combat rules became "see rule 805.10", which
    says them word for word). A rule of a section that stayed and said nothing of `j` was
    only written on the same template (2006: bushido's 502.38b and rampage's 502.12b)."""
    parent = at.get(these.clauses[i].parent or "")
    if parent is None:
        return False
    if parent not in these.partner:
        return True
    number = those.clauses[j].number or ""
    return any(is_under(number, cited) for cited in _cited(those.clauses[these.partner[parent]]))


def _best_home(
    these: _Side,
    those: _Side,
    changed: _Difference,
    i: int,
    candidates: Iterable[int],
    enough: float,
) -> tuple[int, float] | None:
    """The candidate that most of clause `i`'s words moved to or from, and that share (at
    least `enough`; far away, the words alone must say it, so more of them)."""
    words = these.words[i]
    best = max(candidates, key=lambda j: _contained(words, changed[j]), default=None)
    if best is None or _contained(words, those.words[best]) < max(CONTAINED, enough):
        return None
    share = _contained(words, changed[best])
    return (best, share) if share >= enough else None


class _MovedWordIndex:
    """Which glossary entries of one release lost which words: the candidates for a rule
    found far from where its words were (2009: the entry "Mana Pool" gave 106.4 its text)."""

    def __init__(self, side: _Side, other: list[Clause], changed: _Difference) -> None:
        self.postings: dict[str, list[int]] = defaultdict(list)
        for j, partner in side.partner.items():
            clause = side.clauses[j]
            if (
                clause.kind == "glossary"
                and other[partner].version_hash != clause.version_hash
                # it gave a passage away: it is shorter by about that many words
                and clause.normalised.count(" ") - other[partner].normalised.count(" ")
                >= ANYWHERE_WORDS * MOVED_ANYWHERE
            ):
                for word in changed[j]:
                    self.postings[word].append(j)

    def candidates(self, words: Counter[str]) -> list[int]:
        """The entries sharing most of `words`' rarer words (common ones say nothing)."""
        tally: Counter[int] = Counter()
        for word in words:
            posting = self.postings.get(word, ())
            if 0 < len(posting) <= COMMON_WORD:
                tally.update(posting)
        return [j for j, _count in tally.most_common(ANYWHERE_CANDIDATES)]


class _CitingEntries:
    """The glossary entries of one release that were rewritten to cite rules, by the rules
    their new text cites: a definition moved into the rules leaves its entry pointing there
    (2009: "Unblockable" now reads "An attribute of a creature that precludes it from being
    blocked. See rule 700.5.", and 700.5 holds its old text). The citation stands in for the
    length a passage found far away must have (`ANYWHERE_WORDS`)."""

    def __init__(self, side: _Side, other: list[Clause]) -> None:
        self.by_rule: dict[str, list[int]] = defaultdict(list)
        for j, partner in side.partner.items():
            clause = side.clauses[j]
            if clause.kind == "glossary" and other[partner].version_hash != clause.version_hash:
                for number in _cited(other[partner]):
                    self.by_rule[number].append(j)

    def of(self, clause: Clause) -> list[int]:
        """The entries that now cite `clause`, or a rule it is under."""
        number = clause.number or ""
        return [j for cited, at in self.by_rule.items() if is_under(number, cited) for j in at]


def _around(
    index: int, paired: dict[int, int], other: list[Clause], other_at: dict[str, int]
) -> set[int]:
    """The clauses of the other release that the neighbours of `index` are paired with, and
    the rules those belong to (a rule's subrules can push its new piece far from it)."""
    found = {paired[m] for m in range(index - NEAR, index + NEAR + 1) if m in paired}
    parents = {other_at.get(other[i].parent or "") for i in found if other[i].kind == "subrule"}
    return found | {i for i in parents if i is not None}


class _Difference(dict[int, Counter[str]]):
    """The words each paired rule of one release has that its partner lacks, counted when
    first asked for (only clauses near an unpaired one are)."""

    def __init__(
        self,
        these: list[Clause],
        those: list[Clause],
        partner: dict[int, int],
        these_words: _LazyWords,
        those_words: _LazyWords,
    ) -> None:
        super().__init__()
        self.these, self.those, self.partner = these, those, partner
        self.these_words, self.those_words = these_words, those_words

    def __contains__(self, index: object) -> bool:
        return (
            isinstance(index, int)
            and index in self.partner
            and self.these[index].group in ("rule", "glossary")
        )

    def __missing__(self, index: int) -> Counter[str]:
        other = self.partner[index]
        difference: Counter[str] = Counter()
        if self.these[index].normalised != self.those[other].normalised:
            difference = self.these_words[index] - self.those_words[other]
        self[index] = difference
        return difference


def _keep_merge_identity_on_first_sentence(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    n: int,
    olds: list[int],
    words_old: _LazyWords,
    codes: _WordCodes,
) -> None:
    """Move a merge's identity to the absorbed clause whose words open the new clause, if
    one does better than the clause paired so far (as `_keep_identity_on_first_sentence`:
    2009: 203.1c "Lands normally have no mana cost." opens 202.1b "Some objects have no
    mana cost. ...", and 203.1d on tokens is its second case)."""
    kept = result.matches[n]
    best = _opens_better(new[n], kept, olds, old, words_old, codes)
    if best is None:
        return
    result.matches[n] = best
    olds[olds.index(best)] = kept
    olds.sort()
    result.moved_words[("absorbed", kept)] = result.moved_words.pop(("absorbed", best))


def _keep_identity_on_first_sentence(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    o: int,
    pieces: list[int],
    words_new: _LazyWords,
    codes: _WordCodes,
) -> None:
    """Move a split's identity to the piece that carries the old statement, if another does
    better than the clause paired so far: it holds more of the old first sentence's words,
    or its own first sentence reads like it, word for word (`_reads_much_more_like`)
    (2009-10-05: 117.1's "Each player begins the game with a life total of 20." stayed
    117.1, and the sentence on Two-Headed Giant, which shares most of its words, went to
    117.1a)."""
    kept = next(n for n, source in result.matches.items() if source == o)
    # a glossary entry continues in the entry with its term, not in a rule it gave text to
    alike = [p for p in pieces if new[p].group == new[kept].group]
    best = _opens_better(old[o], kept, alike, new, words_new, codes) if alike else None
    if best is None:
        return
    del result.matches[kept]
    similarity, method = result.similarity.pop(kept), result.method.pop(kept)
    result.pair(best, o, similarity, method, result.score.pop(kept))
    pieces[pieces.index(best)] = kept
    pieces.sort()
    result.moved_words[("piece", kept)] = result.moved_words.pop(("piece", best))


def _opens_better(
    clause: Clause,
    kept: int,
    others: list[int],
    side: list[Clause],
    words: _LazyWords,
    codes: _WordCodes,
) -> int | None:
    """The one of `others` (indices into `side`) that carries `clause`'s opening better than
    `kept`: it holds more of the first sentence's words (`OPENS_BETTER`), or its own first
    sentence reads much more like it (`_reads_much_more_like`); or None."""
    first = _first_sentence(clause.normalised)
    best = max(others, key=lambda i: _contained(first, words[i]))
    if _contained(first, words[best]) > _contained(first, words[kept]) + OPENS_BETTER:
        return best
    return _reads_much_more_like(clause, kept, others, side, codes)


def _reads_much_more_like(
    clause: Clause, kept: int, others: list[int], side: list[Clause], codes: _WordCodes
) -> int | None:
    """The one of `others` (indices into `side`) whose first sentence reads like `clause`'s,
    word for word (`LOOSE`), and much more than `kept`'s does (`READS_BETTER`); or None."""
    opening = codes.encode(_first_sentence_text(clause.normalised))

    def reads_like(i: int) -> float:
        return fuzz.ratio(opening, codes.encode(_first_sentence_text(side[i].normalised)))

    best = max(others, key=reads_like)
    if reads_like(best) < LOOSE or reads_like(best) <= reads_like(kept) + READS_BETTER:
        return None
    return best


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
        elif (
            old[o].version_hash == clause.version_hash
            and old[o].label == clause.label
            and old[o].examples == clause.examples
        ):
            result.kinds[n] = UNCHANGED  # most clauses: decided without looking further
        else:
            result.kinds[n] = kind_of_change(old[o], clause, number_map)
    merged = {o for olds in result.merges.values() for o in olds}
    matched = set(result.matches.values())
    for o in range(len(old)):
        if o not in matched:
            result.removed[o] = MERGED if o in merged else REMOVED


def kind_of_change(old: Clause, new: Clause, number_map: dict[str | None, str | None]) -> str:
    """The kind of change from one clause to the clause that continues it.

    Examples are part of a rule's wording: when only they changed (one added, removed or
    reworded), the change is `example`; a change of the rule's own words says more and wins,
    and so does a renumbering or a reference that followed one.
    """
    kind = _kind_of_text_change(old, new, number_map)
    if kind in (UNCHANGED, FORMATTING) and old.examples != new.examples:
        if same_but_formatting(old.examples, new.examples):
            return FORMATTING
        return EXAMPLE
    return kind


def _kind_of_text_change(old: Clause, new: Clause, number_map: dict[str | None, str | None]) -> str:
    renumbered = _label_key(old) != _label_key(new)
    if old.normalised == new.normalised:
        if renumbered:
            return RENUMBERED
        return UNCHANGED if old.version_hash == new.version_hash else FORMATTING
    if _only_formatting_differs(old.normalised, new.normalised):
        return RENUMBERED if renumbered else FORMATTING  # markup or lost characters only
    before, after = fold_markup(old.normalised), fold_markup(new.normalised)
    if _only_references_follow(before, after, number_map):
        if renumbered:
            return RENUMBERED
        # "409.1a-409.1h" -> "409.1a-h": the same rules, written another way
        return FORMATTING if _same_rules_named(before, after) else REFERENCE
    return RENUMBERED_REWORDED if renumbered else REWORDED


def _same_rules_named(old_text: str, new_text: str) -> bool:
    """True when each reference names the same rules under the same quoted title."""
    pairs = zip(_references(old_text), _references(new_text), strict=True)
    return all(_range_ends(a) == _range_ends(b) and s == t for (a, s), (b, t) in pairs)


@lru_cache(maxsize=TEXTS_KEPT)
def _references(text: str) -> list[tuple[str, str]]:
    """(rule number or range, the title quoted after it or "") of each reference, in order;
    the punctuation that closes a title inside its quotes ('"Flying."') is typography."""
    return [(m[1], (m[2] or "").rstrip(".,;:")) for m in TITLED_REFERENCE.finditer(text)]


@lru_cache(maxsize=TEXTS_KEPT)
def _masked_titled(text: str) -> str:
    """The text with every reference, and the title quoted after it, replaced by `#`."""
    return TITLED_REFERENCE.sub("#", text)


def _label_key(clause: Clause) -> str:
    """A glossary term compares in its normalised form, markup folded: 'Isn’t' is "Isn't",
    "Planar _Magic_" is "Planar Magic"."""
    if clause.kind != "glossary":
        return clause.label
    return _term_key(clause.label)


def _only_references_follow(
    old_text: str, new_text: str, number_map: dict[str | None, str | None]
) -> bool:
    """True when the texts differ only in rule numbers, each changed as its rule moved (the
    two ends of a range each as theirs: "601.2e-g" -> "601.2f-h")."""
    pairs = reference_end_pairs(old_text, new_text)
    return pairs is not None and all(number_map.get(x, y) == y for x, y in pairs)


def reference_end_pairs(old_text: str, new_text: str) -> list[tuple[str, str]] | None:
    """The (old, new) rule numbers that must each have followed its rule for the texts to
    differ only in references: the two ends of a range each on its own ("601.2e-g" ->
    "601.2f-h" asks 601.2e -> 601.2f and 601.2g -> 601.2h). None when no renumbering can
    explain the change: other words differ, or a range became one rule. Formatting around
    the numbers (markup, quotation marks, lost characters: `same_but_formatting`) may differ
    too: it is no change of words; so may the title quoted after a reference (`rule 403,
    "Activated Abilities"` -> `rule 602, "Activating Activated Abilities"`): it names the
    rule referred to, renamed as it moved. The in-browser compare checks the same pairs
    against the releases it compares.

    >>> reference_end_pairs("see rules 601.2e-g", "see rules 601.2f-h")
    [('601.2e', '601.2f'), ('601.2g', '601.2h')]
    >>> reference_end_pairs("see rules 301.5a-d", "see rules 301.5a-e")
    [('301.5d', '301.5e')]
    >>> reference_end_pairs("see rule 504.2", "see rules 708.2-708.4") is None
    True
    >>> reference_end_pairs("a bands with other ability (rule 502.10)",
    ...                     'a "bands with other" ability (rule 702.19)')
    [('502.10', '702.19')]
    >>> reference_end_pairs('"Upkeep Step" (rule 309)', '"Upkeep Step," (rule 509)') is None
    True
    >>> reference_end_pairs('see rule 403, "Activated Abilities."',
    ...                     'see rule 602, "Activating Activated Abilities."')
    [('403', '602')]
    >>> reference_end_pairs('see rule 403, "Activated Abilities."',
    ...                     'see rule 602, "Activated Abilities," and rule 603') is None
    True
    """
    if not _differ_only_in(_masked, old_text, new_text) and not _differ_only_in(
        _masked_titled, old_text, new_text
    ):
        return None
    found: list[tuple[str, str]] = []
    old_references, new_references = _references(old_text), _references(new_text)
    if len(old_references) != len(new_references):
        return None
    for (a, _title), (b, _new_title) in zip(old_references, new_references, strict=True):
        if a == b:
            continue
        ends_a, ends_b = _range_ends(a), _range_ends(b)
        if len(ends_a) != len(ends_b):
            return None
        found.extend((x, y) for x, y in zip(ends_a, ends_b, strict=True) if x != y)
    return found


def _differ_only_in(masked: Callable[[str], str], old_text: str, new_text: str) -> bool:
    """True when the two texts, masked so, are the same but for formatting."""
    old_masked, new_masked = masked(old_text), masked(new_text)
    return old_masked == new_masked or _only_formatting_differs(old_masked, new_masked)


def _range_ends(reference: str) -> tuple[str, ...]:
    """The rules a reference names at its ends.

    >>> _range_ends("601.2e-g"), _range_ends("702.1-702.5"), _range_ends("504.2")
    (('601.2e', '601.2g'), ('702.1', '702.5'), ('504.2',))
    """
    start, _dash, end = reference.partition("-")
    if not end:
        return (start,)
    if end.isalpha():
        return start, start.rstrip("abcdefghijklmnopqrstuvwxyz") + end
    return start, end

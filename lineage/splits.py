"""Splits and merges, found once the pairings are made: an unpaired new clause drawn from an
old one that continues elsewhere is a piece split off it; an unpaired old clause absorbed by a
new one that continues another was merged into it. The identity of a split (or a merge)
stays with the clause that carries the old first sentence; when no piece of a split kept a
trace of it, with the piece that holds its earliest statement."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from rapidfuzz import fuzz

from lineage.alignment import ABSORBED_ROLE, CERTAIN_METHODS, Alignment
from lineage.change_kind import cited_rules
from lineage.clause import NEAR, Clause, index_by_number
from lineage.entry_sentences import entry_pieces
from lineage.moved_sentences import (
    SENTENCE_END,
    SENTENCE_WORDS,
    find_moved_sentences,
    is_content_rule,
)
from lineage.words import (
    LOOSE,
    PASSAGE,
    PASSAGE_WORDS,
    STRICT,
    WORD,
    LazyWords,
    WordCodes,
    first_sentence_text,
    first_sentence_words,
    share_contained,
    word_counts,
)
from vocabulary.numbers import is_under

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
# ... or a passage that kept its order (`PASSAGE`), most of its words among the words the
# source lost (`PASSAGE_WORDS`).
# A clause restated elsewhere says nothing new: at most one word in twenty is outside the
# clause it restates and that clause's own successor (or predecessor); an old rule said again
# by a rule far away keeps as many of its words there.
RESTATED = 0.95
# Subrules push a piece away from its source's successor (509.5 after 509.4a-f): the rules of
# the piece's own parent this far away still count as near it.
FAMILY = 12
RARE_WORDS = 3  # a rule that holds a passage has its three longest words
REPEATED = 0.75  # share of a passage's words a rule had: the glossary only repeated it
OBSOLETE_MARK = "(obsolete)"  # how a glossary term says cards no longer use it (lower case)
PIECE_WORDS = 4  # a shorter new rule ("Instants have no subtypes.") matches any source
CONTENT_LETTERS = 4  # shorter words ("a", "the", "of", "can", "its") are the grammar's


def find_splits_and_merges(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    codes: WordCodes,
    another_keyword: Callable[[int, int], bool] = lambda _o, _n: False,
) -> None:
    """Unpaired new clauses drawn from an old one; unpaired old ones absorbed by a new one.

    A piece must be made of words its source lost (a template clause that looks like a
    neighbour, "If a permanent has multiple instances of X ...", is no piece of it), and an
    absorbed clause of words its new home gained. Sources are looked for near the piece
    (and the rules those neighbours belong to) and, by the words that moved, anywhere. The
    identity of a split stays with the piece that carries the old clause's first sentence.
    The two searches are one (`_attach_unpaired`), run in each direction. A new rule that
    is an old one written for another keyword (`another_keyword(old, new)`: 2024's disguise
    casting rule 702.168b, on morph's 702.37c template) is no piece of it: a new keyword's
    rules begin there.
    """
    old_of = result.matches
    new_of = {o: n for n, o in old_of.items()}
    words_old = LazyWords(old)
    words_new = LazyWords(new)
    lost = _Difference(old, new, new_of, words_old, words_new)  # old -> words it lost
    gained = _Difference(new, old, old_of, words_new, words_old)  # new -> words it gained
    at_old, at_new = index_by_number(old), index_by_number(new)  # once for both searches
    pieces = _Side(
        new,
        old_of,
        words_new,
        at_new,
        result.passed_over,
        result.nearest_new,
        "piece",
        PIECE_WORDS,
        from_glossary=True,
        new_siblings=True,
        codes=codes,
    )
    sources = _Side(old, new_of, words_old, at_old, result.passed_over_old, result.nearest_old, "")
    old_rules = RulesByRareWords(old)  # read once, by both searches for a piece's source
    attached = _attach_unpaired(
        pieces, sources, lost, result.moved_words, old_rules, lambda n, o: another_keyword(o, n)
    )
    for piece, source in attached:
        result.splits.setdefault(source, []).append(piece)
    for piece, entry, score in entry_pieces(old, new, result, words_new, codes, old_rules.hold):
        result.splits.setdefault(entry, []).append(piece)
        result.moved_words[("piece", piece)] = score
        result.by_entry_sentence.add(piece)
    for piece, entry in _obsolete_entries(old, new, result, new_of):
        result.splits.setdefault(entry, []).append(piece)
        result.moved_words[("piece", piece)] = round(
            100 * share_contained(words_new[piece], words_old[entry]), 1
        )
    absorbed = _Side(
        old,
        new_of,
        words_old,
        at_old,
        result.passed_over_old,
        result.nearest_old,
        ABSORBED_ROLE,
        codes=codes,
    )
    homes = _Side(new, old_of, words_new, at_new, result.passed_over, result.nearest_new, "")
    new_rules = RulesByRareWords(new)
    for clause, home in _attach_unpaired(absorbed, homes, gained, result.moved_words, new_rules):
        result.merges.setdefault(home, []).append(clause)
    for found in result.splits.values():
        found.sort()
    for olds in result.merges.values():
        olds.sort()
    for o, piece, share in _openings_left_behind(old, new, result, words_new, codes):
        result.splits.setdefault(o, []).append(piece)
        result.moved_words[("piece", piece)] = share
    for o, found in result.splits.items():
        _keep_identity_on_first_sentence(old, new, result, o, found, words_new, codes)
    for n, olds in result.merges.items():
        _keep_merge_identity_on_first_sentence(old, new, result, n, olds, words_old, codes)
    find_moved_sentences(old, new, result)  # after: the identities stay where they are


def _obsolete_entries(
    old: list[Clause], new: list[Clause], result: Alignment, new_of: dict[int, int]
) -> Iterator[tuple[int, int]]:
    """(new entry, old entry) for each new entry "X (Obsolete)" whose term X is the term of
    an old entry that continues under another term: the old name was kept as an entry of
    its own, pointing to the new one (2009: "In Play" became "Battlefield", and "In Play
    (Obsolete)" says that cards printed with "in play" mean the battlefield)."""
    attached = {n for found in result.splits.values() for n in found}
    obsolete: dict[str, int] = {}  # the term without its mark -> the entry
    for n, clause in enumerate(new):
        if clause.kind == "glossary" and n not in result.matches and n not in attached:
            term = (clause.title or "").lower()
            if term.endswith(OBSOLETE_MARK):
                obsolete[term.removesuffix(OBSOLETE_MARK).strip()] = n
    if not obsolete:
        return
    for o, entry in enumerate(old):
        found = obsolete.get((entry.title or "").lower()) if entry.kind == "glossary" else None
        if found is not None and o in new_of and new[new_of[o]].title != entry.title:
            yield found, o


@dataclass
class _Side:
    """One release seen from a split or merge search: its clauses, their partners in the
    other release, their words, and the nearest clause each one lost to another."""

    clauses: list[Clause]
    partner: dict[int, int]
    words: LazyWords
    at: dict[str, int]  # number -> index (the last clause of a number, if it repeats)
    passed_over: dict[int, int]
    nearest: dict[int, float]
    role: str  # how `moved_words` names a clause attached from this side
    least_words: int = 1  # fewer words than this never attach
    from_glossary: bool = False  # whether a clause may come from a glossary entry far away
    # whether a clause may be a new one written on the pattern of one attached before it
    # (a split's pieces; two old rules that said the same thing both merge into one)
    new_siblings: bool = False
    codes: WordCodes | None = None  # to compare word order (the sides that attach)


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
    holding = [j for j in candidates if share_contained(words, those.words[j]) >= CONTAINED]
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
        share = share_contained(words, words_of[j])
        if share < least or (best is not None and share <= best[1]):
            continue
        if fuzz.partial_ratio(text, codes.encode(those.clauses[j].normalised)) >= PASSAGE:
            best = (j, share)
    return best


def _attach_unpaired(
    these: _Side,
    those: _Side,
    changed: _Difference,
    moved_words: dict[tuple[str, int], float],
    rules_of_those: RulesByRareWords,
    refused: Callable[[int, int], bool] = lambda _i, _j: False,
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
    the clause it lost its best match to, when that one was rewritten (unless it is a new
    clause on that one's pattern: `_on_its_pattern`), or into the rewrite of a sibling
    (`_folded_into_sibling`); an old clause said again by a clause near it is
    merged there (`_restated_near`); a new rule that holds, in order, a passage an entry
    lost is a piece of that entry when the entry was rewritten to cite the rule
    (`_CitingEntries`), however few words it lost; an old rule said again, in order, by a
    rule anywhere (`RESTATED`) is merged there when the rule it was under let it go
    (`_let_go`).
    A piece that holds no more than half its words among those its source lost and no piece
    before it took, and says something the source never said, is a new clause written on
    that piece's pattern (`_new_sibling`), and stays added.
    Glossary entries attach only as absorbed ones, to a neighbouring entry: a new entry
    beside one that lost words is too often a new term for part of an old one. A clause
    never attaches where `refused(clause, other)` says it may not.
    """
    at, at_these = those.at, these.at
    entries: _MovedWordIndex | None = None
    citing: _CitingEntries | None = None
    reached = dict(these.partner)  # and each clause attached -> where it attached
    taken: dict[int, Counter[str]] = defaultdict(Counter)  # words attached clauses took
    for i in [i for i in range(len(these.clauses)) if i not in these.partner]:
        clause, words = these.clauses[i], these.words[i]
        if clause.heading or words.total() < these.least_words:
            continue
        around = partners_around(i, these.partner, those.clauses, at) | _family(i, these)
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
            through = partners_around(i, reached, those.clauses, at) | _family(i, these, reached)
            run = [j for j in through - around if j in changed and those.clauses[j].group == "rule"]
            found = _best_home(these, those, changed, i, run, MOVED_WORDS)
        if found is None and these.from_glossary and words.total() >= ANYWHERE_WORDS:
            entries = entries or _MovedWordIndex(those, these.clauses, changed)
            candidates = entries.candidates(words)
            found = _best_home(these, those, changed, i, candidates, MOVED_ANYWHERE)
            if found is None:
                found = _passage_home(these, those, changed, i, candidates)
            found = _unless_a_rule_said_it(found, rules_of_those, clause)
        if found is not None and refused(i, found[0]):
            found = None
        if found is not None and these.new_siblings:
            j = found[0]
            if _new_sibling(words, changed[j] - taken[j], those.words[j]):
                continue
            taken[j] += words
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
            and not refused(i, other)
            and other in changed
            and changed[other].total()
            and these.nearest[i] >= STRICT
            and share_contained(words, those.words[other]) >= CONTAINED
            and not _on_its_pattern(words, those.words[other], these.words[those.partner[other]])
        ):
            moved_words[(these.role, i)] = round(these.nearest[i], 1)
            yield i, other
            continue
        folded = _folded_into_sibling(these, those, changed, i)
        if folded is None and these.role != ABSORBED_ROLE:
            folded = _parallel_case(these, those, changed, i)
        if folded is None and these.role == ABSORBED_ROLE:
            # a home that reads word for word as before took nothing in
            folded = _restated_near(these, those, i, [j for j in rules if changed[j].total()])
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
        if folded is not None and not refused(i, folded[0]):
            moved_words[(these.role, i)] = round(100 * folded[1], 1)
            yield i, folded[0]


def _content_words(words: Iterable[str]) -> set[str]:
    """The words that say what a clause is about: no number, no short grammar word."""
    return {word for word in words if len(word) >= CONTENT_LETTERS and word.isalpha()}


def _on_its_pattern(words: Counter[str], source: Counter[str], successor: Counter[str]) -> bool:
    """True when a clause that reads like `source` (a rule its successor continues) is a new
    rule written on its pattern, not a statement it gave away: it holds none of the words
    about something that the source said and its successor no longer says, and it is about
    something neither of them says. 2001-07-23: 102.8, "If a player has ten or more poison
    counters, he or she loses the game the next time a player would receive priority", is
    102.1's sentence on life, which 102.1 still says; 2009: 703.2, "Turn-based actions are
    not controlled by any player", on 704.2's state-based actions. A statement said again
    in two places is no such rule: 2009's 118.3c restates wither (702.77a), and 806.9d is
    117.4a word for word, both from the rules they continue."""
    dropped = _content_words(source) - set(successor)
    if dropped & set(words):
        return False
    return bool(_content_words(words) - set(source) - set(successor))


def _new_sibling(words: Counter[str], left: Counter[str], source: Counter[str]) -> bool:
    """True when a piece with `words` holds too few of the words its source lost that are
    `left` (`MOVED_WORDS`: the pieces before it took the rest) and has a word the source
    never had: a new clause on the pattern of a piece before it (2003-10-01: 502.7d, on
    protection from Equipment, beside 502.7c's from enchantments; 2016-11-11: 603.10e, a new
    look-back trigger beside those 603.6d listed). Words with a digit are labels and rule
    numbers ("Layer 7a", "see rule 604.3"): a renumbering changes them, so they say nothing
    new."""
    if share_contained(words, left) >= MOVED_WORDS:
        return False
    return any(word not in source and not any(ch.isdigit() for ch in word) for word in words)


def _parallel_case(
    these: _Side, those: _Side, changed: _Difference, i: int
) -> tuple[int, float] | None:
    """The clause that new clause `i`'s sibling continues, when `i` says for a second case
    what the sibling says for the first and that clause said for both, and the share of the
    words it lost that `i` holds (2009: 415.2 "An activated or triggered ability is
    targeted if ..." became 113.1c on activated abilities and 113.1d, the same words but
    for the moment targets are chosen, on triggered ones).

    `i` reads like its sibling word for word (`STRICT`), and holds most of the words the
    old clause lost on the way (`MOVED_WORDS`: "triggered", the case the sibling dropped).
    Each case may gain a sentence of its own, so `i` may hold too few of the old clause's
    words for `CONTAINED`."""
    codes = these.codes
    if codes is None:
        return None
    clause = these.clauses[i]
    text = codes.encode(clause.normalised)
    best: tuple[int, float] | None = None
    for k in range(max(0, i - NEAR), min(len(these.clauses), i + NEAR + 1)):
        other = these.partner.get(k)
        if other is None or other not in changed or these.clauses[k].parent != clause.parent:
            continue
        lost = changed[other]
        if not lost.total() or fuzz.ratio(text, codes.encode(these.clauses[k].normalised)) < STRICT:
            continue
        share = share_contained(lost, these.words[i])
        if share >= MOVED_WORDS and (best is None or share > best[1]):
            best = (other, share)
    return best


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
    if not own or share_contained(words, those.words[other]) < SIBLING_WORDS:
        return None
    share = share_contained(own, changed[other])
    return (other, share) if share >= MOVED_WORDS else None


class RulesByRareWords:
    """The rules of a release, found by their rarest words (read when first asked for)."""

    def __init__(self, clauses: list[Clause]) -> None:
        self.clauses = clauses

    @cached_property
    def texts(self) -> dict[int, str]:
        return {
            j: clause.normalised.lower()
            for j, clause in enumerate(self.clauses)
            if is_content_rule(clause)
        }

    def having(self, words: Counter[str]) -> list[int]:
        """The rules with the longest of `words` (the rarest): the only ones worth reading
        word for word."""
        rare = sorted(words, key=len, reverse=True)[:RARE_WORDS]
        if not rare:
            return list(self.texts)
        # the rarest word alone rules out nearly every text: the others are read after it
        rarest, others = rare[0], rare[1:]
        return [
            j
            for j, text in self.texts.items()
            if rarest in text and all(word in text for word in others)
        ]

    def hold(self, clause: Clause) -> bool:
        """True when one rule has most of `clause`'s words (`REPEATED`)."""
        words = word_counts(clause.normalised)
        return any(
            share_contained(words, word_counts(self.texts[j])) >= REPEATED
            for j in self.having(words)
        )


def _unless_a_rule_said_it(
    found: tuple[int, float] | None, rules: RulesByRareWords, clause: Clause
) -> tuple[int, float] | None:
    """`found`, the entry a new rule came from, unless an old rule already said the rule:
    then the glossary only repeated that rule, which is the new one's source."""
    return None if found is not None and rules.hold(clause) else found


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
    return any(
        is_under(number, cited) for cited in cited_rules(those.clauses[these.partner[parent]])
    )


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
    words, parent = these.words[i], these.clauses[i].parent

    def moved_here(j: int) -> tuple[float, bool]:
        """The share of words that moved; on a tie (a sentence two clauses both lost, or
        both gained), the one whose partner sits under clause `i`'s parent (2009: "Then the
        active player gets priority" left 310.1 and 311.1; 510.4 is 310.1's, as 510.1)."""
        partner = those.partner.get(j)
        beside = partner is not None and these.clauses[partner].parent == parent
        return share_contained(words, changed[j]), beside

    best = max(candidates, key=moved_here, default=None)
    if best is None or share_contained(words, those.words[best]) < max(CONTAINED, enough):
        return None
    share = share_contained(words, changed[best])
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
                for number in cited_rules(other[partner]):
                    self.by_rule[number].append(j)

    def of(self, clause: Clause) -> list[int]:
        """The entries that now cite `clause`, or a rule it is under."""
        number = clause.number or ""
        return [j for cited, at in self.by_rule.items() if is_under(number, cited) for j in at]


def partners_around(
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
        these_words: LazyWords,
        those_words: LazyWords,
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
    words_old: LazyWords,
    codes: WordCodes,
) -> None:
    """Move a merge's identity to the absorbed clause whose words open the new clause, if
    one does better than the clause paired so far (as `_keep_identity_on_first_sentence`:
    2009: 203.1c "Lands normally have no mana cost." opens 202.1b "Some objects have no
    mana cost. ...", and 203.1d on tokens is its second case)."""
    kept = result.matches[n]
    if kept in result.splits:
        return  # it split as well: its pieces hang on its continuing here
    best = _opens_better(new[n], kept, olds, old, words_old, codes)
    if best is None:
        return
    result.matches[n] = best
    olds[olds.index(best)] = kept
    olds.sort()
    result.moved_words[("absorbed", kept)] = result.moved_words.pop(("absorbed", best))


def _openings_left_behind(
    old: list[Clause], new: list[Clause], result: Alignment, words: LazyWords, codes: WordCodes
) -> Iterator[tuple[int, int, float]]:
    """(old rule, new rule, share of the old first sentence's words it holds, 0-100) for
    each new rule left unpaired beside the partner of an old one (`NEAR`, or under the old
    number) that carries the old rule's opening: it holds more of the first sentence's words
    than the partner and the partner's pieces do (`OPENS_BETTER`), and its own first sentence
    reads like it (`LOOSE`) better than theirs. The old rule split, and its identity goes
    with its opening (`_keep_identity_on_first_sentence`): 2020-09-25's 711.8 ("A
    double-faced card enters the battlefield with its front face up by default. If a spell
    or ability puts it onto the battlefield 'transformed' ...") is 711.9 (the first
    sentence, for a card put onto the battlefield from elsewhere than the stack) and 711.9a
    (the second), where it was 711.9a alone and 711.9 new. Pairings on certain evidence are
    left as they are; each new rule goes to the old one whose opening it reads most like."""
    attached = {n for found in result.splits.values() for n in found}
    free = [
        n
        for n, clause in enumerate(new)
        if n not in result.matches
        and n not in attached
        and clause.group == "rule"
        and not clause.heading
    ]
    if not free:
        return
    found: dict[int, tuple[float, int, float]] = {}  # new rule -> (how it reads, old, share)
    for n, o in result.matches.items():
        clause = old[o]
        if result.method.get(n) in CERTAIN_METHODS or clause.group != "rule" or clause.heading:
            continue
        near = [m for m in free if abs(m - n) <= NEAR or new[m].number == clause.number]
        holder = _opening_holder(clause, [n, *result.splits.get(o, [])], near, new, words, codes)
        if holder is not None and holder[1] > found.get(holder[0], (0.0, -1, 0.0))[0]:
            found[holder[0]] = (holder[1], o, holder[2])
    for piece, (_reads, o, share) in sorted(found.items()):
        yield o, piece, share


def _opening_holder(
    clause: Clause,
    linked: list[int],
    near: list[int],
    new: list[Clause],
    words: LazyWords,
    codes: WordCodes,
) -> tuple[int, float, float] | None:
    """The one of `near` that carries `clause`'s opening better than every one of `linked`
    (see `_openings_left_behind`): (it, how its first sentence reads like the opening, the
    share of the opening's words it holds, 0-100); or None."""
    first = first_sentence_words(clause.normalised)
    if not near or first.total() < SENTENCE_WORDS:
        return None
    opening = codes.encode(first_sentence_text(clause.normalised))

    def reads(i: int) -> float:
        return fuzz.ratio(opening, codes.encode(first_sentence_text(new[i].normalised)))

    def holds(i: int) -> float:
        return share_contained(first, words[i])

    best = max(near, key=lambda m: (holds(m), reads(m)))
    if (
        holds(best) > max(map(holds, linked)) + OPENS_BETTER
        and reads(best) >= LOOSE
        and reads(best) > max(map(reads, linked))
    ):
        return best, reads(best), round(100 * holds(best), 1)
    return None


def _keep_identity_on_first_sentence(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    o: int,
    pieces: list[int],
    words_new: LazyWords,
    codes: WordCodes,
) -> None:
    """Move a split's identity to the piece that carries the old statement, if another does
    better than the clause paired so far: it holds more of the old first sentence's words,
    or its own first sentence reads like it, word for word (`_reads_much_more_like`)
    (2009-10-05: 117.1's "Each player begins the game with a life total of 20." stayed
    117.1, and the sentence on Two-Headed Giant, which shares most of its words, went to
    117.1a)."""
    kept = next(n for n, source in result.matches.items() if source == o)
    if kept in result.merges:
        return  # it took others in: their lineages meet there, and the identity stays
    # a glossary entry continues in the entry with its term, not in a rule it gave text to
    alike = [p for p in pieces if new[p].group == new[kept].group]
    if not alike:
        return
    best = _kept_place_and_opening(old[o], kept, alike, new)
    if best is None:
        best = _opens_better(old[o], kept, alike, new, words_new, codes)
    if best is None and _opening_lost(old[o], [kept, *alike], new, words_new, codes):
        best = _holds_earliest_statement(old[o], kept, alike, words_new)
    if best is None:
        return
    del result.matches[kept]
    similarity, method = result.similarity.pop(kept), result.method.pop(kept)
    result.pair(best, o, similarity, method, result.score.pop(kept))
    pieces[pieces.index(best)] = kept
    pieces.sort()
    result.moved_words[("piece", kept)] = result.moved_words.pop(("piece", best))


def _kept_place_and_opening(
    clause: Clause, kept: int, others: list[int], side: list[Clause]
) -> int | None:
    """The one of `others` (indices into `side`) that kept `clause`'s number and begins with
    its opening words (`SENTENCE_WORDS` of them), when `kept` does neither: a sentence that
    named two cases split into one clause for each, and the first case stayed where it was
    (2001-07-23: 420.5a's "A player with 0 life or less or who was required to draw more
    cards than were in his or her library loses the game" kept its number for the first
    case; the second, which holds more of its words, became 420.5g)."""
    opening = _opening(clause.normalised)
    stayed = side[kept].number == clause.number or _opening(side[kept].normalised) == opening
    if not opening or stayed:
        return None
    found = [
        i
        for i in others
        if side[i].number == clause.number and _opening(side[i].normalised) == opening
    ]
    return found[0] if len(found) == 1 else None


def _opening(text: str) -> tuple[str, ...]:
    """The first `SENTENCE_WORDS` words of a text, lower case; () for a shorter text."""
    words = tuple(word.lower() for word in WORD.findall(text)[:SENTENCE_WORDS])
    return words if len(words) == SENTENCE_WORDS else ()


def _opens_better(
    clause: Clause,
    kept: int,
    others: list[int],
    side: list[Clause],
    words: LazyWords,
    codes: WordCodes,
) -> int | None:
    """The one of `others` (indices into `side`) that carries `clause`'s opening better than
    `kept`: it holds more of the first sentence's words (`OPENS_BETTER`), or its own first
    sentence reads much more like it (`_reads_much_more_like`); or None."""
    first = first_sentence_words(clause.normalised)
    best = max(others, key=lambda i: share_contained(first, words[i]))
    if share_contained(first, words[best]) > share_contained(first, words[kept]) + OPENS_BETTER:
        return best
    return _reads_much_more_like(clause, kept, others, side, codes)


def _opening_lost(
    clause: Clause, pieces: list[int], side: list[Clause], words: LazyWords, codes: WordCodes
) -> bool:
    """True when none of `pieces` (indices into `side`) keeps a trace of `clause`'s first
    sentence: neither its order (`PASSAGE`) nor most of its words (`PASSAGE_WORDS`). The
    opening was dropped, or went to a clause that is no piece (2009: 308.1's "the active
    player declares attackers" was 308.2's too, and is 508.1's, which continues 308.2)."""
    first = first_sentence_text(clause.normalised)
    counts = word_counts(first)
    if counts.total() < SENTENCE_WORDS:
        return False
    text = codes.encode(first)
    return not any(
        share_contained(counts, words[p]) >= PASSAGE_WORDS
        or fuzz.partial_ratio(text, codes.encode(side[p].normalised)) >= PASSAGE
        for p in pieces
    )


def _holds_earliest_statement(
    clause: Clause, kept: int, others: list[int], words: LazyWords
) -> int | None:
    """When `clause`'s first sentence is in none of its pieces (`_opening_lost`), the one of
    `others` that holds its earliest statement any of them holds (`PASSAGE_WORDS`), better
    than `kept` by `OPENS_BETTER`; None when `kept` holds it as well (2009: 308.1 opened
    with the declaration of attackers, which 308.2 said too and 508.1 says; of its pieces,
    508.1b holds the next statement, the choice of player or planeswalker, and 508.4, the
    piece most like the whole text, the one after it)."""
    for sentence in SENTENCE_END.split(clause.normalised)[1:]:
        statement = word_counts(sentence)
        if statement.total() < SENTENCE_WORDS:
            continue
        share = {i: share_contained(statement, words[i]) for i in (kept, *others)}
        best = max(others, key=share.__getitem__)
        if max(share.values()) < PASSAGE_WORDS:
            continue
        return best if share[best] > share[kept] + OPENS_BETTER else None
    return None


def _reads_much_more_like(
    clause: Clause, kept: int, others: list[int], side: list[Clause], codes: WordCodes
) -> int | None:
    """The one of `others` (indices into `side`) whose first sentence reads like `clause`'s,
    word for word (`LOOSE`), and much more than `kept`'s does (`READS_BETTER`); or None."""
    opening = codes.encode(first_sentence_text(clause.normalised))

    def reads_like(i: int) -> float:
        return fuzz.ratio(opening, codes.encode(first_sentence_text(side[i].normalised)))

    best = max(others, key=reads_like)
    if reads_like(best) < LOOSE or reads_like(best) <= reads_like(kept) + READS_BETTER:
        return None
    return best

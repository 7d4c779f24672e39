"""Rules written from a glossary entry's sentences: when the 2009 glossary gave its rule text
to the rules, each rewritten entry kept a short definition and a pointer ("Mana Pool: Where
mana created by an effect is temporarily stored. See rule 106.4."), and the sentences it
gave away went, each in a new rule under the one it cites, often beside new words of the
rule's own ("Each player's mana pool is cleared at the end of each step and phase.").

The word counts of the whole rule miss such a piece (half its words are new), so the
evidence is read sentence by sentence: a sentence the entry no longer says, held in order
(`PASSAGE`) by a new rule the entry now cites, and held better by it than by any other rule
the entry cites (a sentence two rules hold equally says nothing of which took it).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator

from rapidfuzz import fuzz, process

from lineage.alignment import Alignment
from lineage.change_kind import cited_rules
from lineage.clause import Clause
from lineage.moved_sentences import CITATIONS, SENTENCE_END, SENTENCE_WORDS, is_content_rule
from lineage.words import (
    PASSAGE,
    PASSAGE_WORDS,
    LazyWords,
    WordCodes,
    first_sentence_text,
    share_contained,
    word_counts,
)
from vocabulary.numbers import is_under

KEPT = 0.7  # share of a sentence's words the new entry still says: it gave it nowhere


def entry_pieces(
    old: list[Clause],
    new: list[Clause],
    result: Alignment,
    words_new: LazyWords,
    codes: WordCodes,
    said_before: Callable[[Clause], bool],
) -> Iterator[tuple[int, int, float]]:
    """(new rule, old glossary entry it took a sentence from, how well it holds it), each
    rule once, from the entry that gave it the sentence it holds best.

    Only rules with no predecessor and no source yet are read, and none an old rule already
    said (`said_before`): then the glossary only repeated that rule."""
    attached = {n for found in result.splits.values() for n in found}
    unpaired: dict[str, list[int]] = defaultdict(list)  # by section: a citation names one
    for n, clause in enumerate(new):
        if (
            n not in result.matches
            and n not in attached
            and clause.group == "rule"
            and not clause.heading
            and clause.number
        ):
            unpaired[clause.number.partition(".")[0]].append(n)
    if not unpaired:
        return
    best: dict[int, tuple[float, int]] = {}  # rule -> (score, entry)
    for n, o in result.matches.items():
        entry, now = old[o], new[n]
        if entry.kind != "glossary" or entry.version_hash == now.version_hash:
            continue
        candidates = _under(cited_rules(now), unpaired, new)
        if not candidates:
            continue
        for sentence in _given_away(entry, words_new[n]):
            found = _holder(sentence, candidates, new, words_new, codes)
            if found is not None and found[0] > best.get(found[1], (0.0, -1))[0]:
                best[found[1]] = (found[0], o)
    rules: list[str] = []
    for j, (score, o) in sorted(best.items()):
        if said_before(new[j]):
            continue
        rules = rules or _rules_that_gave_words(old, new, result, codes)
        if _opens_from_the_entry(new[j], old[o], rules, codes):
            yield j, o, score


def _rules_that_gave_words(
    old: list[Clause], new: list[Clause], result: Alignment, codes: WordCodes
) -> list[str]:
    """The old rules (encoded) that may have given a new rule its opening: every content
    rule but those that continue word for word, which gave none of their words away (2009:
    600.2, "These rules consist of a series of options ...", is 800.2 unchanged; it is no
    source of 100.5a's "Tournaments usually consist of a series of matches.", which the
    entry "Match" gave its next two sentences)."""
    kept = {o for n, o in result.matches.items() if old[o].version_hash == new[n].version_hash}
    return [
        codes.encode(clause.normalised)
        for o, clause in enumerate(old)
        if is_content_rule(clause) and o not in kept
    ]


def _under(cited: list[str], unpaired: dict[str, list[int]], new: list[Clause]) -> list[int]:
    """The rules of `unpaired` (by section) under a number of `cited`, in order."""
    found: set[int] = set()
    for number in cited:
        section = number.partition(".")[0]  # a chapter ("see chapter 1") holds its sections
        sections = (
            [at for at in unpaired if at.startswith(section)] if len(section) == 1 else [section]
        )
        for at in sections:
            found.update(j for j in unpaired.get(at, ()) if is_under(new[j].number or "", number))
    return sorted(found)


def _given_away(entry: Clause, kept: Counter[str]) -> Iterator[str]:
    """The statements of old `entry` its new text no longer says (`KEPT`)."""
    for sentence in SENTENCE_END.split(entry.normalised):
        lowered = f" {sentence.lower()}"
        words = word_counts(sentence)
        if words.total() < SENTENCE_WORDS or lowered.startswith(CITATIONS):
            continue
        if share_contained(words, kept) < KEPT:
            yield sentence


def _holder(
    sentence: str, candidates: list[int], new: list[Clause], words: LazyWords, codes: WordCodes
) -> tuple[float, int] | None:
    """(how well, rule) for the one of `candidates` that holds `sentence` in order
    (`PASSAGE`), most of its words (`PASSAGE_WORDS`), better than any other; or None."""
    text = codes.encode(sentence)
    scored = sorted(
        ((fuzz.partial_ratio(text, codes.encode(new[j].normalised)), j) for j in candidates),
        reverse=True,
    )
    score, j = scored[0]
    if score < PASSAGE or (len(scored) > 1 and scored[1][0] >= score):
        return None
    if share_contained(word_counts(sentence), words[j]) < PASSAGE_WORDS:
        return None
    return round(score, 1), j


def _opens_from_the_entry(rule: Clause, entry: Clause, rules: list[str], codes: WordCodes) -> bool:
    """True when `rule`'s opening reads more like a passage of `entry` than of any old rule
    that gave words away (`rules`, encoded: `_rules_that_gave_words`): a rule that opens
    with an old rule's statement continues that rule, whatever the glossary said of it too
    (2009: 204.3f "Artifacts have their own unique set of subtypes; ..." opens with 205.3d's
    words, and ends with the entry "Artifact Type"'s list)."""
    opening = codes.encode(first_sentence_text(rule.normalised))
    from_entry = fuzz.partial_ratio(opening, codes.encode(entry.normalised))
    found = process.extractOne(opening, rules, scorer=fuzz.partial_ratio, score_cutoff=from_entry)
    return found is None

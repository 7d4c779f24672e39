"""The kind of change from a clause to the one that continues it (`kind_of_change`), and
the rule numbers quoted in running text that it must tell apart from words: references that
only follow a renumbering are `reference`, not `reworded` (ranges too: "601.2e-g" ->
"601.2f-h")."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from archive.normalise import fold_markup, formatting_key, normalise, same_but_formatting
from lineage.clause import Clause
from vocabulary.kinds import (
    EXAMPLE,
    FORMATTING,
    REFERENCE,
    RENUMBERED,
    RENUMBERED_EXAMPLE,
    RENUMBERED_REWORDED,
    REWORDED,
    UNCHANGED,
)

# A rule number quoted in running text: "rule 504", "rule 502.26", "702.34a", or a range of
# them: "601.2e-g", "702.1-702.5" (dashes are "-" once normalised).
REFERENCE_NUMBER = re.compile(
    r"(?<![\w.])\d{3}(?:\.\d+[a-z]?)?(?:-(?:\d{3}(?:\.\d+[a-z]?)?|[a-z])(?![\w]))?(?![\w])"
)
# A reference with the title quoted after it ('rule 403, "Activated Abilities"'): the title
# names the rule referred to, and follows it when that rule is renamed as it moves.
TITLED_REFERENCE = re.compile(f'({REFERENCE_NUMBER.pattern})(?:, "([^"]*)")?')


def mask_references(text: str) -> str:
    """The text with every rule number (or range of rules) replaced by `#`.

    >>> mask_references('see rule 504.2 and rules 702.34a-c, "Morph."')
    'see rule # and rules #, "Morph."'
    """
    return REFERENCE_NUMBER.sub("#", text)


# Answers kept per text: a worker aligns a run of releases that repeat nearly all their texts,
# and each pair would otherwise work them out again.
TEXTS_KEPT = 200_000  # a few runs' worth of texts, a few tens of MB


formatting_key_kept = lru_cache(maxsize=TEXTS_KEPT)(formatting_key)


masked = lru_cache(maxsize=TEXTS_KEPT)(mask_references)


def only_formatting_differs(old: str, new: str) -> bool:
    """`same_but_formatting`, asked only when the two texts' formatting keys (kept per text)
    agree: when they differ it is False anyway, and most changed pairs differ there."""
    return formatting_key_kept(old) == formatting_key_kept(new) and same_but_formatting(old, new)


@lru_cache(maxsize=TEXTS_KEPT)
def term_key(term: str) -> str:
    return formatting_key_kept(normalise(term))


def cited_rules(clause: Clause) -> list[str]:
    """The rules a glossary entry refers to ("See rule 711"), ranges by their first rule."""
    return [range_ends(found)[0] for found in REFERENCE_NUMBER.findall(clause.normalised)]


def kind_of_change(old: Clause, new: Clause, number_map: dict[str | None, str | None]) -> str:
    """The kind of change from one clause to the clause that continues it.

    Examples are part of a rule's wording: when only they changed (one added, removed or
    reworded), the change is `example`, and `renumbered+example` when the rule's number
    changed too (2009-07-08: 424.4 -> 116.7, whose example now casts its spell); a change of
    the rule's own words says more and wins, and so does a reference that followed a
    renumbering.
    """
    kind = _kind_of_text_change(old, new, number_map)
    if kind in (UNCHANGED, FORMATTING, RENUMBERED) and old.examples != new.examples:
        if same_but_formatting(old.examples, new.examples):
            return FORMATTING if kind == UNCHANGED else kind
        return RENUMBERED_EXAMPLE if kind == RENUMBERED else EXAMPLE
    if kind == UNCHANGED and old.example_versions != new.example_versions:
        # the same words in another typography ("Choose an artifact card name." in straight
        # quotes, 2019-01-25), which the normalised texts fold: the rule's text changed
        return FORMATTING
    return kind


def _kind_of_text_change(old: Clause, new: Clause, number_map: dict[str | None, str | None]) -> str:
    renumbered = _label_key(old) != _label_key(new)
    if old.normalised == new.normalised:  # nearly every clause of a release: asked first
        if renumbered:
            return RENUMBERED
        return UNCHANGED if old.version_hash == new.version_hash else FORMATTING
    before, after = compared_texts(old, new)
    if before == after:  # a glossary entry's new term over the same definition
        return RENUMBERED
    if only_formatting_differs(before, after):
        return RENUMBERED if renumbered else FORMATTING  # markup or lost characters only
    before, after = fold_markup(before), fold_markup(after)
    if _only_references_follow(before, after, number_map):
        if renumbered:
            return RENUMBERED
        # "409.1a-409.1h" -> "409.1a-h": the same rules, written another way
        return FORMATTING if _same_rules_named(before, after) else REFERENCE
    return RENUMBERED_REWORDED if renumbered else REWORDED


def _same_rules_named(old_text: str, new_text: str) -> bool:
    """True when each reference names the same rules under the same quoted title."""
    pairs = zip(_references(old_text), _references(new_text), strict=True)
    return all(range_ends(a) == range_ends(b) and s == t for (a, s), (b, t) in pairs)


@lru_cache(maxsize=TEXTS_KEPT)
def _references(text: str) -> list[tuple[str, str]]:
    """(rule number or range, the title quoted after it or "") of each reference, in order;
    the punctuation that closes a title inside its quotes ('"Flying."') is typography."""
    return [(m[1], (m[2] or "").rstrip(".,;:")) for m in TITLED_REFERENCE.finditer(text)]


@lru_cache(maxsize=TEXTS_KEPT)
def _masked_titled(text: str) -> str:
    """The text with every reference, and the title quoted after it, replaced by `#`."""
    return TITLED_REFERENCE.sub("#", text)


def compared_texts(old: Clause, new: Clause) -> tuple[str, str]:
    """The two texts whose difference `kind_of_change` names: the clauses' normalised texts,
    but only the definitions of a glossary entry whose term changed. An entry prints its term
    on its first line, and the term is its label: a new term over the same definition is a
    renumbering, as a new number is for a rule (2026-04-17: "Removed from Combat" -> "Remove
    from Combat")."""
    if old.kind == new.kind == "glossary" and _label_key(old) != _label_key(new):
        return old.normalised.partition("\n")[2], new.normalised.partition("\n")[2]
    return old.normalised, new.normalised


def _label_key(clause: Clause) -> str:
    """A glossary term compares in its normalised form, markup folded: 'Isn’t' is "Isn't",
    "Planar _Magic_" is "Planar Magic"."""
    if clause.kind != "glossary":
        return clause.label
    return term_key(clause.label)


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
    if not _differ_only_in(masked, old_text, new_text) and not _differ_only_in(
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
        ends_a, ends_b = range_ends(a), range_ends(b)
        if len(ends_a) != len(ends_b):
            return None
        found.extend((x, y) for x, y in zip(ends_a, ends_b, strict=True) if x != y)
    return found


def _differ_only_in(masked: Callable[[str], str], old_text: str, new_text: str) -> bool:
    """True when the two texts, masked so, are the same but for formatting."""
    old_masked, new_masked = masked(old_text), masked(new_text)
    return old_masked == new_masked or only_formatting_differs(old_masked, new_masked)


def range_ends(reference: str) -> tuple[str, ...]:
    """The rules a reference names at its ends.

    >>> range_ends("601.2e-g"), range_ends("702.1-702.5"), range_ends("504.2")
    (('601.2e', '601.2g'), ('702.1', '702.5'), ('504.2',))
    """
    start, _dash, end = reference.partition("-")
    if not end:
        return (start,)
    if end.isalpha():
        return start, start.rstrip("abcdefghijklmnopqrstuvwxyz") + end
    return start, end

"""Kinds of change between two releases: one name each, the same in the store, JSON and pages."""

from __future__ import annotations

from enum import StrEnum

from vocabulary.numbers import is_rule_number


class ChangeKind(StrEnum):
    """What happened to a clause from one release to the next (see the README's table)."""

    UNCHANGED = "unchanged"
    RENUMBERED = "renumbered"
    REFERENCE = "reference"
    FORMATTING = "formatting"
    EXAMPLE = "example"  # only the rule's examples changed (added, removed or reworded)
    REWORDED = "reworded"
    RENUMBERED_REWORDED = "renumbered+reworded"
    SPLIT = "split"
    MERGED = "merged"
    ADDED = "added"
    REMOVED = "removed"

    @property
    def label(self) -> str:
        """The kind as a reader sees it: 'renumbered and reworded'."""
        return self.value.replace("+", " and ")

    @property
    def of_term(self) -> str:
        """The kind's name for a glossary entry, whose "number" is its term: 'renamed'
        where a rule is 'renumbered' (`shown_kind`)."""
        return _OF_TERM.get(self.value, self.value)

    @property
    def term_label(self) -> str:
        """`of_term` as a reader sees it: 'renamed and reworded'."""
        return self.of_term.replace("+", " and ")


UNCHANGED = ChangeKind.UNCHANGED
RENUMBERED = ChangeKind.RENUMBERED
REFERENCE = ChangeKind.REFERENCE
FORMATTING = ChangeKind.FORMATTING
EXAMPLE = ChangeKind.EXAMPLE
REWORDED = ChangeKind.REWORDED
RENUMBERED_REWORDED = ChangeKind.RENUMBERED_REWORDED
SPLIT = ChangeKind.SPLIT
MERGED = ChangeKind.MERGED
ADDED = ChangeKind.ADDED
REMOVED = ChangeKind.REMOVED

# What a change of "number" is called for a glossary entry: its term changed, it was renamed.
# Only pages and the CLI's text say so; the store, JSON and the counts keep the kind.
_OF_TERM = {"renumbered": "renamed", "renumbered+reworded": "renamed+reworded"}


def shown_kind(kind: str, label: str) -> str:
    """The kind of a change of the clause `label` (its number, or a glossary entry's term),
    as pages and the CLI's text name it.

    >>> shown_kind("renumbered+reworded", "702.37a"), shown_kind("renumbered", "Legend, Legendary")
    ('renumbered+reworded', 'renamed')
    """
    return kind if is_rule_number(label) else _OF_TERM.get(kind, kind)


# Every kind, in the order pages and counts list them: the changes of words first.
CHANGE_KINDS: tuple[ChangeKind, ...] = (
    ADDED,
    REMOVED,
    REWORDED,
    RENUMBERED_REWORDED,
    RENUMBERED,
    SPLIT,
    MERGED,
    EXAMPLE,
    REFERENCE,
    FORMATTING,
    UNCHANGED,
)
# Kinds that give a clause new wording: blame dates a wording from these.
WORDING_CHANGES = frozenset({REWORDED, RENUMBERED_REWORDED, SPLIT, MERGED, ADDED})
# Kinds that change or follow a clause's number.
RENUMBERING_KINDS = frozenset({RENUMBERED, RENUMBERED_REWORDED, SPLIT, MERGED, REFERENCE})
# Kinds that change nothing a reader of the rules would call a change of the rule.
QUIET_KINDS = frozenset({UNCHANGED, FORMATTING})

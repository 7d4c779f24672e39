"""Kinds of change between two releases: one name each, the same in the store, JSON and pages."""

from __future__ import annotations

from enum import StrEnum


class ChangeKind(StrEnum):
    """What happened to a clause from one release to the next (see the README's table)."""

    UNCHANGED = "unchanged"
    RENUMBERED = "renumbered"
    REFERENCE = "reference"
    FORMATTING = "formatting"
    EXAMPLE = "example"  # only the rule's examples changed (added, removed or reworded)
    # a new number over the same words, with its examples changed: both are news to a reader
    RENUMBERED_EXAMPLE = "renumbered+example"
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


UNCHANGED = ChangeKind.UNCHANGED
RENUMBERED = ChangeKind.RENUMBERED
REFERENCE = ChangeKind.REFERENCE
FORMATTING = ChangeKind.FORMATTING
EXAMPLE = ChangeKind.EXAMPLE
RENUMBERED_EXAMPLE = ChangeKind.RENUMBERED_EXAMPLE
REWORDED = ChangeKind.REWORDED
RENUMBERED_REWORDED = ChangeKind.RENUMBERED_REWORDED
SPLIT = ChangeKind.SPLIT
MERGED = ChangeKind.MERGED
ADDED = ChangeKind.ADDED
REMOVED = ChangeKind.REMOVED

# Every kind, in the order pages and counts list them: the changes of words first.
CHANGE_KINDS: tuple[ChangeKind, ...] = (
    ADDED,
    REMOVED,
    REWORDED,
    RENUMBERED_REWORDED,
    RENUMBERED,
    RENUMBERED_EXAMPLE,
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
RENUMBERING_KINDS = frozenset(
    {RENUMBERED, RENUMBERED_REWORDED, RENUMBERED_EXAMPLE, SPLIT, MERGED, REFERENCE}
)
# Kinds that change nothing a reader of the rules would call a change of the rule.
QUIET_KINDS = frozenset({UNCHANGED, FORMATTING})

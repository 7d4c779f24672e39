"""What a kind of change is called where a reader sees it, for a rule or a glossary entry.

A glossary entry's "number" is its term: a change of it is a renaming. Only the pages and the
CLI's text say so; the store, the JSON and every count keep the kind itself (vocabulary.kinds),
so that all counts agree. Kept apart from vocabulary.kinds, which the aligner reads: these
names change no alignment.
"""

from __future__ import annotations

from collections.abc import Sequence

from vocabulary.kinds import RENUMBERED, RENUMBERED_REWORDED, ChangeKind
from vocabulary.numbers import is_rule_number

_OF_TERM = {RENUMBERED.value: "renamed", RENUMBERED_REWORDED.value: "renamed+reworded"}


def shown_kind(kind: str, label: str) -> str:
    """The kind of a change of the clause `label` (its number, or a glossary entry's term),
    as pages and the CLI's text name it.

    >>> shown_kind("renumbered+reworded", "702.37a"), shown_kind("renumbered", "Legend, Legendary")
    ('renumbered+reworded', 'renamed')
    """
    return kind if is_rule_number(label) else _OF_TERM.get(kind, kind)


def shown_change_kind(kind: str, old: Sequence[str], new: Sequence[str]) -> str:
    """`shown_kind` for a change from the labels `old` to `new`: named by its newest label
    (a glossary entry stays one, whatever its term became).

    >>> shown_change_kind("renumbered", ["Cleanup"], ["Cleanup Step"])
    'renamed'
    >>> shown_change_kind("removed", ["504.2"], [])
    'removed'
    """
    return shown_kind(kind, (new or old or [""])[0])


def term_label(kind: ChangeKind) -> str:
    """A kind's name for a glossary entry as a reader sees it: 'renamed and reworded' (as
    ChangeKind.label is for a rule)."""
    return _OF_TERM.get(kind.value, kind.value).replace("+", " and ")

"""Kinds of change read from the store: the pipeline (`lineage.answers`) names, once, the kind
of change between every two states of a clause that some pair of releases can set against
each other, and the diff of any two releases reads them instead of naming them again.

A clause's *state* is what `lineage.change_kind.kind_of_change` reads of it: its kind, its label
(number, or glossary term), its version (the exact text) and the versions of its examples.
The kind between two states depends on the releases compared only through the rule numbers
their texts cite: whether each one followed its rule's renumbering (`601.2e` -> `601.2f`).
So two answers are stored: the kind if every cited number followed (`follows`) and the kind
if none did (`otherwise`). When they agree, that is the kind for any two releases; when they
do not (a few in a hundred), the diff names the kind itself with the releases' number map,
and so it does for a pair the store lacks: a stored answer may be missing, never wrong.

The key of a pair holds ALIGN_VERSION, so an answer named by another version of the
alignment's rules is never read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from sqlite_utils import Database

from archive.keyed import keyed_rows
from lineage.change_kind import kind_of_change
from lineage.clause import Clause
from lineage.store import ALIGN_VERSION

SEPARATOR = "\x1f"  # between the fields of a state: no kind, hash or list of hashes holds it


def clause_state(kind: str, label: str, version: str, example_versions: Iterable[str]) -> str:
    """A clause's state as one string; the label comes last, so it may hold anything."""
    return SEPARATOR.join([kind, version, ",".join(example_versions), label])


def kinds_key(old_state: str, new_state: str) -> str:
    """The key of the kinds of change from `old_state` to `new_state` (sha1, with the version
    of the alignment and the length of the first state, so no two pairs share a key)."""
    joined = f"{ALIGN_VERSION}:{len(old_state)}:{old_state}{new_state}"
    return hashlib.sha1(joined.encode()).hexdigest()


class _Consulted(dict[Any, Any]):
    """An empty number map (every number followed its rule: `get` gives the number it is
    given) that notes whether it was read."""

    read = False

    def get(self, key: Any, default: Any = None) -> Any:
        self.read = True
        return default


class _NothingFollows(dict[Any, Any]):
    """A number map under which no rule number followed its rule."""

    def get(self, key: Any, default: Any = None) -> Any:
        return _NothingFollows


def both_kinds(old: Clause, new: Clause) -> tuple[str, str]:
    """The kind of change from `old` to `new` if every cited rule number followed its rule,
    and if none did. `kind_of_change` tells them apart only by reading the number map, so
    when it did not read it the two are one (named once)."""
    every = _Consulted()
    follows = str(kind_of_change(old, new, every))
    if not every.read:
        return follows, follows
    return follows, str(kind_of_change(old, new, _NothingFollows()))


def stored_kinds(db: Database, keys: Iterable[str]) -> dict[str, str]:
    """Key -> the kind of change stored under it, when it does not depend on the references
    (`follows` and `otherwise` agree); keys the store lacks or that depend are left out."""
    return {
        key: follows
        for key, (follows, otherwise) in stored_both_kinds(db, keys).items()
        if follows == otherwise
    }


def stored_both_kinds(db: Database, keys: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Key -> the two kinds stored under it (if every cited number followed its rule, if none
    did); keys the store lacks are left out."""
    rows = keyed_rows(db, "change_kinds", "key", ["follows", "otherwise"], keys)
    return {key: (follows, otherwise) for key, follows, otherwise in rows}

"""The diff of any two releases reads its kinds of change from the store (`change_kinds`,
written by the pipeline) and gets exactly what naming them with the two releases' number map
gives; a pair the store lacks, or whose kind depends on that map, is named."""

from __future__ import annotations

from typing import Any

import pytest
from sqlite_utils import Database

from lineage import compare, stored_kinds
from lineage.change_kind import kind_of_change
from lineage.compare import diff_releases, load_members, read_words
from lineage.stored_kinds import kinds_key
from vocabulary.kinds import MERGED, SPLIT, UNCHANGED


def _dates(db: Database) -> list[str]:
    return [row[0] for row in db.execute("SELECT date FROM releases ORDER BY date")]


def _stored(db: Database) -> dict[str, tuple[str, str]]:
    rows = db.execute("SELECT key, follows, otherwise FROM change_kinds").fetchall()
    return {key: (follows, otherwise) for key, follows, otherwise in rows}


def _linked(db: Database, old: str, new: str) -> set[int]:
    rows = db.execute(
        "SELECT lineage_id FROM lineage_events WHERE release > ? AND release <= ?"
        " AND kind IN (?, ?)",
        [old, new, SPLIT, MERGED],
    )
    return {row[0] for row in rows}


def test_any_two_releases_find_every_kind_stored_and_right(small_lineage: Database) -> None:
    """For the first release and each later one, and each release and the last (both
    renumberings lie between), every clause both have (unlinked) in two states has its pair
    stored, and the stored kind, where it does not depend on the references, is the kind
    named with the two releases' own number map; where it depends, naming it gives one of
    the two stored answers."""
    stored = _stored(small_lineage)
    checked = depends = 0
    dates = _dates(small_lineage)
    for old, new in {
        *((dates[0], day) for day in dates[1:]),
        *((day, dates[-1]) for day in dates[:-1]),
    }:
        before, after = load_members(small_lineage, old), load_members(small_lineage, new)
        read_words(small_lineage, [*before.values(), *after.values()], "normalised")
        common = (before.keys() & after.keys()) - _linked(small_lineage, old, new)
        number_map = {before[lid].number: after[lid].number for lid in before.keys() & after}
        for lineage_id in common:
            a, b = before[lineage_id], after[lineage_id]
            if a.state == b.state:  # the diff calls it unchanged without asking
                assert kind_of_change(a.clause, b.clause, number_map) == UNCHANGED
                continue
            follows, otherwise = stored[kinds_key(a.state, b.state)]
            named = kind_of_change(a.clause, b.clause, number_map)
            if follows == otherwise:
                assert named == follows, (old, new, a.label, b.label)
            else:
                assert named in (follows, otherwise), (old, new, a.label, b.label)
                depends += 1
            checked += 1
    assert checked > 5_000
    assert depends  # the store holds kinds that depend on the references, and they are named


def _diff(db: Database, old: str, new: str, rule: str | None) -> dict[str, Any]:
    return diff_releases(db, old, new, rule, words=False)


@pytest.mark.parametrize(
    ("old", "new", "rule"),
    [(0, -1, None), (1, 4, None), (2, 7, None), (0, -1, "504"), (1, -2, "7")],
)
def test_a_diff_reads_the_kinds_naming_them_would_give(
    small_lineage: Database, monkeypatch: pytest.MonkeyPatch, old: int, new: int, rule: str | None
) -> None:
    dates = _dates(small_lineage)
    named: list[str] = []

    def counted(*args: Any) -> str:
        named.append(kind_of_change(*args))
        return named[-1]

    monkeypatch.setattr(compare, "kind_of_change", counted)
    read = _diff(small_lineage, dates[old], dates[new], rule)
    read_named = len(named)
    monkeypatch.setattr(compare, "stored_kinds", lambda db, keys: {})  # as if none were stored
    named.clear()
    assert _diff(small_lineage, dates[old], dates[new], rule) == read
    assert named  # without the store, the kinds are named
    assert read_named < len(named) / 5  # with it, only those that depend on the references


def test_a_kind_the_store_lacks_is_named(small_lineage: Database) -> None:
    assert stored_kinds.stored_kinds(small_lineage, ["no such pair"]) == {}
    assert stored_kinds.stored_kinds(small_lineage, []) == {}

"""Answers the pipeline stores for the readers, release by release: the runs of a clause
number (lineage.runs), the headings (lineage.headings) and blame (lineage.answers). A release
brought in later extends what was stored, and the store holds what a store built at once
holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_captures_dir

from archive.query import release_dates
from archive.store import open_store
from lineage.headings import load_headings
from lineage.runs import number_runs
from rules_history.pipeline import update_store

FIRST = ("1999-04-23", "1999-11-01")
ALL = (*FIRST, "2001-07-23")


def stored_runs(path: Path) -> list[tuple[str, str, str, str, int, tuple[str, ...]]]:
    db = open_store(path)
    runs = number_runs(db, release_dates(db))
    return [
        (run.number, run.start, run.end, run.version, run.part_id, tuple(run.releases))
        for found in runs.values()
        for run in found
    ]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a store given FIRST, then ALL; a store given ALL at once)."""
    root = tmp_path_factory.mktemp("runs")
    later, at_once = root / "later.db", root / "at-once.db"
    update_store(open_store(later), make_captures_dir(root / "first", FIRST))
    update_store(open_store(later), make_captures_dir(root / "all", ALL))
    update_store(open_store(at_once), root / "all")
    return later, at_once


def test_a_release_brought_in_later_extends_the_open_runs(stores):
    later, at_once = stores
    runs = stored_runs(later)
    assert runs == stored_runs(at_once)
    # the part ids are the store's own: compare what each run covers
    by_number = {}
    for number, start, end, _version, _part, releases in runs:
        by_number.setdefault(number, []).append((start, end, releases))
    # 100.1 changed its typography in 1999-11-01 and its words in 2001-07-23: three runs
    assert by_number["100.1"] == [
        ("1999-04-23", "1999-04-23", ("1999-04-23",)),
        ("1999-11-01", "1999-11-01", ("1999-11-01",)),
        ("2001-07-23", "2001-07-23", ("2001-07-23",)),
    ]
    kept = [runs for runs in by_number.values() if runs[-1][2] == ALL]
    assert kept, "some wording printed by all three releases is one run of three"


def test_one_number_is_read_alone(stores):
    db = open_store(stores[0])
    dates = release_dates(db)
    assert list(number_runs(db, dates, "100.1")) == ["100.1"]
    assert number_runs(db, dates, "100.1")["100.1"] == number_runs(db, dates)["100.1"]


def stored_headings(path: Path) -> list[tuple[str, str, str, str, tuple[str, ...]]]:
    """Each heading member as (release, number, kind, title, numbers under it), by lineage
    (the versions and part ids are the store's own; the texts are compared through them)."""
    db = open_store(path)
    return [
        (m.release, m.number, m.kind, m.title, tuple(number for number, _v in m.children))
        for members in load_headings(db).values()
        for m in members
    ]


def test_a_release_brought_in_later_adds_its_headings(stores):
    later, at_once = stores
    headings = stored_headings(later)
    assert headings == stored_headings(at_once)
    releases = {release for release, *_rest in headings}
    assert releases == set(ALL)
    # section 100 "General" heads 100.1-100.6 in 2001-07-23
    general = [h for h in headings if h[0] == "2001-07-23" and h[1] == "100"]
    assert general and general[0][2:4] == ("section", "General")
    assert general[0][4][:2] == ("100.1", "100.2")


def stored_blame(path: Path) -> list[tuple[str, str, str, str]]:
    db = open_store(path)
    return db.execute(
        "SELECT release, number, since, text_since FROM blame ORDER BY release, number"
    ).fetchall()


def test_a_release_brought_in_later_is_blamed_as_at_once(stores):
    """The blame of a release computed on its own (its texts compared with the release
    before, stored earlier) is the blame computed for all releases at once."""
    later, at_once = stores
    rows = stored_blame(later)
    assert rows == stored_blame(at_once)
    assert any(release == ALL[-1] and text_since == ALL[-1] for release, *_, text_since in rows)

"""`ingest` and `build` bring the store up to date the same way: releases, witnesses, lineages."""

from __future__ import annotations

import shutil

from conftest import make_captures_dir
from sqlite_utils import Database

import archive.ingest
import archive.parse
from archive.manifest import CAPTURES_DIR
from archive.store import open_store
from lineage.answers import build_derived
from rules_history.pipeline import update_store


def test_update_store_ingests_releases_witnesses_and_lineages(tmp_path):
    folder = make_captures_dir(
        tmp_path / "caps", ("2002-10-07", "2003-07-01", "2007-05-01", "2008-02-01")
    )
    shutil.copytree(CAPTURES_DIR / "web", folder / "web")
    db = open_store(tmp_path / "rules.db")
    report = update_store(db, folder)
    assert report.failed == []
    assert len(report.releases.ingested) == 5  # 2007-05-01 has two captures
    assert report.lineage["releases"] == 4
    assert db["lineage_members"].count > 1000
    crystal_keep = {
        row["number"]: row["agreement"]
        for row in db.query("SELECT * FROM witnesses WHERE source LIKE 'crystalkeep%'")
    }
    assert crystal_keep["504.6"] == "agrees"  # dated [CompRules 2003/07/01]
    again = update_store(db, folder)
    assert again.releases.ingested == [] and again.lineage["aligned"] == 0


# Every table a stage of the pipeline writes that a reader answers from.
ANSWER_TABLES = (
    "lineages",
    "lineage_members",
    "lineage_events",
    "wordings",
    "blame",
    "release_counts",
    "release_changes",
    "change_kinds",
)


def _differing(one: list[tuple], other: list[tuple]) -> list[tuple]:  # type: ignore[type-arg]
    """What tells two tables apart, briefly (a failed comparison of whole tables would print
    them whole): a few rows only one of them has, else their row counts if they differ."""
    only = sorted(set(one) ^ set(other), key=repr)[:5]
    return only or ([] if len(one) == len(other) else [(len(one), len(other))])


def _answers(db) -> dict[str, list[tuple]]:  # type: ignore[no-untyped-def,type-arg]
    return {
        table: sorted(db.execute(f"SELECT * FROM {table}").fetchall()) for table in ANSWER_TABLES
    }


def test_a_release_added_later_gives_the_answers_of_a_store_built_at_once(tmp_path):
    # 2003-05-26 is a derived copy, aligned beside the chain with lineages of its own;
    # 2003-10-01 extends wordings that reached the release before it, and rewords others
    days = ("2003-03-15", "2003-05-26", "2003-07-01", "2003-10-01")
    at_once = open_store(tmp_path / "at_once.db")
    update_store(at_once, make_captures_dir(tmp_path / "all", days))
    in_steps = open_store(tmp_path / "in_steps.db")
    update_store(in_steps, make_captures_dir(tmp_path / "first", days[:-1]))
    update_store(in_steps, make_captures_dir(tmp_path / "all", days))
    expected, found = _answers(at_once), _answers(in_steps)
    assert all(expected[table] for table in ANSWER_TABLES)
    for table in ANSWER_TABLES:
        assert not _differing(found[table], expected[table]), table


def test_answers_kept_across_a_new_release_are_those_computed_again(tmp_path):
    # 2003-05-26 is a derived copy, aligned beside the official chain (lineage.derived): a
    # release added after it must leave its answers true to its lineages.
    days = ("2003-03-15", "2003-05-26", "2003-07-01", "2003-10-01")
    db = open_store(tmp_path / "in_steps.db")
    update_store(db, make_captures_dir(tmp_path / "first", days[:-1]))
    update_store(db, make_captures_dir(tmp_path / "all", days))
    db.conn.backup(Database(tmp_path / "again.db").conn)
    again = open_store(tmp_path / "again.db")
    with again.conn:
        again.execute("DELETE FROM derived_state")  # every release's answers computed anew
    assert build_derived(again)["computed"] == len(days)
    kept, computed = _answers(db), _answers(again)
    for table in ANSWER_TABLES:
        assert not _differing(kept[table], computed[table]), table


def test_a_capture_read_again_gives_the_answers_of_a_store_built_at_once(tmp_path, monkeypatch):
    """Captures read by an older parser are stored again, and may come back under their old
    ids: their releases are aligned again into alignment rows equal to the old ones. The
    answers computed from the old lineages must not pass for current. (2021-06-09 printed
    eleven glossary terms run into their first meaning; once the parser split them, the
    stored changes still said "Ability" was renamed "Ability1. Text on an object ...".)"""
    days = ("2021-04-19", "2021-06-09", "2021-07-12")
    folder = make_captures_dir(tmp_path / "caps", days)
    in_steps = open_store(tmp_path / "in_steps.db")
    # the parser before the repair: a term run into its meaning is one term, an entry
    monkeypatch.setattr(archive.parse, "_split_term", lambda line: (line, None))
    monkeypatch.setattr(archive.parse, "PERIOD_END", ())
    monkeypatch.setattr(archive.ingest, "PARSER_VERSION", archive.ingest.PARSER_VERSION - 1)
    update_store(in_steps, folder)
    renamed = "SELECT count(*) FROM release_changes WHERE new_numbers LIKE '%Ability1.%'"
    assert in_steps.execute(renamed).fetchone()[0] == 1  # the parser before the repair
    monkeypatch.undo()
    update_store(in_steps, folder)
    at_once = open_store(tmp_path / "at_once.db")
    update_store(at_once, folder)
    expected, found = _answers_by_label(at_once), _answers_by_label(in_steps)
    assert in_steps.execute(renamed).fetchone()[0] == 0
    for table, rows in expected.items():
        assert rows and not _differing(found[table], rows), table


# The answers as a reader sees them, by clause label: the part and lineage ids of a store
# that read a capture again are not those of one that read it once.
ANSWERS_BY_LABEL = {
    "lineage_events": "release, kind, old_numbers, new_numbers, method, score, weak",
    "wordings": "first, last, replaced_by, releases, numbers, kind, since, text_since",
    "blame": "release, number, since, text_since",
    "release_counts": "*",
    "release_changes": "release, position, previous_release, kind, old_numbers, new_numbers",
}


def _answers_by_label(db) -> dict[str, list[tuple]]:  # type: ignore[no-untyped-def,type-arg]
    return {
        table: sorted(db.execute(f"SELECT {columns} FROM {table}").fetchall(), key=repr)
        for table, columns in ANSWERS_BY_LABEL.items()
    }

"""A full rebuild of the lineages (a new ALIGN_VERSION, a store whose first release changed)
empties the lineage tables first. Where the members' foreign keys are on (a build inside a
caller's transaction), SQLite deletes them row by row rather than truncating the table: their
two indexes must be gone before that, or each deleted row updates them too (on the whole
archive, 2.5 s instead of 0.3 s). The build's own transaction turns the keys off and checks
them once at its end. The rebuild then gives the same lineages as the build before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest
from sqlite_utils import Database

from archive.store import open_store
from lineage.store import MEMBER_INDEXES, build_lineage


def _copy(small_lineage: Database, folder: Path) -> Database:
    """A store of its own, as the small lineage fixture built it."""
    small_lineage.conn.backup(Database(folder / "copy.db").conn)
    return open_store(folder / "copy.db")


@pytest.fixture
def db(small_lineage: Database, tmp_path: Path) -> Database:
    return _copy(small_lineage, tmp_path)


class Rebuilt(NamedTuple):
    """A copy of the small store after a full rebuild of its lineages: the members before
    it, and the statements it ran."""

    db: Database
    before: list[tuple[Any, ...]]
    statements: list[str]


@pytest.fixture(scope="module")
def rebuilt(small_lineage: Database, tmp_path_factory: pytest.TempPathFactory) -> Rebuilt:
    """One full rebuild for the tests that only read what it did (five seconds each: the
    small store's releases are years apart, and each pair takes long to align)."""
    db = _copy(small_lineage, tmp_path_factory.mktemp("rebuilt"))
    members = db.execute("SELECT part_id, lineage_id, release, number FROM lineage_members")
    before = sorted(members.fetchall())
    return Rebuilt(db, before, _statements_of_a_full_rebuild(db))


def _statements_of_a_full_rebuild(db: Database) -> list[str]:
    db.execute("UPDATE lineage_alignments SET version = 0")  # every release is stale
    db.conn.commit()
    heard: list[str] = []
    db.conn.set_trace_callback(heard.append)
    try:
        build_lineage(db)
    finally:
        db.conn.set_trace_callback(None)
    return [" ".join(statement.split()) for statement in heard]


def _first(statements: list[str], start: str) -> int:
    return next(i for i, statement in enumerate(statements) if statement.startswith(start))


def test_a_full_rebuild_drops_the_member_indexes_before_deleting_the_members(
    rebuilt: Rebuilt,
) -> None:
    db, before, statements = rebuilt

    deleted = _first(statements, "DELETE FROM lineage_members")
    for index in MEMBER_INDEXES:
        dropped = _first(statements, f"DROP INDEX IF EXISTS {index}")
        assert dropped < deleted, f"{index} is kept up to date while every member is deleted"
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert set(MEMBER_INDEXES) <= names, "the member indexes are built again at the end"
    after = db.execute("SELECT part_id, lineage_id, release, number FROM lineage_members")
    assert sorted(after.fetchall()) == before


def test_a_rebuild_turns_the_foreign_keys_back_on(rebuilt: Rebuilt) -> None:
    db = rebuilt.db
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_a_lineage_row_naming_no_lineage_stops_the_build_and_keeps_the_store(
    db: Database,
) -> None:
    """The keys are checked once, at the end of the build: a row that names a lineage the
    store does not have fails it, and the build's transaction goes with it."""
    first, last = db.execute("SELECT min(release), max(release) FROM lineage_alignments").fetchone()
    db.conn.execute("PRAGMA foreign_keys = OFF")
    db.execute(
        "INSERT INTO lineage_events (lineage_id, release, kind, old_numbers, new_numbers)"
        " VALUES (?, ?, 'reworded', '[]', '[]')",
        [10**9, first],
    )
    db.execute("UPDATE lineage_alignments SET version = 0 WHERE release = ?", [last])
    db.conn.commit()
    db.conn.execute("PRAGMA foreign_keys = ON")
    members = db.execute("SELECT count(*) FROM lineage_members").fetchone()[0]

    with pytest.raises(RuntimeError, match="lineage_events row .* names a missing lineages"):
        build_lineage(db)

    stale = db.execute("SELECT version FROM lineage_alignments WHERE release = ?", [last])
    assert stale.fetchone()[0] == 0, "the build's writes were kept"
    assert db.execute("SELECT count(*) FROM lineage_members").fetchone()[0] == members
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1

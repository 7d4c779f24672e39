"""A full rebuild of the lineages (a new ALIGN_VERSION, a store whose first release changed)
empties the lineage tables first. The members' foreign keys keep SQLite from truncating
their table at once, so it deletes them row by row: their two indexes must be gone before
that, or each deleted row updates them too (on the whole archive, 2.5 s instead of 0.3 s).
The rebuild then gives the same lineages as the build before it."""

from __future__ import annotations

from pathlib import Path

from sqlite_utils import Database

from archive.store import open_store
from lineage.store import MEMBER_INDEXES, build_lineage


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
    small_lineage: Database, tmp_path: Path
) -> None:
    small_lineage.conn.backup(Database(tmp_path / "copy.db").conn)
    db = open_store(tmp_path / "copy.db")
    members = db.execute("SELECT part_id, lineage_id, release, number FROM lineage_members")
    before = sorted(members.fetchall())

    statements = _statements_of_a_full_rebuild(db)

    deleted = _first(statements, "DELETE FROM lineage_members")
    for index in MEMBER_INDEXES:
        dropped = _first(statements, f"DROP INDEX IF EXISTS {index}")
        assert dropped < deleted, f"{index} is kept up to date while every member is deleted"
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert set(MEMBER_INDEXES) <= names, "the member indexes are built again at the end"
    after = db.execute("SELECT part_id, lineage_id, release, number FROM lineage_members")
    assert sorted(after.fetchall()) == before

"""The in-browser compare's data, computed again after a new release, reuses the kinds it
named last time (renderer.compare_data's memo) and the releases it read (its resume), and
publishes the same bytes as without them."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database

from archive.store import open_store
from lineage.store import build_lineage
from renderer import compare_data as compare_module
from renderer import pages_compare
from renderer.compare_data import compare_data


def _dates(db: Database) -> list[str]:
    return [row[0] for row in db.execute("SELECT date FROM releases ORDER BY date")]


def test_the_memo_gives_the_same_files_and_names_no_kind_again(
    small_lineage: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    dates = _dates(small_lineage)
    fresh = compare_data(small_lineage, dates)
    assert fresh.kinds  # one entry per lineage

    def refuse(*_args: Any) -> str:
        raise AssertionError("a kind named again although the memo had it")

    monkeypatch.setattr(compare_module, "both_kinds", refuse)
    again = compare_data(small_lineage, dates, dict(fresh.kinds))
    assert again.files == fresh.files


def test_the_stored_kinds_give_the_files_naming_them_here_gives(
    small_lineage: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pipeline's change_kinds serve most pairs; without them every pair is named here,
    and the files are the same."""
    dates = _dates(small_lineage)
    named: list[Any] = []
    both_kinds = compare_module.both_kinds

    def counted(*args: Any) -> Any:
        named.append(args)
        return both_kinds(*args)

    monkeypatch.setattr(compare_module, "both_kinds", counted)
    with_store = compare_data(small_lineage, dates)
    from_store = len(named)
    monkeypatch.setattr(compare_module, "stored_both_kinds", lambda *_args: {})
    named.clear()
    without = compare_data(small_lineage, dates)
    assert without.files == with_store.files
    assert from_store < len(named) / 2  # most pairs were read, not named


def test_a_new_release_names_the_kinds_of_the_lineages_it_changed_only(
    small_lineage: Database,
) -> None:
    dates = _dates(small_lineage)
    before = compare_data(small_lineage, dates[:-1])
    after = compare_data(small_lineage, dates, dict(before.kinds))
    reused = after.kinds.keys() & before.kinds.keys()
    assert reused and len(reused) < len(after.kinds)  # most kept, some lineages changed
    assert after.files == compare_data(small_lineage, dates).files


def test_a_memo_written_by_other_code_is_not_read(tmp_path: Path) -> None:
    pages_compare._save_memo(tmp_path, {"some lineage": ["a", {}]})
    assert pages_compare._load_memo(tmp_path) == {"some lineage": ["a", {}]}
    pages_compare._save_memo(tmp_path, {"kept": ["a", {}], "edited": "a"})
    assert pages_compare._load_memo(tmp_path) == {"kept": ["a", {}]}
    memo = tmp_path / pages_compare.MEMO
    memo.write_text(memo.read_text().replace(pages_compare.memo_code(), "other"))
    assert pages_compare._load_memo(tmp_path) == {}


def test_a_release_aligned_again_is_new_data_to_the_compare(
    small_lineage: Database, tmp_path: Path
) -> None:
    """A capture read again by a newer parser comes back under its old id: its release is
    aligned again into an alignment row otherwise equal to the old one, under new lineage
    ids. The last build's compare data (kept while its key holds) named the old ids, and a
    rebuild published them again beside pages that name the new ones."""
    copy = tmp_path / "copy.db"
    small_lineage.conn.backup(Database(copy).conn)
    db = open_store(copy)
    dates = _dates(db)
    before = pages_compare.data_key(db, dates)
    with db.conn:
        db.execute("UPDATE lineage_alignments SET version = -1 WHERE release = ?", [dates[-1]])
    build_lineage(db)
    rows = "SELECT release, previous_release, capture_id, previous_capture_id, version"
    assert (
        db.execute(f"{rows} FROM lineage_alignments").fetchall()
        == small_lineage.execute(f"{rows} FROM lineage_alignments").fetchall()
    )  # the same rows: only the token tells the new alignment apart
    assert pages_compare.data_key(db, dates) != before


def _members_read(db: Database, compute: Any) -> tuple[Any, list[str]]:
    """What `compute()` returns, and the releases whose members it read from `db` (the
    statements SQLite ran, their parameters written in)."""
    statements: list[str] = []
    db.conn.set_trace_callback(statements.append)
    try:
        result = compute()
    finally:
        db.conn.set_trace_callback(None)
    read = [s for s in statements if "FROM lineage_members" in s]
    return result, [date for date in _dates(db) if any(f"'{date}'" in s for s in read)]


def test_after_a_new_release_only_that_release_is_read(small_lineage: Database) -> None:
    dates = _dates(small_lineage)
    before = compare_data(small_lineage, dates[:-1])
    assert before.resume is not None
    after, read = _members_read(
        small_lineage, lambda: compare_data(small_lineage, dates, dict(before.kinds), before.resume)
    )
    assert read == [dates[-1]]
    assert after.files == compare_data(small_lineage, dates).files


def test_a_resume_of_releases_that_changed_is_not_continued(small_lineage: Database) -> None:
    """Its first release aligned otherwise (a key of its chain differs): every release is
    read again, as with no resume."""
    dates = _dates(small_lineage)
    before = compare_data(small_lineage, dates[:-1])
    assert before.resume is not None
    changed = dataclasses.replace(before.resume, chain=["another", *before.resume.chain[1:]])
    after, read = _members_read(
        small_lineage, lambda: compare_data(small_lineage, dates, None, changed)
    )
    assert read == sorted(dates)
    assert after.files == compare_data(small_lineage, dates).files


def test_a_release_aligned_again_is_read_again(small_lineage: Database, tmp_path: Path) -> None:
    """The newest release aligned again (a new token in its alignment row, as a capture read
    by a newer parser gets): the last computation's resume covers it, and must not be
    continued. (Here its lineages keep their ids, so only the reads tell.)"""
    copy = tmp_path / "copy.db"
    small_lineage.conn.backup(Database(copy).conn)
    db = open_store(copy)
    dates = _dates(db)
    before = compare_data(db, dates)
    with db.conn:
        db.execute("UPDATE lineage_alignments SET version = -1 WHERE release = ?", [dates[-1]])
    build_lineage(db)
    after, read = _members_read(
        db, lambda: compare_data(db, dates, dict(before.kinds), before.resume)
    )
    assert read == sorted(dates)  # every release read again: the chain's last key changed
    assert after.files == compare_data(db, dates).files


def test_a_resume_that_cannot_be_read_is_no_resume(small_lineage: Database, tmp_path: Path) -> None:
    dates = _dates(small_lineage)
    data = compare_data(small_lineage, dates[:2])
    pages_compare._save_resume(tmp_path, data.resume)
    loaded = pages_compare._load_resume(tmp_path)
    assert loaded is not None and loaded.chain == data.resume.chain
    stored = tmp_path / pages_compare.RESUME
    whole = stored.read_bytes()
    stored.write_bytes(whole[: len(whole) // 2])  # a file cut short
    assert pages_compare._load_resume(tmp_path) is None
    stored.write_bytes(whole.replace(pages_compare.data_code().encode(), b"0" * 64))
    assert pages_compare._load_resume(tmp_path) is None  # written by other code

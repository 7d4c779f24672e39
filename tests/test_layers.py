"""The layers hold (import-linter contracts in pyproject.toml) and the renderer only reads:
the whole site builds from a store that SQLite opens read-only, and the file is unchanged."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from sqlite_utils import Database

from archive.store import open_reader
from lineage.compare import diff_releases
from renderer.build import build_site

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def store_file(db: Database) -> Path:
    return Path(db.execute("PRAGMA database_list").fetchone()[2])


def test_the_site_builds_from_a_read_only_store(tiny_lineage: Database, tmp_path: Path) -> None:
    tiny_lineage.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    copy = tmp_path / "store" / "rules.db"
    copy.parent.mkdir()
    shutil.copyfile(store_file(tiny_lineage), copy)
    copy.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # 0444
    before = hashlib.sha256(copy.read_bytes()).hexdigest()
    db = open_reader(copy)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        db.execute("CREATE TABLE probe (x)")
    report = build_site(db, tmp_path / "site", search=False)
    db.close()
    assert report.pages_rendered > 1000
    assert (tmp_path / "site" / "history").is_dir() and (tmp_path / "site" / "index.html").exists()
    assert hashlib.sha256(copy.read_bytes()).hexdigest() == before
    wal = copy.with_name("rules.db-wal")  # a reader may create it, empty; nothing goes in
    assert not wal.exists() or wal.stat().st_size == 0
    assert set(os.listdir(copy.parent)) <= {"rules.db", "rules.db-shm", "rules.db-wal"}


def test_a_mapped_reader_maps_the_store_and_diffs_alike(small_lineage: Database) -> None:
    """The CLI's trace, diff and blame read through a memory map; the site build does not
    (mapped pages count in its resident memory). A map changes how pages are read, never
    what: the same diff either way."""
    path = store_file(small_lineage)
    plain, mapped = open_reader(path), open_reader(path, mapped=True)
    assert plain.execute("PRAGMA mmap_size").fetchone()[0] == 0
    assert mapped.execute("PRAGMA mmap_size").fetchone()[0] > 0
    dates = [row[0] for row in plain.execute("SELECT date FROM releases ORDER BY date")]
    assert diff_releases(mapped, dates[0], dates[-1]) == diff_releases(plain, dates[0], dates[-1])
    plain.close()
    mapped.close()

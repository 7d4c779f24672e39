"""Bad input for the readers: a store with no lineage yet, a store from an older version, a
store whose lineages are stale, a publish folder left by a killed build. Each is one line
naming `rules-history ingest` (exit 1, no traceback), and the rerun finishes the job."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import make_captures_dir
from sqlite_utils import Database

from archive.ingest import ingest_captures
from archive.store import open_reader, open_store
from lineage.freshness import StaleStore
from renderer.build import build_site
from renderer.state import UNFINISHED, site_state

RELEASES = ("1999-04-23", "1999-11-01", "2001-07-23")  # three small ones: a quick pipeline
DERIVED_TABLES = (
    "wordings",
    "blame",
    "release_counts",
    "release_changes",
    "derived_state",
    "example_records",
    "example_state",
)


def run(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULES_HISTORY_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "rules_history", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def one_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(scope="module")
def captures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_captures_dir(tmp_path_factory.mktemp("stale-captures"), RELEASES)


@pytest.fixture(scope="module")
def complete(tmp_path_factory: pytest.TempPathFactory, captures: Path) -> Path:
    """A store brought up to date by `rules-history ingest`."""
    path = tmp_path_factory.mktemp("complete") / "rules.db"
    result = run("ingest", "--captures", str(captures), "--quiet", db=path)
    assert result.returncode == 0, result.stderr
    return path


def copy_of(store: Path, target: Path) -> Path:
    db = Database(store)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    copy = target / "rules.db"
    shutil.copyfile(store, copy)
    return copy


def test_no_lineage_yet(tmp_path: Path, captures: Path) -> None:
    path = tmp_path / "rules.db"
    db = open_store(path)
    ingest_captures(db, captures)  # the releases only: no later stage ran
    db.close()
    for command in (["trace", "100.1"], ["blame", RELEASES[2]], ["releases"], ["examples"]):
        one_line(run(*command, db=path), "no lineages yet", "`rules-history ingest`")
    assert run("ingest", "--captures", str(captures), "--quiet", db=path).returncode == 0
    assert run("trace", f"100.1@{RELEASES[0]}", db=path).returncode == 0


def test_a_store_from_an_older_version(tmp_path: Path, complete: Path, captures: Path) -> None:
    path = copy_of(complete, tmp_path)
    db = Database(path)  # made before the derived answers were stored
    for table in DERIVED_TABLES:
        db.execute(f"DROP TABLE {table}")
    # ... and so before every later migration of their tables
    db.execute(
        "DELETE FROM _sqlite_migrations WHERE name IN (?, ?)",
        ["m011_derived_answers", "m019_unchanged_count"],
    )
    db.conn.commit()
    db.close()
    one_line(run("blame", RELEASES[2], "--rule", "100", db=path), "older version", "ingest")
    one_line(run("diff", RELEASES[0], RELEASES[2], db=path), "older version")
    assert run("ingest", "--captures", str(captures), "--quiet", db=path).returncode == 0
    assert run("blame", RELEASES[2], "--rule", "100", db=path).returncode == 0


def test_a_store_that_lacks_a_column_added_since(
    tmp_path: Path, complete: Path, captures: Path
) -> None:
    """A migration that adds a column leaves every table in place: a reader of a store made
    before it failed on the column with 'the store cannot be read', naming no command."""
    path = copy_of(complete, tmp_path)
    db = Database(path)
    db.execute("ALTER TABLE lineage_alignments DROP COLUMN aligned_as")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm017_alignment_token'")
    db.conn.commit()
    db.close()
    one_line(run("blame", RELEASES[2], "--rule", "100", db=path), "older version", "ingest")
    assert run("ingest", "--captures", str(captures), "--quiet", db=path).returncode == 0
    assert run("blame", RELEASES[2], "--rule", "100", db=path).returncode == 0


def test_stale_lineages_and_answers(tmp_path: Path, complete: Path, captures: Path) -> None:
    path = copy_of(complete, tmp_path)
    db = Database(path)
    db.execute(
        "UPDATE lineage_alignments SET version = version - 1 WHERE release = ?", [RELEASES[1]]
    )
    db.conn.commit()
    db.close()
    one_line(run("trace", "100.1", db=path), f"lineages are out of date from the {RELEASES[1]}")
    assert run("ingest", "--captures", str(captures), "--quiet", db=path).returncode == 0
    db = Database(path)
    db.execute("DELETE FROM derived_state WHERE release = ?", [RELEASES[2]])
    db.conn.commit()
    db.close()
    one_line(run("releases", db=path), "stored answers", RELEASES[2], "ingest")
    assert run("ingest", "--captures", str(captures), "--quiet", db=path).returncode == 0
    assert run("releases", db=path).returncode == 0


def test_a_stale_store_writes_no_page(tmp_path: Path, captures: Path) -> None:
    path = tmp_path / "rules.db"
    db = open_store(path)
    ingest_captures(db, captures)
    db.close()
    with pytest.raises(StaleStore, match="rules-history ingest"):
        build_site(open_reader(path), tmp_path / "site")
    assert not (tmp_path / "site").exists()


def test_a_killed_build_is_finished_by_the_rerun(
    tmp_path: Path, captures: Path, complete: Path
) -> None:
    out = tmp_path / "site"
    # --captures names the store's own three releases: without it the pipeline would bring in
    # the whole embedded archive first.
    build = ("build", "--out", str(out), "--no-search", "--captures", str(captures))
    first = run(*build, "--quiet", db=complete)
    assert first.returncode == 0, first.stderr
    page = out / "rule" / "100.1" / "index.html"
    whole = page.read_bytes()
    # What a build killed midway leaves: its marker (in the state folder beside the store),
    # and a page cut short.
    marker = site_state(out, complete.parent / "site-state") / UNFINISHED
    assert marker.parent.is_dir() and not marker.exists()
    marker.write_text("")
    page.write_bytes(whole[:100])
    again = run(*build, db=complete)
    assert again.returncode == 0, again.stderr
    notes = [line for line in again.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "did not finish" in notes[0]
    assert page.read_bytes() == whole
    assert not marker.exists()


def as_another_user(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    """`run`, by a user that may not write the store: the test's own when it is not root
    (the files are made read-only), else nobody (root writes what it likes)."""
    if os.geteuid() != 0:
        return run(*args, db=db)
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: no user to lack write access")
    nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
    env = {**os.environ, "RULES_HISTORY_DB": str(db), "HOME": str(db.parent)}
    return subprocess.run(
        [setpriv, *nobody, sys.executable, "-m", "rules_history", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.fixture
def read_only_store(complete: Path) -> Iterator[Path]:
    """A copy of the store, read-only, in a read-only folder (a read-only mount, another
    user's store), in a folder every user may pass through."""
    with tempfile.TemporaryDirectory() as root:
        os.chmod(root, 0o755)
        folder = Path(root) / "mounted"
        folder.mkdir()
        path = copy_of(complete, folder)
        path.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield path
        finally:
            folder.chmod(0o755)


def test_a_store_in_a_read_only_folder_is_read(read_only_store: Path) -> None:
    """The read commands said 'not a usable SQLite store ... remove it and ingest again' of
    a healthy store in a folder they could not write (SQLite makes a file beside a store in
    WAL mode); they read it, and a writer says it is read-only, not damaged."""
    shown = as_another_user("show", f"100.1@{RELEASES[1]}", db=read_only_store)
    assert shown.returncode == 0, shown.stderr
    assert "100.1" in shown.stdout
    refused = as_another_user("ingest", "--quiet", db=read_only_store)
    one_line(refused, "read-only")
    assert "remove it" not in refused.stderr


def test_a_locked_store_is_busy_not_damaged(tmp_path: Path, complete: Path) -> None:
    """A store another process holds locked got 'remove it and ingest again': it is busy."""
    path = copy_of(complete, tmp_path)
    holder = sqlite3.connect(path)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        busy = run("show", f"100.1@{RELEASES[1]}", db=path)
    finally:
        holder.rollback()
        holder.close()
    one_line(busy, "busy")
    assert "remove it" not in busy.stderr


@pytest.mark.parametrize("dropped", ["release_gaps", "witnesses"])
def test_every_read_command_says_a_store_lacking_a_table_is_damaged(
    tmp_path: Path, complete: Path, dropped: str
) -> None:
    """`show` read a store without `release_gaps` as 'cannot be read (no such table ...)',
    with no remedy; without `witnesses` it printed no witness line; `export` without
    `release_names` said 'M10' named no release. Every read command checks the store first:
    a table its version has, missing, is one line saying how to build the store again (an
    ingest alone would not: its schema says the table is there). `ingest` says so before it
    parses anything: it parsed every capture the store lacked, and failed at the table."""
    path = copy_of(complete, tmp_path)
    db = Database(path)
    db.execute(f"DROP TABLE {dropped}")
    db.conn.commit()
    db.close()
    for command in (["show", "100.1"], ["cite", "100.1"], ["export", RELEASES[0]]):
        one_line(run(*command, db=path), f"damaged (no table {dropped}", "remove it")
    before = path.read_bytes()
    one_line(run("ingest", "--quiet", db=path), f"damaged (no table {dropped}", "remove it")
    assert path.read_bytes() == before  # nothing parsed into it


def test_an_empty_file_is_an_empty_store(tmp_path: Path) -> None:
    path = tmp_path / "rules.db"
    path.write_bytes(b"")
    for command in (["show", "100.1"], ["releases"], ["trace", "100.1"]):
        one_line(run(*command, db=path), "the store is empty", "rules-history ingest")


def test_a_read_only_store_with_changes_in_its_log_is_not_called_damaged(
    complete: Path,
) -> None:
    """A store snapshotted while a writer had changes in its write-ahead log, in a folder it
    may not write: SQLite cannot read it there, and the reader said 'remove it and ingest
    again'. It says to copy the store and its log somewhere writable."""
    with tempfile.TemporaryDirectory() as root:
        os.chmod(root, 0o755)
        folder = Path(root) / "mounted"
        folder.mkdir()
        path = copy_of(complete, folder)
        writer = sqlite3.connect(path)
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("CREATE TABLE scratch (x)")  # a change left in the log
        writer.commit()
        journal = path.with_name(path.name + "-wal")
        kept = journal.read_bytes()
        writer.close()  # closing checkpoints the log into the file and removes it
        journal.write_bytes(kept)
        folder.chmod(0o555)
        try:
            refused = as_another_user("show", f"100.1@{RELEASES[1]}", db=path)
        finally:
            folder.chmod(0o755)
    one_line(refused, "write-ahead log", "copy the store and its -wal")
    assert "remove it" not in refused.stderr

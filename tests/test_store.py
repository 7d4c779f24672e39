"""The store: every release in it, every capture rebuilt exactly, ingest idempotent and atomic."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest
from conftest import make_captures_dir

from archive.decode import decode_capture
from archive.ingest import PARSER_VERSION, ingest_captures
from archive.manifest import CAPTURES_DIR, load_manifest, read_capture_bytes
from archive.query import rebuild_text
from archive.store import open_store

CAPTURES = load_manifest()


def table_digest(db) -> dict[str, str]:
    """A fingerprint of every table's rows, to prove that nothing changed."""
    digests = {}
    for table in ("sources", "captures", "releases", "raw_texts", "clause_versions", "parts"):
        rows = db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
        digests[table] = hashlib.sha256(repr(rows).encode()).hexdigest()
    return digests


def test_every_release_is_in_the_store(full_store):
    dates = [row["date"] for row in full_store.query("SELECT date FROM releases ORDER BY date")]
    assert len(dates) == 135
    assert dates[0] == "1999-04-23" and dates[-1] == "2026-08-07"
    assert full_store["captures"].count == 150


def test_each_release_is_read_from_its_preferred_capture(full_store):
    rows = {
        row["date"]: row["file"]
        for row in full_store.query(
            "SELECT releases.date, captures.file FROM releases"
            " JOIN captures ON captures.id = releases.capture_id"
        )
    }
    assert rows["2016-08-26"] == "cr/2016-08-26.alt.txt"
    assert rows["2011-09-30"] == "cr/2011-09-30.alt.txt"
    assert rows["2008-05-01"] == "cr/2008-05-01.txt"
    assert rows["2026-08-07"] == "cr/2026-08-07.upload-2026-08-19.txt"


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda c: c.name)
def test_every_capture_rebuilds_from_the_store(full_store, capture):
    expected = decode_capture(
        read_capture_bytes(CAPTURES_DIR, capture), capture.encoding, capture.file
    )
    row = next(full_store.query("SELECT id FROM captures WHERE sha256 = ?", [capture.sha256]))
    assert rebuild_text(full_store, row["id"]) == expected


def test_wordings_are_stored_once(full_store):
    parts = full_store.execute("SELECT count(*) FROM parts WHERE version_hash IS NOT NULL")
    versions = full_store["clause_versions"].count
    assert versions * 5 < parts.fetchone()[0]


def test_full_text_search_finds_face_down_rules(full_store):
    hits = list(
        full_store.query(
            "SELECT DISTINCT clauses.release, clauses.number FROM clause_versions_fts"
            " JOIN clause_versions ON clause_versions.rowid = clause_versions_fts.rowid"
            " JOIN clauses ON clauses.version_hash = clause_versions.hash"
            " WHERE clause_versions_fts MATCH 'illusionary mask' AND clauses.release = '2002-10-07'"
        )
    )
    assert {"release": "2002-10-07", "number": "504.1"} in hits


def test_typography_only_release_normalises_like_the_one_before(full_store):
    def by_number(release: str) -> dict[str, str]:
        return {
            row["number"]: row["normalised"]
            for row in full_store.query(
                "SELECT number, normalised FROM clauses WHERE release = ? AND number IS NOT NULL",
                [release],
            )
        }

    before, after = by_number("2018-10-05"), by_number("2019-01-25")
    changed = sorted(n for n in before if n in after and before[n] != after[n])
    raw_changed = [
        row["number"]
        for row in full_store.query(
            "SELECT a.number FROM clauses a JOIN clauses b ON a.number = b.number"
            " WHERE a.release = '2018-10-05' AND b.release = '2019-01-25' AND a.text != b.text"
        )
    ]
    assert len(raw_changed) > 1000  # every quote and dash was retyped in ASCII
    # What is left are the real rules changes of January 2019 (targets, Brawl, ...).
    assert changed == [
        "114.6",
        "207.2c",
        "603.3c",
        "605.1a",
        "605.1b",
        "700.2b",
        "706.2b",
        "903.11e",
        "903.11f",
        "903.11g",
    ]


def test_second_ingest_changes_nothing(tmp_path, small_captures):
    db = open_store(tmp_path / "rules.db")
    ingest_captures(db, small_captures)
    before = table_digest(db)
    report = ingest_captures(db, small_captures)
    assert report.ingested == [] and len(report.skipped) == len(load_manifest(small_captures))
    assert table_digest(db) == before


def test_adding_one_release_ingests_only_that_one(tmp_path):
    folder = make_captures_dir(tmp_path / "caps", ("2008-02-01", "2009-10-05"))
    db = open_store(tmp_path / "rules.db")
    ingest_captures(db, folder)
    make_captures_dir(folder, ("2008-02-01", "2009-10-05", "2024-06-07"))
    report = ingest_captures(db, folder)
    assert report.ingested == ["cr/2024-06-07.txt"]
    assert db["releases"].count == 3


def test_a_bad_capture_is_reported_and_the_others_still_ingest(tmp_path):
    folder = make_captures_dir(tmp_path / "caps", ("2008-02-01", "2024-06-07"))
    manifest = json.loads((folder / "manifest.json").read_text())
    html = b"<!DOCTYPE html><html><body>Wayback Machine: not archived</body></html>"
    (folder / "cr" / "2010-01-01.txt").write_bytes(html)
    manifest.append(
        {
            "date": "2010-01-01",
            "file": "cr/2010-01-01.txt",
            "encoding": None,
            "sha256": hashlib.sha256(html).hexdigest(),
        }
    )
    (folder / "manifest.json").write_text(json.dumps(manifest))
    db = open_store(tmp_path / "rules.db")
    report = ingest_captures(db, folder)
    assert [file for file, _ in report.failed] == ["cr/2010-01-01.txt"]
    assert "2010-01-01.txt: this is an HTML page" in report.failed[0][1]
    assert db["releases"].count == 2


def test_a_capture_whose_bytes_changed_is_refused(tmp_path):
    folder = make_captures_dir(tmp_path / "caps", ("2008-02-01",))
    with (folder / "cr" / "2008-02-01.txt").open("ab") as handle:
        handle.write(b"tampered\n")
    report = ingest_captures(open_store(tmp_path / "rules.db"), folder)
    assert "sha256 is" in report.failed[0][1]


def test_a_failed_write_leaves_the_store_as_it_was(tmp_path, monkeypatch):
    folder = make_captures_dir(tmp_path / "caps", ("2008-02-01", "2024-06-07"))
    db = open_store(tmp_path / "rules.db")
    shutil.copy(folder / "manifest.json", tmp_path / "full-manifest.json")
    make_captures_dir(folder, ("2008-02-01",))
    # make_captures_dir rewrote the manifest with one release; store it, then add the other.
    ingest_captures(db, folder)
    before = table_digest(db)
    shutil.copy(tmp_path / "full-manifest.json", folder / "manifest.json")

    import archive.ingest as ingest_module

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(ingest_module, "normalise", explode)
    with pytest.raises(RuntimeError):
        ingest_captures(db, folder)
    assert table_digest(db) == before
    monkeypatch.undo()
    assert ingest_captures(db, folder).ingested == ["cr/2024-06-07.txt"]


def test_a_store_from_an_older_parser_is_parsed_again(tmp_path, small_captures):
    db = open_store(tmp_path / "rules.db")
    folder = make_captures_dir(tmp_path / "caps", ("2008-02-01",))
    ingest_captures(db, folder)
    db.execute("UPDATE captures SET parser_version = ?", [PARSER_VERSION - 1])
    db.conn.commit()
    report = ingest_captures(db, folder)
    assert report.ingested == ["cr/2008-02-01.txt"]
    assert db["captures"].count == 1 and db["releases"].count == 1

"""The capture store: exact bytes, write-once, atomic files, a manifest ingest accepts, WARC."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from archive.decode import guess_encoding
from archive.manifest import load_manifest, read_capture_bytes
from crawler.capture_store import TEMP_PREFIX, CaptureStore, write_atomic
from crawler.warc import export_warc

CP1252 = b"Magic: The Gathering\x99 Comprehensive Rules\r\n\r\n100.1. Dand\xe2n \x96 rules\r\n"
UTF16 = "\ufeffMagic rules\r\n".encode("utf-16-le")


def add_cr(store: CaptureStore, data: bytes, release: str, stamp: str = "20100101000000"):
    return store.add(
        data,
        source=f"cr-{release}",
        kind="cr",
        url=f"http://www.wizards.com/magic/comprules/{release}.txt",
        timestamp=stamp,
        status=200,
        content_type="text/plain",
        release=release,
    )


def test_bytes_are_kept_exactly_and_named_by_their_hash(tmp_path):
    store = CaptureStore(tmp_path)
    for release, data in (("2004-02-01", CP1252), ("2016-09-30", UTF16)):
        record, new = add_cr(store, data, release)
        assert new
        assert (tmp_path / record.file).read_bytes() == data
        assert record.sha256 == hashlib.sha256(data).hexdigest() == Path(record.file).name
        assert record.bytes == len(data)
        assert record.fetched_at and record.status == 200 and record.content_type == "text/plain"


def test_the_same_capture_is_recorded_once_and_never_rewritten(tmp_path):
    store = CaptureStore(tmp_path)
    record, _ = add_cr(store, CP1252, "2004-02-01")
    path = tmp_path / record.file
    before = path.stat().st_mtime_ns
    again, new = add_cr(store, CP1252, "2004-02-01")
    assert not new and again == record
    assert path.stat().st_mtime_ns == before
    assert len(CaptureStore(tmp_path).records) == 1


def test_the_index_survives_reopening_and_holds_the_evidence(tmp_path):
    add_cr(CaptureStore(tmp_path), CP1252, "2004-02-01", "20040125022533")
    (record,) = CaptureStore(tmp_path).records
    assert record.url.endswith("2004-02-01.txt")
    assert record.timestamp == "20040125022533"
    assert record.capture_time == "2004-01-25T02:25:33Z"
    rows = json.loads((tmp_path / "index.json").read_bytes())
    assert {"url", "timestamp", "status", "content_type", "sha256", "fetched_at"} <= set(rows[0])


def test_the_manifest_is_one_ingest_reads(tmp_path):
    store = CaptureStore(tmp_path)
    add_cr(store, CP1252, "2004-02-01")
    add_cr(store, UTF16, "2016-09-30")
    add_cr(store, CP1252 + b"later\r\n", "2004-02-01", "20050101000000")  # a second capture
    captures = load_manifest(tmp_path)
    assert [(c.date, c.preferred) for c in captures] == [
        ("2004-02-01", True),
        ("2004-02-01", False),
        ("2016-09-30", True),
    ]
    for capture in captures:
        data = read_capture_bytes(tmp_path, capture)
        assert capture.encoding == guess_encoding(data, capture.file)
    assert captures[0].original_url.endswith("2004-02-01.txt")
    assert captures[0].capture_time == "2010-01-01T00:00:00Z"


def test_writes_are_atomic_and_strays_are_cleaned(tmp_path):
    target = tmp_path / "dir" / "file"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert not [p for p in target.parent.iterdir() if p.name.startswith(TEMP_PREFIX)]
    stray = tmp_path / "objects" / "ab" / f"{TEMP_PREFIX}killed"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(b"half a capt")
    CaptureStore(tmp_path)
    assert not stray.exists()


def test_verify_finds_a_damaged_object(tmp_path):
    store = CaptureStore(tmp_path)
    record, _ = add_cr(store, CP1252, "2004-02-01")
    assert store.verify() == []
    path = tmp_path / record.file
    os.chmod(path, 0o644)
    path.write_bytes(CP1252[:-1])
    assert any("do not match" in problem for problem in store.verify())


def test_warc_export_round_trips_every_capture(tmp_path):
    store = CaptureStore(tmp_path / "captures")
    add_cr(store, CP1252, "2004-02-01", "20040125022533")
    add_cr(store, UTF16, "2016-09-30")
    target = tmp_path / "captures.warc.gz"
    assert export_warc(store, target) == 2
    with open(target, "rb") as stream:
        records = [
            (
                r.rec_headers.get_header("WARC-Target-URI"),
                r.rec_headers.get_header("WARC-Date"),
                r.content_stream().read(),
            )
            for r in ArchiveIterator(stream)
        ]
    assert records[0] == (store.records[0].url, "2004-01-25T02:25:33Z", CP1252)
    assert records[1][2] == UTF16


def test_the_committed_seeds_are_a_valid_store():
    store = CaptureStore(Path(__file__).resolve().parents[1] / "archive" / "captures" / "web")
    assert len(store.records) == 5
    assert store.verify() == []
    assert {r.parser for r in store.records} == {
        "wizards-article",
        "crystal-keep",
        "mtg-wiki",
        "gatherer-rulings",
    }


def test_the_warc_command_exports_the_committed_seeds(tmp_path):
    from click.testing import CliRunner

    from rules_history.cli import main

    seeds = Path(__file__).resolve().parents[1] / "archive" / "captures" / "web"
    target = tmp_path / "seeds.warc.gz"
    result = CliRunner().invoke(main, ["warc", str(target), "--captures", str(seeds)])
    assert result.exit_code == 0, result.output
    assert "wrote 5 records" in result.output
    with open(target, "rb") as stream:
        payloads = [r.content_stream().read() for r in ArchiveIterator(stream)]
    assert sorted(hashlib.sha256(p).hexdigest() for p in payloads) == sorted(
        r.sha256 for r in CaptureStore(seeds).records
    )

"""The crawl against a real HTTP server on 127.0.0.1 that serves the committed corpus.

Faults are survived and nothing bad is stored; `--offline` and `--dry-run` send nothing; a
crawl killed midway and restarted ends with every capture exactly once; and the crawl of
the whole catalogue, then `ingest`, gives the same store as the committed archive.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import WITNESSED_RELEASES
from sqlite_utils import Database
from wayback_server import FakeWayback, Fault

from archive.ingest import ingest_captures
from archive.manifest import CAPTURES_DIR
from archive.store import open_store
from crawler.capture_store import TEMP_PREFIX, CaptureStore
from crawler.catalogue import Source, load_catalogue, select
from crawler.crawl import crawl
from crawler.wayback import Policy, WaybackSession
from rules_history.cli import main
from rules_history.crawl_cli import NOT_ARCHIVED_STATUS
from rules_history.pipeline import ingest_witnesses

FIXTURES = Path(__file__).parent / "fixtures" / "witnesses"
PREFERRED = {
    entry["date"]: entry
    for entry in json.loads((CAPTURES_DIR / "manifest.json").read_bytes())
    if entry["preferred"]
}
WITNESS_PAGES = {
    "wizards-morph-2002": ("wizards_morph_2002.html", None),
    "mtgwiki-face-down-2020": ("mtgwiki_face_down_2020.html", "20200301000000"),
}
FAST = Policy(timeout=2, cdx_per_minute=0, fetch_per_minute=0, retries=3, backoff=0.02)
FAST_OPTIONS = ["--rate", "0", "--fetch-rate", "0", "--backoff", "0.02", "--timeout", "5"]


def committed_bytes(release: str) -> bytes:
    return (CAPTURES_DIR / PREFERRED[release]["file"]).read_bytes()


def serve(wayback: FakeWayback, sources: list[Source]) -> None:
    """Each archived release's preferred file at its first URL; witness pages as HTML."""
    for source in sources:
        if source.kind == "cr" and source.release in PREFERRED:
            stamp = source.captures[0] if source.captures else source.release.replace("-", "")
            wayback.add(source.urls[0], committed_bytes(source.release), stamp.ljust(14, "0"))
        elif source.id in WITNESS_PAGES:
            page, stamp = WITNESS_PAGES[source.id]
            data = (FIXTURES / page).read_bytes()
            wayback.add(
                source.urls[0], data, stamp or source.captures[0], "text/html; charset=utf-8"
            )


@pytest.fixture
def wayback() -> Iterator[FakeWayback]:
    with FakeWayback() as server:
        yield server


def test_faults_are_survived_and_nothing_bad_is_stored(wayback, tmp_path):
    sources = select(
        load_catalogue(),
        ["wizards-morph-2002"],
        ["2002-10-07", "2008-02-01", "2020-01-22", "2024-06-07", "2023-02-03"],
    )
    # 2023-02-03 is archived since the second collection, but not served: never captured
    serve(wayback, [s for s in sources if s.release != "2023-02-03"])
    url = {s.release: s.urls[0] for s in sources if s.release}
    wayback.fail(f"cdx:{url['2002-10-07']}", Fault("status", 429, {"Retry-After": "0.2"}))
    wayback.fail(f"fetch:{url['2008-02-01']}", Fault("status", 503), Fault("timeout", seconds=3))
    wayback.fail(f"fetch:{url['2024-06-07']}", Fault("truncate"))
    # an older capture of 2020-01-22 that turns out to be an HTML page: passed over
    wayback.add(url["2020-01-22"], b"<html>a login page</html>", "20200110000000")
    wayback.fail(f"fetch:{url['2020-01-22']}", Fault("wrong-type"))
    store = CaptureStore(tmp_path / "captures")
    with WaybackSession(wayback.url, FAST) as session:
        report = crawl(sources, store, session)
    assert sorted(s for s, _file in report.fetched) == [
        "cr-2002-10-07",
        "cr-2008-02-01",
        "cr-2020-01-22",
        "cr-2024-06-07",
        "wizards-morph-2002",
    ]
    assert [(s, reason) for s, reason, _d in report.failed] == [("cr-2023-02-03", "not archived")]
    assert store.verify() == []
    for record in store.records:
        data = store.read(record)
        assert b"Wayback Machine" not in data and b"login page" not in data
        if record.release:
            assert data == committed_bytes(record.release)
            assert record.content_type == "text/plain" and record.status == 200


def test_a_second_crawl_fetches_nothing(wayback, tmp_path):
    sources = select(load_catalogue(), releases=["2002-10-07", "2008-02-01"])
    serve(wayback, sources)
    store = CaptureStore(tmp_path)
    with WaybackSession(wayback.url, FAST) as session:
        crawl(sources, store, session)
        requests = len(wayback.log)
        again = crawl(sources, CaptureStore(tmp_path), session)
    assert len(wayback.log) == requests == 4  # one CDX and one capture each, once
    assert again.skipped == [
        ("cr-2002-10-07", "already captured"),
        ("cr-2008-02-01", "already captured"),
    ]


@pytest.mark.parametrize("mode", ["--offline", "--dry-run"])
def test_offline_and_dry_run_never_touch_the_network(wayback, tmp_path, mode):
    serve(wayback, load_catalogue())
    result = CliRunner().invoke(
        main,
        [
            "crawl",
            mode,
            "--quiet",
            "--wayback",
            wayback.url,
            "--captures",
            str(tmp_path / "c"),
            "--release",
            "2002-10-07",
            "--source",
            "crystalkeep-504-2008",
        ],
    )
    assert result.exit_code == 0, result.output
    assert wayback.log == []
    assert not (tmp_path / "c").exists()
    if mode == "--dry-run":
        assert "would request: cr-2002-10-07: CDX http://www.wizards.com/" in result.output
    else:
        assert "skipped 1: offline: not captured yet" in result.output
    assert "skipped 1: no URL in the catalogue" in result.output


def test_an_unknown_source_is_one_clear_error(tmp_path):
    result = CliRunner().invoke(main, ["crawl", "--offline", "--source", "no-such-page"])
    assert result.exit_code == 1
    assert "not in the catalogue: no-such-page" in result.output


KILLED_RELEASES = WITNESSED_RELEASES


def crawl_process(wayback: FakeWayback, captures: Path) -> subprocess.Popen[bytes]:
    releases = [arg for r in KILLED_RELEASES for arg in ("--release", r)]
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rules_history",
            "crawl",
            "--quiet",
            "--wayback",
            wayback.url,
            "--captures",
            str(captures),
            *FAST_OPTIONS,
            *releases,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_a_crawl_killed_midway_resumes_with_every_capture_once(wayback, tmp_path):
    sources = select(load_catalogue(), releases=KILLED_RELEASES)
    serve(wayback, sources)
    wayback.fetch_delay = 0.3
    captures = tmp_path / "captures"
    process = crawl_process(wayback, captures)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        index = captures / "index.json"
        if index.exists() and len(json.loads(index.read_bytes())) >= 3:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    interrupted = len(CaptureStore(captures).records)
    assert 3 <= interrupted < len(KILLED_RELEASES), "the crawl was not stopped midway"

    wayback.fetch_delay = 0
    rerun = crawl_process(wayback, captures)
    out, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err.decode()
    assert f"fetched {len(KILLED_RELEASES) - interrupted}, skipped {interrupted}" in out.decode()

    store = CaptureStore(captures)
    assert sorted(r.source for r in store.records) == sorted(s.id for s in sources)
    assert store.verify() == []
    assert not list(captures.rglob(f"{TEMP_PREFIX}*"))
    objects = [p for p in (captures / "objects").rglob("*") if p.is_file()]
    assert len(objects) == len(KILLED_RELEASES)
    manifest = json.loads((captures / "manifest.json").read_bytes())
    assert sorted(e["date"] for e in manifest) == sorted(KILLED_RELEASES)
    fetches = Counter(path for _t, path, _ua in wayback.log if path.startswith("/web/"))
    assert sum(count - 1 for count in fetches.values()) <= 1  # only the one cut off by the kill


def release_rows(db: Database) -> list[tuple]:
    return db.execute(
        "SELECT date, stated_date, name, clauses, rules, glossary_entries"
        " FROM releases ORDER BY date"
    ).fetchall()


def raw_hashes(db: Database) -> dict[str, list[str]]:
    hashes: dict[str, list[str]] = {}
    for release, raw in db.execute(
        "SELECT releases.date, parts.raw_hash FROM releases JOIN parts"
        " ON parts.capture_id = releases.capture_id ORDER BY releases.date, parts.position"
    ):
        hashes.setdefault(release, []).append(raw)
    return hashes


def test_crawling_the_whole_catalogue_then_ingest_gives_the_committed_archive(
    wayback, tmp_path, full_store
):
    catalogue = load_catalogue()
    serve(wayback, catalogue)
    captures, db_file = tmp_path / "captures", tmp_path / "crawled.db"
    runner = CliRunner()
    crawled = runner.invoke(
        main,
        [
            "crawl",
            "--quiet",
            "--json",
            "--wayback",
            wayback.url,
            "--captures",
            str(captures),
            *FAST_OPTIONS,
        ],
    )
    # the releases not served: not archived, the only failures, with a status of their own
    assert crawled.exit_code == NOT_ARCHIVED_STATUS, crawled.output
    summary = json.loads(crawled.stdout)
    assert len(summary["fetched"]) == len(PREFERRED) + len(WITNESS_PAGES)
    assert {f["reason"] for f in summary["failed"]} == {"not archived"}

    # The stages that read the captures (releases, witnesses): the rest of the pipeline
    # derives its answers from what these store, so the comparison stops here.
    db = open_store(db_file)
    assert not ingest_captures(db, captures).failed
    ingest_witnesses(db, captures)
    assert release_rows(db) == release_rows(full_store)
    assert raw_hashes(db) == raw_hashes(full_store)
    witnessed = dict(
        db.execute("SELECT source, count(*) FROM witnesses GROUP BY source").fetchall()
    )
    assert witnessed == {"wizards-morph-2002": 14, "mtgwiki-face-down-2020": 16}
    assert os.path.getsize(db_file) > 0

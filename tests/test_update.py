"""`rules-history update` against a stand-in of the official site on 127.0.0.1 (issue 13).

The store is small: two committed releases (2001-07-23, 2001-09-24) copied with their
manifest entries. The "new" releases are the committed 2002-02-20 text with the date it
states changed, so the project's parser reads them as it reads any release.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from official_server import OfficialSite
from sqlite_utils import Database
from wayback_server import FakeWayback, Fault

from archive.manifest import CAPTURES_DIR
from rules_history.cli import main

BASE_RELEASES = ("2001-07-23", "2001-09-24")
SOURCE_RELEASE = "2002-02-20"
FAST = ["--rate", "0", "--fetch-rate", "0", "--backoff", "0.01", "--retries", "1"]
FAST += ["--timeout", "5", "--deadline", "10"]


def release_text(stated: str, fix: bytes = b"") -> bytes:
    """The committed 2002-02-20 text stating `stated` ("March 14, 2002") instead; `fix`
    appended to the first rule line makes a re-upload with different bytes."""
    data = (CAPTURES_DIR / "cr" / f"{SOURCE_RELEASE}.txt").read_bytes()
    data = data.replace(b"current as of February 20, 2002", b"current as of " + stated.encode())
    if fix:
        data = data.replace(b"100.1. ", b"100.1. " + fix, 1)
    return data


@pytest.fixture
def captures(tmp_path: Path) -> Path:
    folder = tmp_path / "captures"
    (folder / "cr").mkdir(parents=True)
    manifest = json.loads((CAPTURES_DIR / "manifest.json").read_bytes())
    entries = [e for e in manifest if e["date"] in BASE_RELEASES]
    for entry in entries:
        shutil.copyfile(CAPTURES_DIR / entry["file"], folder / entry["file"])
    text = json.dumps(entries, indent=2, ensure_ascii=False) + "\n"
    (folder / "manifest.json").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def site() -> Iterator[OfficialSite]:
    with OfficialSite() as server:
        yield server


def update(site: OfficialSite, captures: Path, *extra: str, wayback: str = "") -> tuple[int, str]:
    tmp = captures.parent
    arguments = ["update", "--rules-page", site.page_url, "--captures", str(captures)]
    arguments += ["--db", str(tmp / "rules.db"), "--out", str(tmp / "site"), "--no-search"]
    arguments += ["--wayback", wayback or "http://127.0.0.1:9"]  # port 9: nothing listens
    result = CliRunner().invoke(main, [*arguments, *FAST, *extra])
    return result.exit_code, result.output


def manifest(captures: Path) -> list[dict]:
    return json.loads((captures / "manifest.json").read_bytes())


def releases(captures: Path) -> list[tuple]:
    db = Database(captures.parent / "rules.db")
    return db.execute("SELECT date, stated_date FROM releases ORDER BY date").fetchall()


def test_a_new_release_is_found_archived_ingested_and_built_and_a_rerun_does_nothing(
    site, captures
):
    before = (captures / "manifest.json").read_bytes()
    data = release_text("March 14, 2002")
    url = site.publish("MagicCompRules 20020314.txt", data)
    code, output = update(site, captures)
    assert code == 0, output
    assert "added cr/2002-03-14.txt: new release 2002-03-14" in output
    assert "warning" not in output  # the page's javascript: link is never followed
    assert not any("20990101" in path for path in site.log)
    assert (captures / "cr" / "2002-03-14.txt").read_bytes() == data
    after = (captures / "manifest.json").read_bytes()
    assert after.startswith(before[: before.rindex(b"}") + 1])  # extended, not rewritten
    entry = manifest(captures)[-1]
    assert entry["date"] == entry["stated_date"] == "2002-03-14"
    assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    assert entry["original_url"] == url.replace(" ", "%20")
    assert entry["found_on"] == site.page_url and entry["preferred"] is True
    assert entry["fetched_at"].endswith("Z")
    assert [r[0] for r in releases(captures)] == [*BASE_RELEASES, "2002-03-14"]
    assert (captures.parent / "site" / "releases" / "2002-03-14" / "index.html").exists()
    assert "2002-03-14" in (captures.parent / "site" / "releases" / "index.html").read_text()

    site.log.clear()
    code, output = update(site, captures)
    assert code == 0, output
    assert "up to date:" in output and "is release 2002-03-14 (cr/2002-03-14.txt)" in output
    assert (captures / "manifest.json").read_bytes() == after
    assert "ingested" not in output and "site:" not in output


def test_a_newer_release_then_a_reupload_of_it(site, captures):
    site.publish("MagicCompRules 20020314.txt", release_text("March 14, 2002"))
    assert update(site, captures, "--no-site")[0] == 0
    newer = release_text("May 1, 2002")
    site.publish("MagicCompRules 20020501.txt", newer)
    code, output = update(site, captures)
    assert code == 0, output
    assert "new release 2002-05-01" in output
    assert "site:" in output and "pages rendered" in output

    # the same release uploaded again with one fix, under another file name
    reupload = release_text("May 1, 2002", fix=b"(corrected) ")
    site.publish("MagicCompRules 20020503.txt", reupload)
    code, output = update(site, captures)
    assert code == 0, output
    assert "new capture 2002-05-01" in output
    entry = manifest(captures)[-1]
    assert entry["date"] == "2002-05-01" and entry["role"] == "alt"
    assert entry["preferred"] is False
    assert entry["file"].startswith("cr/2002-05-01.upload-")
    assert (captures / entry["file"]).read_bytes() == reupload
    assert (captures / "cr" / "2002-05-01.txt").read_bytes() == newer  # never overwritten
    assert [r[0] for r in releases(captures)] == [*BASE_RELEASES, "2002-03-14", "2002-05-01"]
    db = Database(captures.parent / "rules.db")
    files = db.execute(
        "SELECT file, preferred FROM captures WHERE release_date = '2002-05-01' ORDER BY file"
    ).fetchall()
    assert files == [("cr/2002-05-01.txt", 1), (entry["file"], 0)]


def test_dry_run_says_what_it_would_do_and_writes_nothing(site, captures):
    before = (captures / "manifest.json").read_bytes()
    site.publish("MagicCompRules 20020314.txt", release_text("March 14, 2002"))
    code, output = update(site, captures, "--dry-run")
    assert code == 0, output
    assert "would add cr/2002-03-14.txt: new release 2002-03-14" in output
    assert (captures / "manifest.json").read_bytes() == before
    assert not (captures / "cr" / "2002-03-14.txt").exists()
    assert not (captures.parent / "rules.db").exists()
    assert not (captures.parent / "site").exists()


@pytest.mark.parametrize(
    ("body", "content_type", "reason"),
    [
        (b"<!DOCTYPE html><html><body>Sign in</body></html>", "text/plain", "HTML page"),
        (release_text("March 14, 2002")[:60000], "text/plain", "never reach the glossary"),
        (release_text("March 14, 2002"), "application/octet-stream", "not text/plain"),
        (
            release_text("March 14, 2002").replace(b"These rules are current as of", b"Rules"),
            "text/plain",
            "states no date",
        ),
    ],
)
def test_a_text_that_is_not_a_dated_cr_is_never_added(site, captures, body, content_type, reason):
    before = (captures / "manifest.json").read_bytes()
    site.publish("MagicCompRules 20020314.txt", body, content_type)
    code, output = update(site, captures)
    assert code == 1
    assert reason in output
    assert (captures / "manifest.json").read_bytes() == before
    assert sorted(p.name for p in (captures / "cr").iterdir()) == [
        f"{d}.txt" for d in BASE_RELEASES
    ]


def test_the_wayback_machine_is_the_fallback_when_the_site_is_down(site, captures):
    data = release_text("March 14, 2002")
    file_url = site.publish("MagicCompRules 20020314.txt", data).replace(" ", "%20")
    with FakeWayback() as wayback:
        wayback.add(site.page_url, site.page_html(), "20020315000000", "text/html")
        wayback.add(file_url, data, "20020315000100")
        site.down = True
        code, output = update(site, captures, "--no-site", wayback=wayback.url)
    assert code == 0, output
    assert "new release 2002-03-14" in output
    entry = manifest(captures)[-1]
    assert entry["found_via"] == "wayback"
    assert entry["fetched_from"].startswith(wayback.url) and "id_/" in entry["fetched_from"]
    assert entry["capture_time"] == "2002-03-15T00:01:00Z"
    assert entry["original_url"] == file_url
    assert "warning:" in output and "HTTP 503" in output


def test_nothing_found_anywhere_is_one_line_and_exit_1(site, captures):
    with FakeWayback() as wayback:
        wayback.fail(f"cdx:{site.page_url}", Fault("garbage"))
        code, output = update(site, captures, wayback=wayback.url)
    assert code == 1
    assert "error: no CR text found" in output
    assert "malformed" in output.lower() or "not JSON" in output


@pytest.mark.parametrize("damage", ["layout", "crawler-index"])
def test_a_manifest_that_cannot_be_extended_byte_for_byte_is_left_alone(site, captures, damage):
    path = captures / "manifest.json"
    if damage == "layout":
        path.write_text(json.dumps(manifest(captures), indent=4), encoding="utf-8")
    else:
        (captures / "index.json").write_text("[]", encoding="utf-8")
    before = path.read_bytes()
    site.publish("MagicCompRules 20020314.txt", release_text("March 14, 2002"))
    code, output = update(site, captures)
    assert code == 1
    assert "not rewritten" in output or "give update an archive folder" in output
    assert path.read_bytes() == before
    assert not (captures / "cr" / "2002-03-14.txt").exists()


def test_a_text_that_is_not_the_utf8_it_declares_is_never_added(site, captures):
    before = (captures / "manifest.json").read_bytes()
    data = release_text("March 14, 2002")
    damaged = data[:5000] + b"\xff\xfe\xc3\x28" + data[5000:]
    site.publish("MagicCompRules 20020314.txt", damaged, "text/plain; charset=utf-8")
    code, output = update(site, captures)
    assert code == 1
    assert "declared charset=utf-8, but byte 5,000 (0xFF) is not utf-8" in output
    assert "MagicCompRules%2020020314.txt" in output
    assert (captures / "manifest.json").read_bytes() == before
    assert not (captures / "cr" / "2002-03-14.txt").exists()


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_an_update_option_that_is_not_finite_is_refused(site, captures, value):
    code, output = update(site, captures, "--deadline", value)
    assert code == 2 and "Invalid value for '--deadline'" in output
    assert site.log == []

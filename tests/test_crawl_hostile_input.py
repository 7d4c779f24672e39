"""`crawl` (and `update`'s shared options) against hostile input, on real servers on 127.0.0.1.

Each test reproduces one finding of the hostile-input audit: options that are not finite
numbers (B5), a catalogue that never ends (B6), a body contradicting its declared charset
(A6), a body of another release (A7), "not archived" exiting 0 (C12), and messages naming
connection pools or exception classes (C11).
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from click.testing import CliRunner
from loopback_server import LoopbackServer
from wayback_server import FakeWayback, Fault

from archive.ingest import stated_iso
from archive.manifest import CAPTURES_DIR, load_manifest
from crawler.capture_store import CaptureStore
from crawler.catalogue import Source, load_catalogue, select
from crawler.cr_text import parse_cr_text
from crawler.crawl import crawl, release_dates, wrong_release
from crawler.wayback import Policy, WaybackSession
from rules_history.cli import main
from rules_history.crawl_cli import NOT_ARCHIVED_STATUS

MANIFEST = json.loads((CAPTURES_DIR / "manifest.json").read_bytes())
PREFERRED = {e["date"]: e for e in MANIFEST if e["preferred"]}
FAST_OPTIONS = ["--rate", "0", "--fetch-rate", "0", "--backoff", "0.01", "--retries", "1"]
FAST = Policy(timeout=0.5, deadline=5, cdx_per_minute=0, fetch_per_minute=0, retries=1)
RELEASE = "2008-02-01"
SECONDS = ("--timeout", "--deadline", "--backoff")
RATES = ("--rate", "--fetch-rate")


def committed(release: str) -> bytes:
    return (CAPTURES_DIR / PREFERRED[release]["file"]).read_bytes()


def url_of(release: str) -> str:
    (source,) = select(load_catalogue(), releases=[release])
    return source.urls[0]


@pytest.fixture
def wayback() -> Iterator[FakeWayback]:
    with FakeWayback() as server:
        yield server


def run_crawl(server_url: str, captures: Path, *extra: str) -> tuple[int, str]:
    arguments = ["crawl", "--quiet", "--wayback", server_url, "--captures", str(captures)]
    result = CliRunner().invoke(main, [*arguments, *FAST_OPTIONS, *extra])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


# -- B5: every float option refuses nan and inf by name -------------------------------------


@pytest.mark.parametrize("command", ["crawl", "update"])
@pytest.mark.parametrize(
    ("option", "value"),
    [
        *[(name, v) for name in SECONDS for v in ("nan", "inf", "-inf", "1e10")],
        *[(name, v) for name in RATES for v in ("nan", "inf", "-inf")],
    ],
)
def test_a_float_option_that_is_not_finite_is_refused_by_name(
    wayback, tmp_path, command, option, value
):
    captures = tmp_path / "c"
    arguments = [command, "--dry-run", "--wayback", wayback.url, "--captures", str(captures)]
    if command == "update":
        arguments += ["--rules-page", f"{wayback.url}/en/rules", "--db", str(tmp_path / "db")]
    result = CliRunner().invoke(main, [*arguments, option, value])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output
    assert isinstance(result.exception, SystemExit)  # click's usage error, not a traceback
    assert wayback.log == [] and not captures.exists()


def test_a_rate_too_small_to_wait_for_is_refused(wayback, tmp_path):
    code, output = run_crawl(wayback.url, tmp_path / "c", "--release", RELEASE, "--rate", "1e-300")
    assert code == 2 and "neither 0 (no limit) nor at least" in output


def test_a_policy_that_is_not_finite_is_refused_when_made():
    for name in ("timeout", "deadline", "backoff", "cdx_per_minute"):
        with pytest.raises(ValueError, match=f"{name} must be a finite number"):
            Policy(**{name: float("nan")})


# -- B6: a catalogue that is a device or a FIFO ---------------------------------------------


def test_a_catalogue_that_is_a_device_is_one_line(tmp_path):
    code, output = run_crawl("http://127.0.0.1:9", tmp_path / "c", "--catalogue", "/dev/zero")
    assert code == 1
    assert output.strip() == (
        "error: /dev/zero: catalogue is not a regular file (a FIFO, socket or device)"
    )


def test_a_catalogue_that_is_a_fifo_never_blocks(tmp_path):
    fifo = tmp_path / "catalogue.jsonl"
    os.mkfifo(fifo)
    code, output = run_crawl("http://127.0.0.1:9", tmp_path / "c", "--catalogue", str(fifo))
    assert code == 1 and f"{fifo}: catalogue is not a regular file" in output


def test_a_catalogue_over_the_cap_is_refused_unread(tmp_path, monkeypatch):
    big = tmp_path / "catalogue.jsonl"
    with open(big, "wb") as out:
        out.truncate(6_000_000)  # sparse: over the cap without writing it
    code, output = run_crawl("http://127.0.0.1:9", tmp_path / "c", "--catalogue", str(big))
    assert code == 1 and "over the limit" in output and str(big) in output


# -- A6: a body that contradicts the charset it declares ------------------------------------


def test_a_body_that_is_not_the_utf8_it_declares_is_a_bad_capture(wayback, tmp_path):
    text = committed(RELEASE)
    damaged = text[: len(text) // 2] + b"\xff\xfe\xc3\x28" + text[len(text) // 2 :]
    wayback.add(url_of(RELEASE), damaged, "20080201000000", "text/plain; charset=utf-8")
    captures = tmp_path / "c"
    code, output = run_crawl(wayback.url, captures, "--release", RELEASE)
    assert code == 1, output
    assert "failed: cr-2008-02-01: bad capture:" in output
    assert "declared charset=utf-8, but byte" in output and url_of(RELEASE) in output
    assert CaptureStore(captures).records == []


@pytest.mark.parametrize(
    ("release", "content_type"),
    [
        ("2015-01-23", "text/plain; charset=iso-8859-1"),  # cp1252 bytes under a latin-1 label
        ("2004-02-01", "text/plain; charset=windows-1252"),  # Mac Roman under an 8-bit label
        ("2014-05-01", "text/plain; charset=utf-8"),  # the GitHub copies: UTF-8, labelled so
        ("2002-10-07", "text/plain; charset=x-unknown"),
    ],
)
def test_an_8_bit_or_true_label_keeps_a_real_capture(wayback, tmp_path, release, content_type):
    wayback.add(
        url_of(release), committed(release), release.replace("-", "") + "000000", content_type
    )
    captures = tmp_path / "c"
    code, output = run_crawl(wayback.url, captures, "--release", release)
    assert code == 0, output
    (record,) = CaptureStore(captures).records
    assert CaptureStore(captures).read(record) == committed(release)
    assert record.encoding == PREFERRED[release]["encoding"]


# -- A7: a body of another release -----------------------------------------------------------


def test_another_releases_text_is_refused_naming_the_url_and_both_dates(wayback, tmp_path):
    asked = "2009-07-08"
    wayback.add(url_of(asked), committed(RELEASE), "20090708000000")
    captures = tmp_path / "c"
    code, output = run_crawl(wayback.url, captures, "--release", asked)
    assert code == 1, output
    assert "failed: cr-2009-07-08: bad capture:" in output
    assert "states 2008-02-01" in output and "not of 2009-07-08" in output
    assert url_of(asked) in output
    assert CaptureStore(captures).records == []


def test_every_archived_text_is_its_own_release_within_the_tolerance():
    dates = release_dates(load_catalogue())
    sources = {s.release: s for s in load_catalogue() if s.kind == "cr"}
    for entry in MANIFEST:
        parsed = parse_cr_text((CAPTURES_DIR / entry["file"]).read_bytes(), entry["file"])
        stated = stated_iso(parsed.stated_date_text)
        assert wrong_release(sources[entry["date"]], stated, dates) is None, entry["file"]


def test_a_neighbouring_releases_date_is_refused_inside_the_tolerance():
    # 2021-02-24 states February 15: 13 days from 2021-02-02, inside the tolerance
    sources = {s.release: s for s in load_catalogue() if s.kind == "cr"}
    problem = wrong_release(sources["2021-02-02"], "2021-02-15", release_dates(load_catalogue()))
    assert problem is not None and "the date of release 2021-02-24" in problem


def test_bytes_of_another_release_are_never_listed_twice(wayback, tmp_path):
    first = Source("cr-a", "cr", ("http://www.wizards.com/a.txt",), release=RELEASE)
    # a release the catalogue does not date: the text's own date is within the tolerance
    second = Source("cr-b", "cr", ("http://www.wizards.com/b.txt",), release="2008-02-10")
    wayback.add(first.urls[0], committed(RELEASE), "20080201000000")
    wayback.add(second.urls[0], committed(RELEASE), "20080210000000")
    store = CaptureStore(tmp_path)
    with WaybackSession(wayback.url, FAST) as session:
        crawl([first], store, session)
        report = crawl([second], store, session)
    ((source, reason, detail),) = report.failed
    assert (source, reason) == ("cr-b", "bad capture")
    assert "the same bytes as release 2008-02-01" in detail
    assert [e.date for e in load_manifest(tmp_path)] == [RELEASE]


@pytest.mark.parametrize("recorded", [(RELEASE, "2009-07-08"), ("2009-07-08", RELEASE)])
def test_an_object_recorded_as_two_releases_is_listed_as_the_one_its_text_states(
    tmp_path, recorded
):
    """A crawl before the stated-date check could record one release's text as another; the
    manifest listed it under whichever came first, even the wrong one."""
    store = CaptureStore(tmp_path)
    for release in recorded:
        store.add(committed(RELEASE), source=f"cr-{release}", kind="cr", url="u", release=release)
    assert len(store.records) == 2
    assert [(e.date, e.file) for e in load_manifest(tmp_path)] == [(RELEASE, store.records[0].file)]
    assert store.unplaced() == []


def test_an_object_recorded_as_two_releases_it_is_not_is_listed_as_neither(tmp_path):
    store = CaptureStore(tmp_path)
    for release in ("2009-05-01", "2009-07-08"):
        store.add(committed(RELEASE), source=f"cr-{release}", kind="cr", url="u", release=release)
    store.add(committed("2009-07-08"), source="cr-b", kind="cr", url="v", release="2009-07-08")
    assert [e.date for e in load_manifest(tmp_path)] == ["2009-07-08"]
    (line,) = store.unplaced()
    assert "2009-05-01, 2009-07-08" in line and f"states {RELEASE}" in line


# -- C12: a failed fetch is no success, as the help says ------------------------------------
# ("not archived" exited 0 while other failures exited 1; some of the catalogue's sources
# were never archived, so a crawl whose only failures are those has a status of its own)


def test_a_source_not_archived_is_no_success(wayback, tmp_path):
    code, output = run_crawl(wayback.url, tmp_path / "c", "--release", RELEASE)
    assert code == NOT_ARCHIVED_STATUS, output
    assert "fetched 0, skipped 0, failed 1" in output
    assert "failed: cr-2008-02-01: not archived:" in output


def test_the_help_states_the_exit_status():
    text = " ".join(CliRunner().invoke(main, ["crawl", "--help"]).output.split())
    assert "Exit status 0" in text and "3 when the only failures are sources" in text
    assert "1 when any other failed" in text


# -- C11: plain messages ---------------------------------------------------------------------


class _Misbehaving(BaseHTTPRequestHandler):
    """A Wayback whose CDX lists one capture, and whose playback does what `mode` says."""

    protocol_version = "HTTP/1.1"
    mode = "close"

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/cdx/"):
            row = ["k", "20080201000000", url_of(RELEASE), "text/plain", "200", "d", "1"]
            header = ["urlkey", "timestamp", "original", "mimetype", "statuscode", "digest"]
            body = json.dumps([[*header, "length"], row]).encode()
            self._head(len(body), "application/json")
            self.wfile.write(body)
        elif self.mode == "short":
            self._head(10_000, "text/plain")
            self.wfile.write(b"x" * 100)
            self.wfile.flush()
            self._hang_up()
        else:
            self._hang_up()

    def _head(self, length: int, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(length))
        self.end_headers()

    def _hang_up(self) -> None:
        """Close the connection for real (not only this handler's socket object)."""
        self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("close", "the server closed the connection without answering"),
        ("short", "the connection was closed before the body was whole"),
    ],
)
def test_a_cut_connection_is_said_in_plain_words(tmp_path, mode, message):
    handler = type("Handler", (_Misbehaving,), {"mode": mode})
    with LoopbackServer(handler) as server:
        code, output = run_crawl(server.url, tmp_path / "c", "--release", RELEASE)
    assert code == 1
    assert f"no answer after 2 tries: {message}" in output
    assert "Pool" not in output and "timed out" not in output


def test_a_timeout_says_how_long_it_waited(wayback, tmp_path):
    wayback.add(url_of(RELEASE), committed(RELEASE), "20080201000000")
    wayback.fail(f"fetch:{url_of(RELEASE)}", *[Fault("timeout", seconds=2)] * 2)
    code, output = run_crawl(wayback.url, tmp_path / "c", "--release", RELEASE, "--timeout", "0.3")
    assert code == 1
    assert "the server sent nothing for 0.3 s (the read timeout)" in output
    assert "Pool" not in output


def test_a_refused_connection_is_said_in_plain_words(tmp_path):
    with socket.socket() as unused:  # a port nothing listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    code, output = run_crawl(f"http://127.0.0.1:{port}", tmp_path / "c", "--release", RELEASE)
    assert code == 1 and "the connection was refused" in output


def test_a_cdx_answer_of_binary_garbage_names_no_exception_class(wayback, tmp_path):
    wayback.fail(f"cdx:{url_of(RELEASE)}", Fault("garbage"))
    code, output = run_crawl(wayback.url, tmp_path / "c", "--release", RELEASE)
    assert code == 1
    assert "CDX answer is not JSON" in output
    assert "Error" not in output.replace("error:", "")

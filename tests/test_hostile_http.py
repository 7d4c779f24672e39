"""The crawler's one HTTP policy against a hostile stand-in Wayback on 127.0.0.1 (issue 12).

Each test reproduces one probe of the issue: a body cut without Content-Length and an HTML
page served as text/plain (5), a redirect to another host (7), a slow drip (9), a CDX
answer repeating its resume key (10), a gzip bomb (11), CDX answers of binary garbage and
of rows of numbers (17), and `crawl --timeout 0` / `--retries -1` (18). Every bad body is
refused before anything is stored, so a rerun fetches the source again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from wayback_server import FakeWayback, Fault

from archive.manifest import CAPTURES_DIR
from crawler.capture_store import CaptureStore
from crawler.catalogue import load_catalogue, select
from crawler.crawl import crawl
from crawler.wayback import (
    BadCapture,
    MalformedCdx,
    Policy,
    Unavailable,
    WaybackSession,
)
from rules_history.cli import main

URL = "http://www.wizards.com/magic/comprules/MagicCompRules_20100201.txt"
STAMP = "20100223045825"
# Small limits so that every hostile case ends in well under a second or two.
DEADLINE = 1.0
CAP = 1024 * 1024
FAST = Policy(
    timeout=0.5,
    deadline=DEADLINE,
    max_bytes=CAP,
    cdx_per_minute=0,
    fetch_per_minute=0,
    retries=1,
    backoff=0.01,
)
RELEASE = "2008-02-01"
FAST_OPTIONS = ["--rate", "0", "--fetch-rate", "0", "--backoff", "0.01", "--retries", "1"]


def committed_release(date: str) -> bytes:
    manifest = json.loads((CAPTURES_DIR / "manifest.json").read_bytes())
    entry = next(e for e in manifest if e["date"] == date and e["preferred"])
    return (CAPTURES_DIR / entry["file"]).read_bytes()


@pytest.fixture
def wayback() -> Iterator[FakeWayback]:
    with FakeWayback() as server:
        yield server


@pytest.fixture
def session(wayback: FakeWayback) -> Iterator[WaybackSession]:
    with WaybackSession(wayback.url, FAST) as client:
        yield client


# -- 5: a cut body without Content-Length, an HTML page served as text/plain --------------


def serve_release(wayback: FakeWayback) -> str:
    """The committed 2008-02-01 text at its catalogue URL; returns the URL."""
    (source,) = select(load_catalogue(), releases=[RELEASE])
    wayback.add(source.urls[0], committed_release(RELEASE), "20080201000000")
    return source.urls[0]


def crawl_release(wayback: FakeWayback, captures: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        main,
        [
            "crawl",
            "--quiet",
            "--wayback",
            wayback.url,
            "--captures",
            str(captures),
            "--release",
            RELEASE,
            *FAST_OPTIONS,
        ],
    )
    return result.exit_code, result.output


@pytest.mark.parametrize("fault", ["cut", "html-as-text"])
def test_a_cut_or_html_body_is_never_stored_and_a_rerun_fetches_it(wayback, tmp_path, fault):
    url = serve_release(wayback)
    wayback.fail(f"fetch:{url}", Fault(fault))
    captures = tmp_path / "captures"
    code, output = crawl_release(wayback, captures)
    assert code == 1, output
    assert "failed: cr-2008-02-01: bad capture" in output
    expected = "never reach the glossary" if fault == "cut" else "HTML page served as text/plain"
    assert expected in output
    assert CaptureStore(captures).records == []
    assert not (captures / "objects").exists()

    code, output = crawl_release(wayback, captures)  # the server behaves now
    assert code == 0, output
    assert "fetched 1, skipped 0, failed 0" in output
    (record,) = CaptureStore(captures).records
    assert CaptureStore(captures).read(record) == committed_release(RELEASE)


def test_a_cut_without_content_length_is_refused_by_the_cr_check(wayback, session):
    from crawler.cr_text import check_cr_text

    url = serve_release(wayback)
    wayback.fail(f"fetch:{url}", Fault("cut"))
    with pytest.raises(BadCapture, match="never reach the glossary"):
        session.fetch(url, "20080201000000", expect_type="text/plain", check=check_cr_text)


# -- 7: redirects to another host -------------------------------------------------------


def test_a_redirect_to_another_host_is_not_followed(wayback, session):
    wayback.add(URL, b"the real text", STAMP)
    with FakeWayback() as elsewhere:
        elsewhere.add(URL, b"an attacker's text", STAMP)
        location = f"{elsewhere.url}/web/{STAMP}id_/{URL}"
        wayback.fail(f"fetch:{URL}", Fault("redirect", location=location))
        with pytest.raises(BadCapture, match="redirected to another host"):
            session.fetch(URL, STAMP)
        assert elsewhere.log == []  # not even a request reached the other host


def test_a_redirect_on_the_same_host_is_followed(wayback, session):
    wayback.add(URL, b"the real text", STAMP)
    wayback.fail(f"fetch:{URL}", Fault("redirect", location=f"/web/{STAMP}id_/{URL}"))
    assert session.fetch(URL, STAMP).data == b"the real text"


def test_a_redirect_to_another_host_fails_the_crawl_and_stores_nothing(wayback, tmp_path):
    url = serve_release(wayback)
    with FakeWayback() as elsewhere:
        elsewhere.add(url, committed_release("2002-10-07"), "20080201000000")
        location = f"{elsewhere.url}/web/20080201000000id_/{url}"
        wayback.fail(f"fetch:{url}", Fault("redirect", location=location))
        code, output = crawl_release(wayback, tmp_path / "captures")
    assert code == 1 and "redirected to another host" in output
    assert CaptureStore(tmp_path / "captures").records == []


# -- 9: a slow drip ---------------------------------------------------------------------


def test_a_slow_drip_is_cut_at_the_overall_deadline(wayback, session):
    body = b"x" * 40  # one byte every 0.1 s: 4 s in all, each read well inside its timeout
    wayback.add(URL, body, STAMP)
    wayback.fail(f"fetch:{URL}", *[Fault("drip", seconds=0.1)] * 2)
    started = time.monotonic()
    with pytest.raises(Unavailable, match="deadline of 1 s"):
        session.fetch(URL, STAMP)
    elapsed = time.monotonic() - started
    assert elapsed < (FAST.retries + 1) * DEADLINE + 1.0  # two tries of 1 s, not 2 x 4 s


def test_a_drip_then_a_good_answer_is_retried_and_returned(wayback, session):
    wayback.add(URL, b"y" * 40, STAMP)
    wayback.fail(f"fetch:{URL}", Fault("drip", seconds=0.1))
    assert session.fetch(URL, STAMP).data == b"y" * 40
    assert len(wayback.requests_to("/web/")) == 2


def test_the_crawl_deadline_option_cuts_a_drip(wayback, tmp_path):
    url = serve_release(wayback)
    # 40 bytes at 0.05 s, then the rest: 2 s in all, never 0.5 s without a byte
    wayback.fail(f"fetch:{url}", *[Fault("drip", seconds=0.05, size=40)] * 2)
    started = time.monotonic()
    result = CliRunner().invoke(
        main,
        [
            "crawl",
            "--quiet",
            "--wayback",
            wayback.url,
            "--captures",
            str(tmp_path / "c"),
            "--release",
            RELEASE,
            "--deadline",
            "0.5",
            *FAST_OPTIONS,
        ],
    )
    assert time.monotonic() - started < 5
    assert result.exit_code == 1
    assert "failed: cr-2008-02-01: unavailable" in result.output
    assert "deadline of 0.5 s" in result.output
    assert CaptureStore(tmp_path / "c").records == []


# -- 10: a CDX answer that repeats its resume key ------------------------------------------


def test_a_repeated_resume_key_ends_the_search(wayback, session):
    wayback.fail(f"cdx:{URL}", *[Fault("resume-loop")] * 20)
    with pytest.raises(MalformedCdx, match="resume key 'same-key' repeats"):
        list(session.search(URL))
    assert len(wayback.requests_to("/cdx/")) == 2


# -- 11: a gzip bomb --------------------------------------------------------------------


def test_a_gzip_bomb_is_refused_at_the_cap(wayback, session):
    wayback.add(URL, b"text", STAMP)
    wayback.fail(f"fetch:{URL}", Fault("bomb", size=64 * CAP))  # 64 KiB inflating to 64 MiB
    with pytest.raises(BadCapture, match=f"inflates to more than {CAP} bytes"):
        session.fetch(URL, STAMP)
    assert len(wayback.requests_to("/web/")) == 1  # refused, not retried


def test_a_small_gzipped_body_is_decoded(wayback, session):
    wayback.add(URL, b"text", STAMP)
    wayback.fail(f"fetch:{URL}", Fault("bomb", size=1000))
    assert session.fetch(URL, STAMP).data == bytes(1000)


def test_a_body_over_the_cap_is_refused_before_decompression(wayback, session):
    wayback.add(URL, b"z" * (CAP + 1), STAMP)
    with pytest.raises(BadCapture, match="over the cap"):
        session.fetch(URL, STAMP)


# -- 17: CDX answers of binary garbage and rows of numbers ---------------------------------


@pytest.mark.parametrize(
    ("fault", "message"),
    [("garbage", "not JSON"), ("numbers", "row 2 holds a field that is not text")],
)
def test_a_garbage_cdx_answer_is_malformed_cdx(wayback, session, fault, message):
    wayback.fail(f"cdx:{URL}", Fault(fault))
    with pytest.raises(MalformedCdx, match=message):
        list(session.search(URL))


@pytest.mark.parametrize("fault", ["garbage", "numbers", "resume-loop"])
def test_a_bad_cdx_answer_is_one_line_in_the_crawl(wayback, tmp_path, fault):
    sources = select(load_catalogue(), releases=[RELEASE])
    wayback.fail(f"cdx:{sources[0].urls[0]}", *[Fault(fault)] * 20)
    store = CaptureStore(tmp_path)
    with WaybackSession(wayback.url, FAST) as client:
        report = crawl(sources, store, client)
    assert [(s, reason) for s, reason, _d in report.failed] == [
        ("cr-2008-02-01", "malformed CDX answer")
    ]
    assert store.records == []


# -- 18: options out of range ------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--timeout", "0"),
        ("--retries", "-1"),
        ("--deadline", "0"),
        ("--rate", "-1"),
        ("--max-bytes", "0"),
    ],
)
def test_an_option_out_of_range_is_one_clear_line(wayback, tmp_path, option, value):
    serve_release(wayback)
    captures = tmp_path / "c"
    arguments = ["--quiet", "--wayback", wayback.url, "--captures", str(captures)]
    result = CliRunner().invoke(main, ["crawl", *arguments, "--release", RELEASE, option, value])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output
    assert isinstance(result.exception, SystemExit)  # click's usage error, not a traceback
    assert wayback.log == [] and not captures.exists()


def test_a_policy_out_of_range_is_refused_when_made():
    with pytest.raises(ValueError, match="retries"):
        Policy(retries=-1)
    with pytest.raises(ValueError, match="timeout"):
        Policy(timeout=0)

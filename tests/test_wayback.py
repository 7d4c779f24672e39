"""The Wayback client against a real HTTP server on 127.0.0.1: CDX, id_ playback, and policy."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from wayback_server import FakeWayback, Fault

from crawler.wayback import (
    USER_AGENT,
    BadCapture,
    Blocked,
    MalformedCdx,
    NotArchived,
    Policy,
    RateLimited,
    RateLimiter,
    Unavailable,
    WaybackSession,
)

URL = "http://www.wizards.com/magic/comprules/MagicCompRules_20100201.txt"
CLOCK_SLACK_SECONDS = 0.01  # monotonic clock and sleep granularity, far below one 0.2 s gap
FAST = Policy(timeout=0.5, cdx_per_minute=0, fetch_per_minute=0, retries=3, backoff=0.05)


@pytest.fixture
def wayback() -> Iterator[FakeWayback]:
    with FakeWayback() as server:
        yield server


@pytest.fixture
def session(wayback: FakeWayback) -> Iterator[WaybackSession]:
    with WaybackSession(wayback.url, FAST) as client:
        yield client


def test_search_pages_through_distinct_captures_oldest_first(wayback, session):
    for day, body in enumerate([b"a", b"a", b"b", b"c", b"d", b"e"], 1):
        wayback.add(URL, body, f"201002{day:02d}000000")
    records = list(session.search(URL, page_size=2))
    assert [r.timestamp[:8] for r in records] == [
        "20100201",
        "20100203",
        "20100204",
        "20100205",
        "20100206",
    ]
    assert len(wayback.requests_to("/cdx/")) == 3  # pages of 2, 2 and 1
    assert all("filter=statuscode%3A200" in path for _t, path, _ua in wayback.log)
    assert all("collapse=digest" in path for _t, path, _ua in wayback.log)


def test_search_honours_the_date_range(wayback, session):
    for stamp in ("20091231000000", "20100315000000", "20110101000000"):
        wayback.add(URL, stamp.encode(), stamp)
    found = list(session.search(URL, "2010-01-01", "2010-12-31"))
    assert [r.timestamp for r in found] == ["20100315000000"]


def test_fetch_returns_the_bytes_exactly_with_a_descriptive_user_agent(wayback, session):
    body = b"Magic\r\nRules \x96 \xe9\r"  # CRLF, bare CR, cp1252 bytes: nothing re-encoded
    wayback.add(URL, body, "20100223045825")
    capture = session.fetch(URL, "20100223045825", expect_type="text/plain")
    assert capture.data == body
    assert capture.status == 200
    assert capture.wayback_url.endswith(f"/web/20100223045825id_/{URL}")
    assert wayback.log[-1][2] == USER_AGENT and "rules-history" in USER_AGENT


def test_fetch_follows_the_redirect_to_the_nearest_capture(wayback, session):
    wayback.add(URL, b"text", "20100223045825")
    capture = session.fetch(URL, "20100101000000")
    assert capture.timestamp == "20100223045825"


def test_429_pauses_every_request_for_its_retry_after(wayback, session):
    wayback.add(URL, b"text", "20100223045825")
    wayback.fail(f"fetch:{URL}", Fault("status", 429, {"Retry-After": "1"}))
    other = "http://example.org/other.txt"
    wayback.add(other, b"other", "20100223045825")
    started = time.monotonic()
    results: list[bytes] = []
    first = threading.Thread(
        target=lambda: results.append(session.fetch(URL, "20100223045825").data)
    )
    first.start()
    time.sleep(0.2)  # the 429 has been answered: the other thread must wait for the pause too
    results.append(session.fetch(other, "20100223045825").data)
    first.join()
    times = [t for t, path, _ua in wayback.log]
    assert sorted(results) == [b"other", b"text"]
    assert time.monotonic() - started >= 1.0
    assert times[1] - times[0] >= 0.95  # nothing reached the server during the pause


def test_429_beyond_the_retries_raises_rate_limited_with_retry_after(wayback):
    wayback.add(URL, b"text", "20100223045825")
    wayback.fail(f"fetch:{URL}", *[Fault("status", 429, {"Retry-After": "0.1"})] * 3)
    client = WaybackSession(wayback.url, Policy(fetch_per_minute=0, retries=2, backoff=0.01))
    with client, pytest.raises(RateLimited) as caught:
        client.fetch(URL, "20100223045825")
    assert caught.value.retry_after == pytest.approx(0.1)


def test_503_is_retried_with_exponential_backoff(wayback, session):
    wayback.add(URL, b"text", "20100223045825")
    wayback.fail(f"fetch:{URL}", Fault("status", 503), Fault("status", 503))
    assert session.fetch(URL, "20100223045825").data == b"text"
    times = [t for t, _p, _ua in wayback.log]
    assert len(times) == 3
    assert times[1] - times[0] >= 0.05 and times[2] - times[1] >= 0.1  # 0.05 s, then doubled


def test_503_that_never_ends_raises_unavailable(wayback, session):
    wayback.add(URL, b"text", "20100223045825")
    wayback.fail(f"fetch:{URL}", *[Fault("status", 503)] * 10)
    with pytest.raises(Unavailable):
        session.fetch(URL, "20100223045825")
    assert len(wayback.log) == FAST.retries + 1


def test_a_timeout_is_retried(wayback, session):
    wayback.add(URL, b"text", "20100223045825")
    wayback.fail(f"fetch:{URL}", Fault("timeout", seconds=1.0))
    assert session.fetch(URL, "20100223045825").data == b"text"
    assert len(wayback.log) == 2


def test_a_truncated_body_is_retried_and_never_returned(wayback, session):
    wayback.add(URL, b"0123456789" * 100, "20100223045825")
    wayback.fail(f"fetch:{URL}", Fault("truncate"))
    assert session.fetch(URL, "20100223045825").data == b"0123456789" * 100
    wayback.fail(f"fetch:{URL}", *[Fault("truncate")] * 10)
    with pytest.raises(Unavailable, match="no answer"):
        session.fetch(URL, "20100223045825")


def test_a_wrong_content_type_is_a_bad_capture(wayback, session):
    wayback.add(URL, b"text", "20100223045825")
    wayback.fail(f"fetch:{URL}", Fault("wrong-type"))
    with pytest.raises(BadCapture, match="text/html"):
        session.fetch(URL, "20100223045825", expect_type="text/plain")


def test_the_not_archived_page_raises_not_archived(wayback, session):
    with pytest.raises(NotArchived):
        session.fetch("http://nowhere.example/x.txt", "20100101000000")


def test_a_placeholder_served_with_status_200_is_never_returned(wayback, session):
    wayback.add(URL, b"text", "20100223045825")
    wayback.fail(f"fetch:{URL}", Fault("placeholder"))
    with pytest.raises(NotArchived):
        session.fetch(URL, "20100223045825")


def test_an_excluded_site_raises_blocked(wayback, session):
    wayback.add(URL, b"text", "20100223045825")
    wayback.fail(f"fetch:{URL}", Fault("blocked"))
    with pytest.raises(Blocked):
        session.fetch(URL, "20100223045825")


def test_a_malformed_cdx_answer_raises(wayback, session):
    wayback.fail(f"cdx:{URL}", Fault("malformed"))
    with pytest.raises(MalformedCdx, match="fields"):
        list(session.search(URL))


def test_the_cdx_rate_limit_spaces_requests(wayback):
    wayback.add(URL, b"text", "20100223045825")
    policy = Policy(cdx_per_minute=300, fetch_per_minute=0)  # one every 0.2 s
    started = time.monotonic()
    with WaybackSession(wayback.url, policy) as client:
        for _ in range(4):
            list(client.search(URL))
    elapsed = time.monotonic() - started
    # Timed on the client: the server's own stamps wait for its threads to run, which a
    # loaded machine delays unevenly. A load can only lengthen the loop, never shorten it.
    assert len(wayback.requests_to("/cdx/")) == 4
    assert elapsed >= 3 * 0.2 - CLOCK_SLACK_SECONDS


def test_the_rate_limiter_is_shared_safely_between_threads():
    limiter = RateLimiter(per_minute=1200)  # one every 0.05 s
    stamps: list[float] = []
    lock = threading.Lock()

    def work() -> None:
        for _ in range(5):
            limiter.wait()
            with lock:
                stamps.append(time.monotonic())

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stamps.sort()
    assert len(stamps) == 20
    assert stamps[-1] - stamps[0] >= 19 * 0.05 * 0.95

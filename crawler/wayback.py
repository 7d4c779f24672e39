"""The Wayback Machine client: every HTTP request of the crawler goes through `WaybackSession`.

One class owns the HTTP policy (edgi-govdata-archiving/wayback style): timeouts, a
thread-safe rate limiter per endpoint (the CDX API allows 30 requests a minute per
address), retries with exponential backoff on 5xx answers, timeouts and cut connections,
a pause of the whole crawl for a 429's Retry-After, and a User-Agent naming the project.
Captures are read in `id_` mode: the original bytes, no toolbar, no rewritten links.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import urlencode

import requests

from archive.errors import RulesHistoryError

DEFAULT_WAYBACK = "https://web.archive.org"
USER_AGENT = "rules-history-crawler/0.1 (+https://github.com/rules-history; CR archive research)"
CDX_FIELDS = ("urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length")


class WaybackError(RulesHistoryError):
    """Base of the errors the Wayback client raises; each names the URL at fault."""

    reason = "error"

    def __init__(self, url: str, message: str) -> None:
        super().__init__(f"{url}: {message}")
        self.url = url


class RateLimited(WaybackError):
    """The Wayback Machine answered 429 more often than the retries allow."""

    reason = "rate limited"

    def __init__(self, url: str, retry_after: float) -> None:
        super().__init__(url, f"rate limited (429), retry after {retry_after:g} s")
        self.retry_after = retry_after


class Blocked(WaybackError):
    """The site or URL is excluded from the Wayback Machine."""

    reason = "blocked"


class BlockedByRobots(Blocked):
    reason = "blocked by robots.txt"


class NotArchived(WaybackError):
    """No capture of this URL (CDX is empty, or the playback says it was never archived)."""

    reason = "not archived"


class BadCapture(WaybackError):
    """A response that is not the capture: truncated, a placeholder page, a wrong type."""

    reason = "bad capture"


class Unavailable(WaybackError):
    """5xx answers, timeouts or cut connections outlasted every retry."""

    reason = "unavailable"


class MalformedCdx(WaybackError):
    reason = "malformed CDX answer"


@dataclass(frozen=True)
class Policy:
    """Timeouts, rates and retries; tests shrink them, the defaults are polite."""

    timeout: float = 30.0
    cdx_per_minute: float = 20.0  # the Internet Archive allows 30; 0 means no limit (tests)
    fetch_per_minute: float = 30.0
    retries: int = 5
    backoff: float = 2.0  # seconds before the first retry, doubled each time
    max_backoff: float = 120.0
    max_retry_after: float = 600.0  # longest 429 pause honoured before giving up


@dataclass(frozen=True)
class CdxRecord:
    """One line of a CDX answer: a capture of `original` at `timestamp`."""

    timestamp: str
    original: str
    mimetype: str
    statuscode: str
    digest: str
    length: str

    @classmethod
    def from_row(cls, fields: list[str], row: list[str], url: str) -> CdxRecord:
        if len(row) != len(fields):
            raise MalformedCdx(url, f"CDX line has {len(row)} fields, expected {len(fields)}")
        data = dict(zip(fields, row, strict=True))
        try:
            record = cls(**{name: data[name] for name in cls.__dataclass_fields__})
        except KeyError as exc:
            raise MalformedCdx(url, f"CDX answer lacks the field {exc}") from exc
        if not re.fullmatch(r"\d{14}", record.timestamp):
            raise MalformedCdx(url, f"CDX timestamp {record.timestamp!r} is not 14 digits")
        return record


@dataclass(frozen=True)
class Capture:
    """The bytes of one capture as the playback served them in `id_` mode."""

    url: str
    timestamp: str
    wayback_url: str
    status: int
    content_type: str | None
    data: bytes


class RateLimiter:
    """At most `per_minute` calls, spaced evenly; safe to share between threads."""

    def __init__(self, per_minute: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = 60.0 / per_minute if per_minute > 0 else 0.0
        self._clock = clock
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(self) -> None:
        with self._lock:
            now = self._clock()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            time.sleep(start - now)


# Failures worth a retry: no answer in time, a refused or cut connection, a cut body.
_TRANSIENT = (
    requests.Timeout,
    requests.ConnectionError,
    requests.exceptions.ChunkedEncodingError,
)


class WaybackSession:
    """All HTTP to one Wayback Machine (or a mirror): CDX search and `id_` playback."""

    def __init__(self, base_url: str = DEFAULT_WAYBACK, policy: Policy | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.policy = policy or Policy()
        self._http = requests.Session()
        self._http.headers["User-Agent"] = USER_AGENT
        self._limits = {
            "cdx": RateLimiter(self.policy.cdx_per_minute),
            "fetch": RateLimiter(self.policy.fetch_per_minute),
        }
        self._pause_until = 0.0
        self._pause_lock = threading.Lock()
        self.requests_made = 0

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> WaybackSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- discovery -------------------------------------------------------------------------

    def search(
        self,
        url: str,
        from_date: str | None = None,
        to_date: str | None = None,
        page_size: int = 500,
    ) -> Iterator[CdxRecord]:
        """Distinct captures (status 200, collapsed by digest) of `url`, oldest first, paged."""
        params: dict[str, str] = {
            "url": url,
            "output": "json",
            "filter": "statuscode:200",
            "collapse": "digest",
            "limit": str(page_size),
            "showResumeKey": "true",
        }
        if from_date:
            params["from"] = from_date.replace("-", "")
        if to_date:
            params["to"] = to_date.replace("-", "")
        while True:
            response = self._request("cdx", f"{self.base_url}/cdx/search/cdx?{urlencode(params)}")
            rows, resume_key = _parse_cdx(response, url)
            yield from rows
            if not resume_key:
                return
            params["resumeKey"] = resume_key

    # -- playback --------------------------------------------------------------------------

    def raw_url(self, url: str, timestamp: str) -> str:
        return f"{self.base_url}/web/{timestamp}id_/{url}"

    def fetch(self, url: str, timestamp: str, expect_type: str | None = None) -> Capture:
        """The original bytes of the capture of `url` at (or nearest) `timestamp`.

        `expect_type` (e.g. `text/plain`) rejects a response of another media type.
        """
        wayback_url = self.raw_url(url, timestamp)
        response = self._request("fetch", wayback_url)
        data = response.content
        _check_complete(response, data, wayback_url)
        final = re.search(r"/web/(\d{14})id_/", response.url)
        check_not_placeholder(data, wayback_url)
        media_type = (response.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if expect_type and media_type != expect_type:
            raise BadCapture(wayback_url, f"served as {media_type or 'no type'}, not {expect_type}")
        return Capture(
            url=url,
            timestamp=final[1] if final else timestamp,
            wayback_url=response.url,
            status=response.status_code,
            content_type=response.headers.get("Content-Type"),
            data=data,
        )

    # -- policy ----------------------------------------------------------------------------

    def _request(self, endpoint: str, url: str) -> requests.Response:
        """GET with the rate limit, the shared 429 pause, and retries with backoff."""
        policy = self.policy
        for attempt in range(policy.retries + 1):
            self._wait_for_pause()
            self._limits[endpoint].wait()
            self.requests_made += 1
            last_try = attempt == policy.retries
            try:
                response = self._http.get(url, timeout=policy.timeout)
                response.content  # noqa: B018 -- read the body now, so a cut body is retried
            except _TRANSIENT as exc:
                if last_try:
                    raise Unavailable(url, f"no answer after {attempt + 1} tries: {exc}") from exc
                self._back_off(attempt)
                continue
            except requests.RequestException as exc:  # a bad URL, too many redirects ...
                raise Unavailable(url, f"request failed: {exc}") from exc
            if response.status_code == 429:
                retry_after = _retry_after(response, policy.backoff)
                if last_try or retry_after > policy.max_retry_after:
                    raise RateLimited(url, retry_after)
                self.pause(retry_after)
                continue
            if response.status_code >= 500:
                if last_try:
                    raise Unavailable(url, f"HTTP {response.status_code} after {attempt + 1} tries")
                self._back_off(attempt)
                continue
            _raise_for_refusal(response, url)
            return response
        raise AssertionError("unreachable")  # pragma: no cover

    def pause(self, seconds: float) -> None:
        """Hold every request of this session (all threads) for `seconds`."""
        with self._pause_lock:
            self._pause_until = max(self._pause_until, time.monotonic() + seconds)

    def _wait_for_pause(self) -> None:
        while True:
            with self._pause_lock:
                remaining = self._pause_until - time.monotonic()
            if remaining <= 0:
                return
            time.sleep(remaining)

    def _back_off(self, attempt: int) -> None:
        time.sleep(min(self.policy.backoff * 2**attempt, self.policy.max_backoff))


def _retry_after(response: requests.Response, default: float) -> float:
    value = response.headers.get("Retry-After", "")
    try:
        return max(float(value), 0.0)
    except ValueError:
        return default


def _raise_for_refusal(response: requests.Response, url: str) -> None:
    """403 and 404 as the exceptions a caller can act on; other 4xx as a bad capture."""
    status = response.status_code
    if status < 400:
        return
    text = response.text[:4000].lower() if response.content else ""
    if status == 403 or "blocked site error" in text or "excluded from the wayback" in text:
        if "robots.txt" in text:
            raise BlockedByRobots(url, "blocked by the site's robots.txt")
        raise Blocked(url, f"excluded from the Wayback Machine (HTTP {status})")
    if status == 404:
        raise NotArchived(url, "the Wayback Machine has no capture of this URL")
    raise BadCapture(url, f"HTTP {status}")


def _check_complete(response: requests.Response, data: bytes, url: str) -> None:
    expected = response.headers.get("Content-Length")
    encoded = response.headers.get("Content-Encoding")
    if expected and not encoded and expected.isdigit() and int(expected) != len(data):
        raise BadCapture(url, f"truncated: {len(data)} of {expected} bytes")


# Phrases of the Wayback Machine's own pages, which must never be stored as a capture.
_PLACEHOLDERS = (
    b"wayback machine doesn't have that page archived",
    b"wayback machine doesn&#39;t have that page archived",
    b"hrm.<",
    b"this url has been excluded from the wayback machine",
    b"got an http 30",
    b"the wayback machine is temporarily unavailable",
    b"<title>wayback machine</title>",
    b'id="wm-ipp',
)


def is_wayback_page(data: bytes) -> bool:
    """Whether `data` is a page of the Wayback Machine itself rather than a capture."""
    head = data[:20000].lower()
    return any(marker in head for marker in _PLACEHOLDERS)


def check_not_placeholder(data: bytes, url: str) -> None:
    if is_wayback_page(data):
        if b"have that page archived" in data[:20000].lower():
            raise NotArchived(url, "the Wayback Machine says it has not archived this page")
        raise BadCapture(url, "a Wayback Machine page, not the captured content")
    if not data:
        raise BadCapture(url, "empty body")


def _parse_cdx(response: requests.Response, url: str) -> tuple[list[CdxRecord], str | None]:
    """CDX JSON: a header row, capture rows, then `[]` and `[resumeKey]` when paged."""
    if not response.content.strip():
        return [], None
    try:
        rows = json.loads(response.content)
    except json.JSONDecodeError as exc:
        raise MalformedCdx(url, f"CDX answer is not JSON ({exc})") from exc
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise MalformedCdx(url, "CDX answer is not a list of rows")
    if not rows:
        return [], None
    fields, body = rows[0], rows[1:]
    resume_key = None
    if len(body) >= 2 and body[-2] == [] and len(body[-1]) == 1:
        resume_key, body = body[-1][0], body[:-2]
    body = [row for row in body if row]
    return [CdxRecord.from_row(fields, row, url) for row in body], resume_key

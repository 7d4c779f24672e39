"""The Wayback Machine client: every HTTP request of the crawler goes through `WaybackSession`.

One class owns the HTTP policy (edgi-govdata-archiving/wayback style): timeouts, a
thread-safe rate limiter per endpoint (the CDX API allows 30 requests a minute per
address), retries with exponential backoff on 5xx answers, timeouts and cut connections,
a pause of the whole crawl for a 429's Retry-After, and a User-Agent naming the project.
Captures are read in `id_` mode: the original bytes, no toolbar, no rewritten links.

Against a hostile or broken server the same policy holds every request to an overall
deadline (not only a per-read timeout), caps the body before and after decompression,
follows redirects only on the same host, and checks that a body is whole (Content-Length,
the end of a compressed stream) and of the expected kind (media type, no HTML page served
as text, the caller's own check such as "a CR text that reaches its glossary") before it
is returned: a caller never sees, so never stores, a bad body, and a rerun tries again.
"""

from __future__ import annotations

import codecs
import http.client
import json
import math
import re
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from urllib.parse import urlencode, urljoin, urlsplit

import requests
import urllib3

from archive.errors import RulesHistoryError
from crawler.http_guard import (
    ACCEPT_ENCODING,
    CutBody,
    Deadline,
    DeadlineAdapter,
    TooLarge,
    deadline_for_thread,
    inflate,
    read_body,
)
from crawler.limits import MAX_BYTES

DEFAULT_WAYBACK = "https://web.archive.org"
USER_AGENT = "rules-history-crawler/0.1 (+https://github.com/rules-history; CR archive research)"
CDX_FIELDS = ("urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length")
# More CDX pages than any URL of the catalogue has (a few hundred captures at 500 a page).
MAX_CDX_PAGES = 1000
# Errors looked through when naming a failure: requests wraps urllib3 wraps the socket's.
MAX_CAUSES = 20


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
class Reply:
    """One whole, checked HTTP answer: its final URL (after same-host redirects) and body."""

    url: str
    status: int
    headers: Mapping[str, str]
    data: bytes

    @property
    def content_type(self) -> str | None:
        return self.headers.get("Content-Type")

    @property
    def media_type(self) -> str:
        return (self.content_type or "").split(";")[0].strip().lower()


# A caller's check of a body's kind: raises `BadCapture` (e.g. "not a CR text").
BodyCheck = Callable[[bytes, str], None]


@dataclass(frozen=True)
class Policy:
    """Timeouts, rates, retries and limits; tests shrink them, the defaults are polite."""

    timeout: float = 30.0  # seconds one read (or the connect) may wait
    cdx_per_minute: float = 20.0  # the Internet Archive allows 30; 0 means no limit (tests)
    fetch_per_minute: float = 30.0
    retries: int = 5
    backoff: float = 2.0  # seconds before the first retry, doubled each time
    max_backoff: float = 120.0
    max_retry_after: float = 600.0  # longest 429 pause honoured before giving up
    deadline: float = 300.0  # seconds one request may take in all, redirects and body included
    max_bytes: int = MAX_BYTES  # the body, before and after decompression
    max_redirects: int = 5  # the Wayback Machine redirects once, to the nearest capture

    def __post_init__(self) -> None:
        for name in ("timeout", "deadline", "cdx_per_minute", "fetch_per_minute", "backoff"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(
                    f"Policy.{name} must be a finite number, not {getattr(self, name)}"
                )
        for name in ("timeout", "deadline"):
            if not getattr(self, name) > 0:
                raise ValueError(f"Policy.{name} must be more than 0, not {getattr(self, name)}")
        for name in ("cdx_per_minute", "fetch_per_minute", "retries", "backoff", "max_redirects"):
            if getattr(self, name) < 0:
                raise ValueError(f"Policy.{name} must be 0 or more, not {getattr(self, name)}")
        if self.max_bytes < 1:
            raise ValueError(f"Policy.max_bytes must be at least 1, not {self.max_bytes}")


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
    urllib3.exceptions.HTTPError,  # raised while streaming the body: timeouts, resets, cuts
    CutBody,
)


class _Incomplete(Exception):
    """A body that is not whole: shorter than its Content-Length, or cut by the deadline."""


class WaybackSession:
    """All HTTP to one Wayback Machine (or a mirror): CDX search and `id_` playback."""

    def __init__(self, base_url: str = DEFAULT_WAYBACK, policy: Policy | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.policy = policy or Policy()
        self._http = requests.Session()
        self._http.headers["User-Agent"] = USER_AGENT
        self._http.headers["Accept-Encoding"] = ACCEPT_ENCODING
        adapter = DeadlineAdapter()
        self._http.mount("http://", adapter)
        self._http.mount("https://", adapter)
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
        seen_keys: set[str] = set()
        for _page in range(MAX_CDX_PAGES):
            cdx_url = f"{self.base_url}/cdx/search/cdx?{urlencode(params)}"
            rows, resume_key = _parse_cdx(self._request("cdx", cdx_url).data, cdx_url)
            yield from rows
            if not resume_key:
                return
            if resume_key in seen_keys:
                raise MalformedCdx(cdx_url, f"the resume key {resume_key!r} repeats: a loop")
            seen_keys.add(resume_key)
            params["resumeKey"] = resume_key
        raise MalformedCdx(url, f"more than {MAX_CDX_PAGES} CDX pages")

    # -- playback --------------------------------------------------------------------------

    def raw_url(self, url: str, timestamp: str) -> str:
        return f"{self.base_url}/web/{timestamp}id_/{url}"

    def fetch(
        self,
        url: str,
        timestamp: str,
        expect_type: str | None = None,
        check: BodyCheck | None = None,
    ) -> Capture:
        """The original bytes of the capture of `url` at (or nearest) `timestamp`.

        `expect_type` (e.g. `text/plain`) rejects a response of another media type, and an
        HTML page served as text; `check` (e.g. `crawler.cr_text.check_cr_text`) rejects a
        body that is not what the caller expects, such as a CR text cut before its glossary.
        """
        wayback_url = self.raw_url(url, timestamp)
        reply = self._request("fetch", wayback_url)
        check_not_placeholder(reply.data, wayback_url)
        check_kind(reply, wayback_url, expect_type, check)
        final = re.search(r"/web/(\d{14})id_/", reply.url)
        return Capture(
            url=url,
            timestamp=final[1] if final else timestamp,
            wayback_url=reply.url,
            status=reply.status,
            content_type=reply.content_type,
            data=reply.data,
        )

    def download(
        self, url: str, expect_type: str | None = None, check: BodyCheck | None = None
    ) -> Reply:
        """Any URL (an official page or file, not a Wayback capture) under the same policy."""
        reply = self._request("fetch", url)
        check_kind(reply, url, expect_type, check)
        return reply

    # -- policy ----------------------------------------------------------------------------

    def _request(self, endpoint: str, url: str) -> Reply:
        """GET with the rate limit, the shared 429 pause, and retries with backoff."""
        policy = self.policy
        attempt = 0
        while True:
            self._wait_for_pause()
            self._limits[endpoint].wait()
            self.requests_made += 1
            last_try = attempt >= policy.retries
            try:
                reply = self._get_whole(url)
            except (*_TRANSIENT, _Incomplete) as exc:
                if last_try:
                    failure = describe_failure(exc, policy.timeout)
                    raise Unavailable(
                        url, f"no answer after {attempt + 1} tries: {failure}"
                    ) from exc
                self._back_off(attempt)
                attempt += 1
                continue
            except requests.RequestException as exc:  # a bad URL, an unknown scheme ...
                raise Unavailable(url, f"request failed: {_request_problem(exc)}") from exc
            if reply.status == 429:
                retry_after = _retry_after(reply, policy.backoff)
                if last_try or retry_after > policy.max_retry_after:
                    raise RateLimited(url, retry_after)
                self.pause(retry_after)
                attempt += 1
                continue
            if reply.status >= 500:
                if last_try:
                    raise Unavailable(url, f"HTTP {reply.status} after {attempt + 1} tries")
                self._back_off(attempt)
                attempt += 1
                continue
            _raise_for_refusal(reply, url)
            return reply

    def _get_whole(self, url: str) -> Reply:
        """One try: the answer followed through same-host redirects, read whole within the
        deadline and the size cap, and decompressed within the cap."""
        policy = self.policy
        with deadline_for_thread(Deadline(policy.deadline)) as deadline:
            current = url
            for _hop in range(policy.max_redirects + 1):
                wait = max(min(policy.timeout, deadline.remaining()), 0.001)
                try:
                    response = self._http.get(
                        current, timeout=wait, stream=True, allow_redirects=False
                    )
                except requests.RequestException:
                    if deadline.expired:  # the watchdog cut a drip in the headers
                        raise _Incomplete(_late(deadline)) from None
                    raise
                try:
                    if response.is_redirect:
                        current = _same_host_redirect(url, current, response)
                        continue
                    return _read_reply(response, current, policy, deadline)
                finally:
                    response.close()
        raise BadCapture(url, f"more than {policy.max_redirects} redirects")

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


def _same_host_redirect(origin: str, current: str, response: requests.Response) -> str:
    """The redirect's target when it stays on the host asked; refused otherwise.

    Only an upgrade from http to https of the same host name is allowed besides.
    """
    target = urljoin(current, response.headers.get("Location", ""))
    asked, going = urlsplit(current), urlsplit(target)
    same = (asked.scheme, asked.netloc.lower()) == (going.scheme, going.netloc.lower())
    upgrade = (
        asked.scheme == "http"
        and going.scheme == "https"
        and asked.hostname == going.hostname
        and going.port in (None, 443)
    )
    if not (same or upgrade):
        raise BadCapture(
            origin, f"redirected to another host ({going.netloc or target}): not followed"
        )
    return target


def _read_reply(response: requests.Response, url: str, policy: Policy, deadline: Deadline) -> Reply:
    """The body read whole within the deadline and the cap, then decompressed."""
    length = response.headers.get("Content-Length", "").strip()
    expected = int(length) if length.isdigit() else None
    if expected is not None and expected > policy.max_bytes:
        raise BadCapture(url, f"{expected} bytes announced, over the cap of {policy.max_bytes}")
    try:
        raw = read_body(response.raw, policy.max_bytes)
    except TooLarge as exc:
        raise BadCapture(url, f"body refused: {exc} (the cap)") from exc
    except Exception:
        if deadline.expired:
            raise _Incomplete(_late(deadline)) from None
        raise
    if deadline.expired:  # the watchdog cut the body: what arrived is not all of it
        raise _Incomplete(_late(deadline))
    if expected is not None and len(raw) != expected:
        raise _Incomplete(f"truncated: {len(raw)} of {expected} bytes")
    encoding = response.headers.get("Content-Encoding", "")
    try:
        data = inflate(raw, encoding, policy.max_bytes)
    except TooLarge as exc:
        raise BadCapture(url, f"body refused: {exc} (the cap)") from exc
    except (ValueError, zlib.error) as exc:
        raise BadCapture(url, f"body cannot be decoded: {exc}") from exc
    return Reply(url=url, status=response.status_code, headers=response.headers, data=data)


def _causes(error: BaseException) -> list[BaseException]:
    """`error` and what it wraps: requests wraps urllib3, which wraps the socket's error."""
    found: list[BaseException] = []
    pending = [error]
    while pending and len(found) < MAX_CAUSES:
        current = pending.pop(0)
        if any(current is seen for seen in found):
            continue
        found.append(current)
        linked = [current.__cause__, current.__context__, getattr(current, "reason", None)]
        linked += list(current.args)
        pending += [item for item in linked if isinstance(item, BaseException)]
    return found


def describe_failure(error: BaseException, timeout: float) -> str:
    """One failed try in plain words: what happened, never a class or connection pool name."""
    if isinstance(error, (_Incomplete, CutBody)):
        return str(error)
    causes = _causes(error)

    def caused_by(*kinds: type[BaseException]) -> bool:
        return any(isinstance(cause, kinds) for cause in causes)

    # urllib3 files a refused connection and an unknown host under its connect timeout
    if caused_by(urllib3.exceptions.NameResolutionError, socket.gaierror):
        return "the host name cannot be resolved"
    if caused_by(ConnectionRefusedError):
        return "the connection was refused"
    if caused_by(urllib3.exceptions.NewConnectionError):
        return "no connection could be made"
    if caused_by(requests.ConnectTimeout, urllib3.exceptions.ConnectTimeoutError):
        return f"no connection within the timeout of {timeout:g} s"
    if caused_by(requests.ReadTimeout, urllib3.exceptions.ReadTimeoutError, TimeoutError):
        return f"the server sent nothing for {timeout:g} s (the read timeout)"
    if caused_by(http.client.IncompleteRead, requests.exceptions.ChunkedEncodingError):
        return "the connection was closed before the body was whole"
    if caused_by(http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
        return "the server closed the connection without answering"
    if caused_by(urllib3.exceptions.SSLError, requests.exceptions.SSLError):
        return "the TLS handshake failed"
    return "the connection failed"


def _request_problem(error: requests.RequestException) -> str:
    """A request that could not be sent: a URL requests cannot use, in plain words."""
    if isinstance(error, (requests.exceptions.MissingSchema, requests.exceptions.InvalidSchema)):
        return "not an http(s) address"
    if isinstance(error, (requests.exceptions.InvalidURL, requests.exceptions.InvalidHeader)):
        return "not a valid address"
    return "the request could not be sent"


def _late(deadline: Deadline) -> str:
    return f"no complete answer within the deadline of {deadline.seconds:g} s"


def _retry_after(response: Reply, default: float) -> float:
    value = response.headers.get("Retry-After", "")
    try:
        return max(float(value), 0.0)
    except ValueError:
        return default


def _raise_for_refusal(response: Reply, url: str) -> None:
    """403 and 404 as the exceptions a caller can act on; other 4xx as a bad capture."""
    status = response.status
    if status < 300:
        return
    if status < 400:
        raise BadCapture(url, f"HTTP {status} without a redirect to follow")
    text = response.data[:4000].decode("utf-8", "replace").lower()
    if status == 403 or "blocked site error" in text or "excluded from the wayback" in text:
        if "robots.txt" in text:
            raise BlockedByRobots(url, "blocked by the site's robots.txt")
        raise Blocked(url, f"excluded from the Wayback Machine (HTTP {status})")
    if status == 404:
        raise NotArchived(url, "the Wayback Machine has no capture of this URL")
    raise BadCapture(url, f"HTTP {status}")


_HTML_START = re.compile(rb"^\s*(<!doctype html|<html|<head|<body)", re.IGNORECASE)


def check_kind(
    reply: Reply, url: str, expect_type: str | None, check: BodyCheck | None = None
) -> None:
    """The body is of the expected media type, not HTML posing as text, and passes `check`.

    A text (a CR release) must also be what its declared Unicode charset says
    (`check_charset`); a page (a witness) is not held to it: its words are quoted, not
    stored as a release, and one stray byte of an old page would lose every capture of it."""
    if expect_type and reply.media_type != expect_type:
        raise BadCapture(url, f"served as {reply.media_type or 'no type'}, not {expect_type}")
    if expect_type == "text/plain" and _HTML_START.match(reply.data[:1024].lstrip(b"\xef\xbb\xbf")):
        raise BadCapture(url, "an HTML page served as text/plain")
    if expect_type == "text/plain":
        check_charset(reply, url)
    if check is not None:
        check(reply.data, url)


_CHARSET = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.IGNORECASE)
# The charsets whose label is checked against the bytes: each can say "these bytes are not
# mine". An 8-bit label (iso-8859-1, windows-1252, us-ascii ...) is not: servers put their
# default on every .txt whatever it holds, and the project reads such texts by guessing the
# code page from the bytes (`archive.decode.guess_encoding`), never from the label.
UNICODE_CHARSETS = frozenset(
    {"utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"}
)


def declared_charset(content_type: str | None) -> str | None:
    """The charset a Content-Type declares, as Python names its codec; None when it declares
    none, or one Python does not know.

    >>> declared_charset('text/plain; charset="UTF8"')
    'utf-8'
    >>> declared_charset("text/plain") is None
    True
    """
    found = _CHARSET.search(content_type or "")
    if found is None:
        return None
    try:
        return codecs.lookup(found[1]).name
    except LookupError:
        return None


def check_charset(reply: Reply, url: str) -> None:
    """A body declared UTF-8 (or UTF-16, UTF-32) must be that: one that is not is damaged or
    mislabelled, and stored it would be read later as some 8-bit code page (mojibake)."""
    charset = declared_charset(reply.content_type)
    if charset not in UNICODE_CHARSETS:
        return
    try:
        reply.data.decode(charset)
    except UnicodeDecodeError as exc:
        raise BadCapture(
            url,
            f"declared charset={charset}, but byte {exc.start:,}"
            f" (0x{reply.data[exc.start : exc.start + 1].hex().upper()})"
            f" is not {charset}: a damaged or mislabelled body",
        ) from exc


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


def _parse_cdx(data: bytes, url: str) -> tuple[list[CdxRecord], str | None]:
    """CDX JSON: a header row, capture rows, then `[]` and `[resumeKey]` when paged.

    Anything else (binary garbage, rows of numbers, a resume key that is not text) is a
    `MalformedCdx` naming the URL, never a traceback.
    """
    if not data.strip():
        return [], None
    try:
        rows = json.loads(data)
    except UnicodeDecodeError as exc:
        raise MalformedCdx(
            url, f"CDX answer is not JSON: byte {exc.start} is not UTF-8 text"
        ) from exc
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise MalformedCdx(url, f"CDX answer is not JSON ({exc.msg} at {where})") from exc
    except RecursionError as exc:
        raise MalformedCdx(
            url, "CDX answer is not JSON a reader can take (nested too deep)"
        ) from exc
    except ValueError as exc:
        raise MalformedCdx(url, "CDX answer is not JSON") from exc
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise MalformedCdx(url, "CDX answer is not a list of rows")
    for number, row in enumerate(rows, 1):
        if not all(isinstance(value, str) for value in row):
            raise MalformedCdx(url, f"CDX row {number} holds a field that is not text")
    if not rows:
        return [], None
    fields, body = rows[0], rows[1:]
    resume_key = None
    if len(body) >= 2 and body[-2] == [] and len(body[-1]) == 1:
        resume_key, body = body[-1][0], body[:-2]
    body = [row for row in body if row]
    return [CdxRecord.from_row(fields, row, url) for row in body], resume_key or None

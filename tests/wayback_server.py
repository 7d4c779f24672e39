"""A small Wayback Machine for the tests: a real HTTP server on 127.0.0.1 in a thread.

It speaks the CDX API (`/cdx/search/cdx`: url, from, to, filter, collapse=digest, limit,
showResumeKey/resumeKey) and serves captures in `id_` mode (`/web/<timestamp>id_/<url>`).
Faults are scripted per request kind and URL and used up in order: a status with headers
(429 with Retry-After, 503, 403), a timeout, a truncated body, a wrong content type, the
"not archived" page, a malformed CDX line; and the hostile ones: a body cut without a
Content-Length, an HTML page served as text/plain, a slow drip, a gzip bomb, a redirect to
another host, a CDX answer that repeats its resume key, CDX answers of binary garbage and
of rows of numbers.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from loopback_server import LoopbackServer

NOT_ARCHIVED_PAGE = b"""<!DOCTYPE html><html><head><title>Wayback Machine</title></head>
<body><div id="error"><h2>Hrm.</h2><p>The Wayback Machine doesn't have that page archived.</p>
</div></body></html>"""
HTML_PAGE = b"""<!DOCTYPE html>
<html><head><title>Magic: The Gathering Comprehensive Rules</title></head>
<body><p>Please sign in to continue.</p></body></html>"""
GARBAGE = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\xfd garbage \x80\x81"
NUMBER_ROWS = json.dumps(
    [
        ["urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"],
        [1, 20100101000000, 3, 4, 200, 6, 7],
    ]
).encode()
BLOCKED_PAGE = b"""<!DOCTYPE html><html><head><title>Wayback Machine</title></head>
<body><p>Sorry. This URL has been excluded from the Wayback Machine.</p></body></html>"""


CDX_HEADER = ("urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length")


@dataclass
class Fault:
    """One scripted misbehaviour: `kind` is status, timeout, truncate, wrong-type,
    not-archived, placeholder, malformed, cut (no Content-Length, a third of the body, then
    close), html-as-text, drip (one byte every `seconds`, for `size` bytes or all), bomb
    (`size` zero bytes gzipped), redirect (to `location`), resume-loop (a CDX page whose
    resume key never changes), garbage or numbers (CDX answers)."""

    kind: str
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    size: int = 0
    location: str = ""


@functools.cache
def gzip_bomb(size: int) -> bytes:
    """`size` zero bytes, gzipped (about a thousandth of `size`), built without holding them.

    Cached, and built when the fault is scripted: packing 64 MiB takes longer than a short
    client timeout on a loaded machine, and the bomb must arrive, not time out.
    """
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    parts = [
        packer.compress(block[: min(len(block), size - done)])
        for done in range(0, size, len(block))
    ]
    return b"".join(parts) + packer.flush()


@dataclass
class Stored:
    timestamp: str
    data: bytes
    content_type: str


class FakeWayback(LoopbackServer):
    def __init__(self) -> None:
        self.captures: dict[str, list[Stored]] = {}
        self.faults: dict[str, deque[Fault]] = {}
        self.log: list[tuple[float, str, str]] = []  # (time, path, user agent)
        self.fetch_delay = 0.0
        self._lock = threading.Lock()
        super().__init__(type("Handler", (_Handler,), {"wayback": self}))

    def add(
        self,
        url: str,
        data: bytes,
        timestamp: str = "20100101000000",
        content_type: str = "text/plain",
    ) -> None:
        self.captures.setdefault(url, []).append(Stored(timestamp, data, content_type))
        self.captures[url].sort(key=lambda s: s.timestamp)

    def fail(self, kind_and_url: str, *faults: Fault) -> None:
        """Script faults for `cdx:<url>` or `fetch:<url>`, used once each, in order."""
        for fault in faults:
            if fault.kind == "bomb":
                gzip_bomb(fault.size)
        self.faults.setdefault(kind_and_url, deque()).extend(faults)

    def next_fault(self, key: str) -> Fault | None:
        with self._lock:
            queue = self.faults.get(key)
            return queue.popleft() if queue else None

    def requests_to(self, prefix: str) -> list[tuple[float, str, str]]:
        return [entry for entry in self.log if entry[1].startswith(prefix)]


class _Handler(BaseHTTPRequestHandler):
    wayback: FakeWayback
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.wayback.log.append((time.monotonic(), self.path, self.headers.get("User-Agent", "")))
        try:
            if self.path.startswith("/cdx/search/cdx"):
                self._cdx()
            elif self.path.startswith("/web/"):
                self._playback()
            else:
                self._send(404, b"not found", "text/plain")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _send(
        self,
        status: int,
        body: bytes,
        content_type: str,
        headers: dict[str, str] | None = None,
        length: int | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def _apply(self, fault: Fault | None, data: bytes, content_type: str) -> bool:
        """Answer with the fault; False when there is none."""
        if fault is None:
            return False
        if fault.kind == "status":
            self._send(fault.status, b"error", "text/plain", fault.headers)
        elif fault.kind == "timeout":
            time.sleep(fault.seconds)
            self._send(200, data, content_type)
        elif fault.kind == "truncate":
            self._send(200, data[: len(data) // 2], content_type, length=len(data))
            self.close_connection = True
        elif fault.kind == "wrong-type":
            self._send(200, data, "text/html; charset=utf-8")
        elif fault.kind == "not-archived":
            self._send(404, NOT_ARCHIVED_PAGE, "text/html; charset=utf-8")
        elif fault.kind == "placeholder":
            self._send(200, NOT_ARCHIVED_PAGE, content_type)
        elif fault.kind == "blocked":
            self._send(403, BLOCKED_PAGE, "text/html; charset=utf-8")
        elif fault.kind == "malformed":
            self._send(200, b'[["urlkey","timestamp"],["only-one-field"]]', "application/json")
        elif fault.kind == "cut":
            self._send_unsized(content_type, [data[: len(data) // 3]], 0.0)
        elif fault.kind == "html-as-text":
            self._send(200, HTML_PAGE, "text/plain")
        elif fault.kind == "drip":
            slow = fault.size or len(data)  # the first `size` bytes one at a time, then the rest
            pieces = [data[i : i + 1] for i in range(min(slow, len(data)))] + [data[slow:]]
            self._send_unsized(content_type, pieces, fault.seconds)
        elif fault.kind == "bomb":
            bomb = gzip_bomb(fault.size)
            self._send(200, bomb, content_type, {"Content-Encoding": "gzip"})
        elif fault.kind == "redirect":
            self._send(302, b"", "text/plain", {"Location": fault.location})
        elif fault.kind == "resume-loop":
            row = ["key", "20100101000000", "http://x/", "text/plain", "200", "d", "1"]
            body = [list(CDX_HEADER), row, [], ["same-key"]]
            self._send(200, json.dumps(body).encode(), "application/json")
        elif fault.kind == "garbage":
            self._send(200, GARBAGE, "application/json")
        elif fault.kind == "numbers":
            self._send(200, NUMBER_ROWS, "application/json")
        return True

    def _send_unsized(self, content_type: str, pieces: list[bytes], pause: float) -> None:
        """A body without Content-Length, ended by closing the connection."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Connection", "close")
        self.end_headers()
        for piece in pieces:
            self.wfile.write(piece)
            self.wfile.flush()
            if pause:
                time.sleep(pause)
        self.close_connection = True

    def _cdx(self) -> None:
        query = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
        url = query["url"]
        if self._apply(self.wayback.next_fault(f"cdx:{url}"), b"[]", "application/json"):
            return
        rows, seen = [], set()
        for stored in self.wayback.captures.get(url, []):
            if "from" in query and stored.timestamp < query["from"].ljust(14, "0"):
                continue
            if "to" in query and stored.timestamp > query["to"].ljust(14, "9"):
                continue
            digest = hashlib.sha1(stored.data).hexdigest()
            if query.get("collapse") == "digest" and digest in seen:
                continue
            seen.add(digest)
            rows.append(
                [
                    "key",
                    stored.timestamp,
                    url,
                    stored.content_type,
                    "200",
                    digest,
                    str(len(stored.data)),
                ]
            )
        key = query.get("resumeKey", "0")
        start = int(key) if key.isdigit() else 0
        limit = int(query.get("limit", "100000"))
        page = rows[start : start + limit]
        body: list[list[str]] = [list(CDX_HEADER), *page]
        if query.get("showResumeKey") == "true" and start + limit < len(rows):
            body += [[], [str(start + limit)]]
        self._send(200, json.dumps(body).encode(), "application/json")

    def _playback(self) -> None:
        stamp, _, url = self.path[len("/web/") :].partition("id_/")
        captures = self.wayback.captures.get(url, [])
        if not captures:
            self._apply(self.wayback.next_fault(f"fetch:{url}") or Fault("not-archived"), b"", "")
            return
        exact = [c for c in captures if c.timestamp == stamp]
        if not exact:  # like the Wayback Machine: redirect to the nearest capture
            nearest = min(captures, key=lambda c: abs(int(c.timestamp) - int(stamp.ljust(14, "0"))))
            self._send(302, b"", "text/plain", {"Location": f"/web/{nearest.timestamp}id_/{url}"})
            return
        stored = exact[0]
        if self.wayback.fetch_delay:
            time.sleep(self.wayback.fetch_delay)
        if self._apply(self.wayback.next_fault(f"fetch:{url}"), stored.data, stored.content_type):
            return
        self._send(200, stored.data, stored.content_type, {"Memento-Datetime": stored.timestamp})

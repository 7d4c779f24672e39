"""The mechanics under the crawler's HTTP policy: an overall deadline and bounded bodies.

`requests` only knows a per-read timeout: a server that sends one byte every two seconds
never trips it. `DeadlineAdapter` arms a watchdog for each response (once the request is
sent, so a drip in the headers is caught too) that shuts the socket down when the request's
deadline passes; the blocked read then ends and the caller sees `Deadline.expired`.

`read_body` streams the body undecoded and counts it against a size cap, and `inflate`
decompresses it against the same cap, so neither a huge body nor a gzip bomb (1 MB that
inflates to 1 GiB) can grow memory beyond the cap.
"""

from __future__ import annotations

import socket
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.response import BaseHTTPResponse

READ_CHUNK = 64 * 1024  # bytes read at a time; the cap is checked after each chunk
ENCODINGS = ("gzip", "x-gzip", "deflate", "identity")  # the only Content-Encodings accepted
ACCEPT_ENCODING = "gzip, deflate"  # never ask for a coding `inflate` cannot bound


class TooLarge(Exception):
    """The body, or what it inflates to, passed the size cap."""


class CutBody(Exception):
    """The body ended before it was whole (a compressed stream cut short)."""


class Deadline:
    """An absolute time after which a request is cut; shared by its redirects."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expires = time.monotonic() + seconds
        self.expired = False
        self._timers: list[threading.Timer] = []

    def remaining(self) -> float:
        return max(self.expires - time.monotonic(), 0.0)

    def watch(self, sock: socket.socket | None) -> None:
        """Shut `sock` down when the deadline passes (unless `cancel` comes first)."""
        if sock is None:
            return
        timer = threading.Timer(self.remaining(), self._cut, args=(sock,))
        timer.daemon = True
        self._timers.append(timer)
        timer.start()

    def _cut(self, sock: socket.socket) -> None:
        self.expired = True
        with suppress(OSError):  # already closed: nothing left to cut
            sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()


_current = threading.local()


@contextmanager
def deadline_for_thread(deadline: Deadline) -> Iterator[Deadline]:
    """Every response this thread opens inside the block is watched by `deadline`."""
    _current.deadline = deadline
    try:
        yield deadline
    finally:
        _current.deadline = None
        deadline.cancel()


class _Watched:
    """Mixin for urllib3 connections: arm the thread's deadline before reading a response."""

    sock: socket.socket | None

    def getresponse(self) -> Any:
        deadline = getattr(_current, "deadline", None)
        if deadline is not None:
            deadline.watch(self.sock)
        return super().getresponse()  # type: ignore[misc]


class _WatchedHTTPConnection(_Watched, HTTPConnection):
    pass


class _WatchedHTTPSConnection(_Watched, HTTPSConnection):
    pass


class _WatchedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class DeadlineAdapter(HTTPAdapter):
    """A requests adapter whose connections honour `deadline_for_thread`."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _WatchedHTTPPool,
            "https": _WatchedHTTPSPool,
        }


def read_body(raw: BaseHTTPResponse, limit: int) -> bytes:
    """The body as sent (still compressed, if it is), refusing more than `limit` bytes."""
    data = bytearray()
    for chunk in raw.stream(READ_CHUNK, decode_content=False):
        data += chunk
        if len(data) > limit:
            raise TooLarge(f"more than {limit} bytes")
    return bytes(data)


def inflate(data: bytes, encoding: str, limit: int) -> bytes:
    """`data` decoded from its Content-Encoding, refusing more than `limit` bytes of output."""
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return data
    if encoding in ("gzip", "x-gzip"):
        return _inflate(data, 16 + zlib.MAX_WBITS, limit)
    if encoding == "deflate":  # zlib-wrapped as the RFC says, or raw as some servers send
        try:
            return _inflate(data, zlib.MAX_WBITS, limit)
        except zlib.error:
            return _inflate(data, -zlib.MAX_WBITS, limit)
    raise ValueError(f"Content-Encoding {encoding!r} is not one of {', '.join(ENCODINGS)}")


def _inflate(data: bytes, wbits: int, limit: int) -> bytes:
    out = bytearray()
    pending = data
    while pending:
        inflater = zlib.decompressobj(wbits)
        chunk = pending
        while chunk:
            out += inflater.decompress(chunk, limit + 1 - len(out))
            if len(out) > limit:
                raise TooLarge(f"inflates to more than {limit} bytes")
            chunk = inflater.unconsumed_tail
        out += inflater.flush()
        if len(out) > limit:
            raise TooLarge(f"inflates to more than {limit} bytes")
        if not inflater.eof:
            raise CutBody("the compressed body ends before its end marker")
        # gzip allows several members one after another; anything else after the end is junk
        pending = inflater.unused_data if wbits > zlib.MAX_WBITS else b""
    return bytes(out)

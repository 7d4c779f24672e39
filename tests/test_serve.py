"""The preview server when a reader leaves a page before it has all of it."""

from __future__ import annotations

import socket
import struct
import threading
import time
from pathlib import Path

import pytest

from renderer.serve import serve_in_thread

BIG_PAGE_BYTES = 16 * 1024 * 1024  # far more than the socket buffers hold: sending blocks
WAIT_SECONDS = 10.0  # for the server's request thread to finish after the reader left


def _request_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if "process_request_thread" in t.name]


def test_a_reader_leaving_mid_page_prints_no_traceback(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "big" / "index.html"
    page.parent.mkdir()
    page.write_bytes(b"<p>" + b"x" * BIG_PAGE_BYTES + b"</p>")
    server, base = serve_in_thread(tmp_path)
    try:
        host, port = server.server_address[:2]
        reader = socket.create_connection((str(host), int(port)))
        reader.sendall(b"GET /big/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert reader.recv(1024).startswith(b"HTTP/1.0 200")
        # close at once, unread bytes and all: the server's next write meets a reset
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        reader.close()
        deadline = time.monotonic() + WAIT_SECONDS
        while _request_threads() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _request_threads(), "the server still sends to a reader that left"
    finally:
        server.shutdown()
        server.server_close()
    assert "Traceback" not in capfd.readouterr().err


def test_any_other_error_is_still_shown(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    server, _base = serve_in_thread(tmp_path)
    try:
        try:
            raise ValueError("a bug in a handler")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.shutdown()
        server.server_close()
    assert "ValueError: a bug in a handler" in capfd.readouterr().err

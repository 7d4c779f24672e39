"""`rules-history serve` against hostile requests, over real HTTP on 127.0.0.1.

The site is a few files written by hand beside a folder that is not part of it. Requests go
through a plain socket so that a target can hold bytes no HTTP client would send (a raw NUL).
Each test is one finding of the audit: a symlink leading out of the site, a NUL byte in the
path, a folder listed, and a day page with a second address without its trailing slash.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import serving

MISSING = b"<p>no such page</p>"
SECRET = b"outside the site"


def ask(base: str, target: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of `GET target`, sent as raw bytes."""
    address = urlsplit(base)
    with socket.create_connection((str(address.hostname), int(address.port or 80))) as conn:
        conn.sendall(b"GET " + target + b" HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b"".join(iter(lambda: conn.recv(65536), b""))
    assert answer, f"the server dropped the connection for {target!r} without an answer"
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A tiny site, and beside it a folder `outside` that the server must never show."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(SECRET)
    (outside / "index.html").write_bytes(SECRET)
    root = tmp_path / "site"
    (root / "static").mkdir(parents=True)
    (root / "index.html").write_text("<p>home</p>")
    (root / "404.html").write_bytes(MISSING)
    (root / "static" / "site.css").write_text("body {}")
    return root


@pytest.fixture
def served(site: Path) -> Iterator[str]:
    with serving(site) as base:
        yield base


def test_a_symlink_out_of_the_site_is_a_404(site: Path, served: str) -> None:
    outside = site.parent / "outside"
    (site / "etc").symlink_to(outside)  # a folder leading out
    (site / "notes.txt").symlink_to(outside / "secret.txt")  # a file leading out
    (site / "door").mkdir()
    (site / "door" / "index.html").symlink_to(outside / "index.html")  # an index page
    (site / "static" / "alias.css").symlink_to(site / "static" / "site.css")  # stays inside
    for target in (b"/etc/secret.txt", b"/etc/", b"/etc", b"/notes.txt", b"/door/"):
        status, _, body = ask(served, target)
        assert (status, body) == (404, MISSING), target
    status, _, body = ask(served, b"/static/alias.css")
    assert (status, body) == (200, b"body {}")


def test_a_symlink_loop_is_a_404_without_a_traceback(
    site: Path, served: str, capfd: pytest.CaptureFixture[str]
) -> None:
    """Resolving a loop raises RuntimeError on Python 3.11, which dropped the connection."""
    (site / "a").symlink_to(site / "b")
    (site / "b").symlink_to(site / "a")
    for target in (b"/a/x", b"/a", b"/b/"):
        status, _, body = ask(served, target)
        assert (status, body) == (404, MISSING), target
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize(
    "target",
    [b"/%00", b"/static/%00.css", b"/rule/504.2/2008-03-17/%00", b"/static/\x00.css"],
)
def test_a_nul_byte_is_a_404_without_a_traceback(
    served: str, target: bytes, capfd: pytest.CaptureFixture[str]
) -> None:
    status, _, body = ask(served, target)
    assert (status, body) == (404, MISSING)
    assert "Traceback" not in capfd.readouterr().err


def test_a_folder_without_an_index_page_is_a_404_not_a_listing(site: Path, served: str) -> None:
    drafts = site / "drafts"
    drafts.mkdir()
    (drafts / "notes.txt").write_text("draft")
    (drafts / ".env").write_text("TOKEN=1")
    status, _, body = ask(served, b"/drafts/")
    assert (status, body) == (404, MISSING)


def test_a_day_without_its_trailing_slash_is_redirected(served: str) -> None:
    status, headers, _ = ask(served, b"/rule/504.2/2008-03-17?from=feed")
    assert status == 301
    assert headers["Location"] == "/rule/504.2/2008-03-17/?from=feed"

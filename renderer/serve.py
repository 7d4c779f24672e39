"""Serve the built site on 127.0.0.1, answering unknown paths with the site's 404.html.

Only the site is served, as a static host serves it: a path with a segment starting with a
dot (`.build-manifest.json`, `.cache/`, what a build keeps for itself), a path that leads out
of the folder (a symlink to /etc), a path with a NUL byte and a folder without an index page
(no listings) are all answered like a missing page.

A rule number on a day with no page of its own (/rule/504.2/2008-03-17/) is answered here,
with HTTP 200: the number's page shown as of that day (renderer.asof_view), so that a reader
without JavaScript, and a link checker, get the wording in force. The number page's form
without JavaScript asks /rule/N/?date=DAY, which is sent on to /rule/N/DAY/. A day asked
without its trailing slash is sent on (301) to the one permalink that has it.
"""

from __future__ import annotations

import functools
import http.server
import io
import json
import os
import re
import sys
import threading
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from renderer.asof_view import Asked, show_as_of, valid_day
from vocabulary.days import ISO_DAY_PATTERN
from vocabulary.numbers import is_rule_number

RULE_DAY = re.compile(rf"/rule/([^/]+)/({ISO_DAY_PATTERN})/")
RULE_DAY_BARE = re.compile(rf"/rule/[^/]+/{ISO_DAY_PATTERN}")
RULE_PAGE = re.compile(r"/rule/([^/]+)/")
INDEX_PAGES = ("index.html", "index.htm")  # what http.server sends for a folder, in its order


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    def send_head(self) -> Any:
        if self.refused():
            self.send_error(404)
            return None
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        if RULE_DAY_BARE.fullmatch(path):
            return self.redirect(301, urlunsplit(("", "", f"{parts.path}/", parts.query, "")))
        if (lowered := _lower_rule_path(path)) is not None:  # 702.37B is 702.37b, as `show` has it
            return self.redirect(301, urlunsplit(("", "", lowered, parts.query, "")))
        local = Path(self.translate_path(self.path))
        asked = RULE_DAY.fullmatch(path)
        if asked and not local.exists():
            body = self.as_of(asked.group(1), asked.group(2), path)
            if body is not None:
                return self.send_page(body)
        day = parse_qs(parts.query).get("date", [""])[0]
        if RULE_PAGE.fullmatch(path) and valid_day(day):
            return self.redirect(302, f"{parts.path}{day}/")
        if not self.in_site(answered_with(local)):
            self.send_error(404)
            return None
        return super().send_head()

    def refused(self) -> bool:
        """True for a dot file or folder, and for a NUL byte anywhere in the request target:
        no file has one in its name, and `open` raises on it instead of answering."""
        return is_hidden(self.path) or "\x00" in unquote(self.path)

    def in_site(self, local: Path) -> bool:
        """True when `local`, its symlinks followed, is the site folder or lies inside it."""
        try:
            real = local.resolve()
        except (OSError, RuntimeError):  # a symlink loop: Python 3.11 raises RuntimeError
            return False
        return real.is_relative_to(Path(self.directory).resolve())

    def redirect(self, code: int, location: str) -> None:
        self.send_response(code)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """A folder without an index page is missing, as on a static host: no listing (one
        would name the folder's dot files too)."""
        self.send_error(404)

    def as_of(self, number: str, day: str, path: str) -> bytes | None:
        """The number page as of `day`, or None (no such number, or not a day)."""
        root = Path(self.directory)
        page = root / "rule" / number / "index.html"
        listed = root / "rule" / "releases.json"  # absent from a site built before it was
        if not valid_day(day) or not page.is_file() or not listed.is_file():
            return None
        if not self.in_site(page) or not self.in_site(listed):
            return None
        releases = json.loads(listed.read_bytes())
        origin = f"http://{self.headers.get('Host') or '127.0.0.1'}"
        asked = Asked(number, day, path, origin, date.today())
        shown = show_as_of(page.read_text(encoding="utf-8"), asked, releases)
        return shown.encode() if shown is not None else None

    def send_page(self, body: bytes) -> io.BytesIO:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code == 404 and page.is_file() and self.in_site(page):
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _lower_rule_path(path: str) -> str | None:
    """/rule/702.37B/... as /rule/702.37b/...: a subrule's letter typed in capitals, as
    `show` and the lookup box read it (static/resolve.js does so on a static host); None
    for any other path.

    >>> _lower_rule_path("/rule/702.37B/2015-01-01/"), _lower_rule_path("/rule/702.37b/")
    ('/rule/702.37b/2015-01-01/', None)
    """
    found = RULE_PAGE.match(path)
    if found is None or found.group(1) == found.group(1).lower():
        return None
    if not is_rule_number(found.group(1).lower()):
        return None
    return f"/rule/{found.group(1).lower()}/{path[found.end() :]}"


def is_hidden(request_path: str) -> bool:
    """True for a request into a dot file or folder, such as the build's caches and manifest.

    >>> is_hidden("/.build-manifest.json"), is_hidden("/%2Ecache/examples.json")
    (True, True)
    >>> is_hidden("/rule/504.2/")
    False
    """
    path = unquote(urlsplit(request_path).path)
    return any(part.startswith(".") for part in path.replace("\\", "/").split("/"))


def answered_with(local: Path) -> Path:
    """The file http.server sends for `local`: a folder's first index page, else the folder.

    The file itself must be checked, not only its folder: an index page can be a symlink.
    """
    if not local.is_dir():
        return local
    pages = (local / name for name in INDEX_PAGES)
    return next((page for page in pages if page.is_file()), local)


class SiteServer(http.server.ThreadingHTTPServer):
    """The server: a browser that leaves a long page before it has all of it closes the
    connection while the page is still being sent. That is how browsing goes, not an error:
    it gets no traceback. Any other error still does."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # BrokenPipeError, ConnectionResetError: the reader went away
        super().handle_error(request, client_address)


def make_server(site: Path, port: int = 0) -> SiteServer:
    """A server bound to 127.0.0.1 (port 0: any free port; read `server_address`)."""
    handler = functools.partial(SiteHandler, directory=str(site))
    return SiteServer(("127.0.0.1", port), handler)


def serve_in_thread(site: Path) -> tuple[SiteServer, str]:
    """Start a server on a free port in a daemon thread; returns it and its base URL."""
    server = make_server(site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    return server, f"http://127.0.0.1:{port}"

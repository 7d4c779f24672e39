"""A stand-in of a static host that reads `_redirects` (as Netlify and Cloudflare Pages do):
a real HTTP server on 127.0.0.1 that serves the built folder's files as they are, and for a
path with no file applies the folder's own `_redirects` rules: a `200` rule is a rewrite
(the other file is served under the address asked), `:name` matches one path segment. What
no file and no rule answers gets `/404.html` with HTTP 404. With `rewrites=False` it is a
host that ignores `_redirects` (GitHub Pages, a plain bucket).

Only what the site's file uses is implemented: placeholders and status 200; the rules are
read from the built file, so a wrong rule fails the tests that use this host.
"""

from __future__ import annotations

import http.server
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from loopback_server import LoopbackServer


def read_rules(site: Path) -> list[tuple[re.Pattern[str], str]]:
    """(pattern, target) for each `200` rule of `_redirects`."""
    rules = []
    for line in (site / "_redirects").read_text().splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#") or fields[2:] != ["200"]:
            continue
        source, target = fields[:2]
        pattern = re.sub(r":(\w+)", r"(?P<\1>[^/]+)", re.escape(source).replace(r"\:", ":"))
        rules.append((re.compile(pattern), target))
    return rules


class StaticHost(http.server.SimpleHTTPRequestHandler):
    rules: list[tuple[re.Pattern[str], str]] = []
    root = "."

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=self.root, **kwargs)

    def send_head(self) -> Any:
        path = unquote(urlsplit(self.path).path)
        if not Path(self.translate_path(self.path)).exists():
            for pattern, target in self.rules:
                found = pattern.fullmatch(path)
                if found:
                    self.path = re.sub(r":(\w+)", r"\\g<\1>", target)
                    self.path = found.expand(self.path)
                    break
        return super().send_head()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def static_host(site: Path, rewrites: bool = True) -> LoopbackServer:
    """A host serving `site` on a free port of 127.0.0.1, as a context manager (`.url`)."""
    rules = read_rules(site) if rewrites else []
    return LoopbackServer(type("Host", (StaticHost,), {"rules": rules, "root": str(site)}))

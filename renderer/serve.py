"""Serve the built site on 127.0.0.1, answering unknown paths with the site's 404.html.

Only the site is served: a path with a segment starting with a dot (`.build-manifest.json`,
`.cache/`, what a build keeps for itself) is answered like a missing page.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    def send_head(self) -> Any:
        if is_hidden(self.path):
            self.send_error(404)
            return None
        return super().send_head()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code == 404 and page.exists():
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


def is_hidden(request_path: str) -> bool:
    """True for a request into a dot file or folder, such as the build's caches and manifest.

    >>> is_hidden("/.build-manifest.json"), is_hidden("/%2Ecache/examples.json")
    (True, True)
    >>> is_hidden("/rule/504.2/")
    False
    """
    path = unquote(urlsplit(request_path).path)
    return any(part.startswith(".") for part in path.replace("\\", "/").split("/"))


def make_server(site: Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    """A server bound to 127.0.0.1 (port 0: any free port; read `server_address`)."""
    handler = functools.partial(SiteHandler, directory=str(site))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve_in_thread(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Start a server on a free port in a daemon thread; returns it and its base URL."""
    server = make_server(site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    return server, f"http://127.0.0.1:{port}"
